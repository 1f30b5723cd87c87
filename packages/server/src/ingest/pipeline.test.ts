import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '@se/core';
import { openDb, type Db } from '../db/index.ts';
import { migrate } from '../db/migrate.ts';
import type { DeviceRef } from './directory.ts';
import { IngestPipeline } from './pipeline.ts';

let db: Db;
let device: DeviceRef;
const log = { warn: () => {}, error: () => {}, info: () => {} } as never;

beforeAll(async () => {
  db = await openDb({ dataDir: null });
  await migrate(db);
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO devices (kind, ser_num, token) VALUES ('gateway', 'BP-1', 't') RETURNING id`,
  );
  device = {
    id: row!.id,
    kind: 'gateway',
    ser_num: 'BP-1',
    token: 't',
    gateway_id: null,
    industrial_type: null,
  };
});
afterAll(() => db.close());

describe('ingest pipeline', () => {
  it('holds submitters back instead of growing past its queue bound', async () => {
    const p = new IngestPipeline(db, log, { maxBatch: 20, maxDelayMs: 5, maxQueue: 50 });
    const n = 2000;
    const outcomes = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        p.submit(device, { type: 'report', id: `bp${i}`, ts: Date.now(), data: { co2: i } }),
      ),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(p.stats.maxQueued).toBeLessThanOrEqual(50);
    const [c] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM telemetry WHERE device_id = $1`,
      [device.id],
    );
    expect(c!.n).toBe(n);
    await p.close();
  });

  it('acknowledges nothing that was not committed: a failed batch rejects its submitters', async () => {
    const broken = { ...db, transaction: () => Promise.reject(new Error('database down')) } as Db;
    const q = new IngestPipeline(broken, log, { maxBatch: 10, maxDelayMs: 5, maxQueue: 100 });
    await expect(
      q.submit(device, { type: 'report', id: 'x1', ts: Date.now(), data: { co2: 1 } }),
    ).rejects.toThrow('database down');
  });

  it('isolates a message the database refuses: the others are stored, it is answered as bad', async () => {
    // A stand-in for data PostgreSQL refuses that validation let through.
    const refusing = {
      ...db,
      transaction: <T>(fn: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<T>) =>
        db.transaction((tx) =>
          fn({
            query: (sql: string, params?: readonly unknown[]) => {
              if (sql.includes('INSERT INTO telemetry') && (params?.[2] as string[]).includes('poison')) {
                return Promise.reject(Object.assign(new Error('invalid byte sequence'), { code: '22021' }));
              }
              return tx.query(sql, params);
            },
          } as never),
        ),
    } as Db;
    const p = new IngestPipeline(refusing, log, { maxBatch: 50, maxDelayMs: 20, maxQueue: 100 });
    const ids = ['ok1', 'poison', 'ok2'];
    const out = await Promise.all(
      ids.map((id) => p.submit(device, { type: 'report', id, ts: Date.now(), data: { co2: 1 } })),
    );
    expect(out.map((o) => o.ok)).toEqual([true, false, true]);
    const stored = await db.query<{ msg_id: string }>(
      `SELECT msg_id FROM telemetry WHERE msg_id = ANY($1::text[])`,
      [ids],
    );
    expect(stored.map((r) => r.msg_id).sort()).toEqual(['ok1', 'ok2']);
  });

  it('turns a help button pressed and released within one batch into one alarm, opened and closed', async () => {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO devices (kind, ser_num, token) VALUES ('gateway', 'BP-HELP', 't') RETURNING id`,
    );
    const help = { ...device, id: row!.id, ser_num: 'BP-HELP' };
    const p = new IngestPipeline(db, log, { maxBatch: 50, maxDelayMs: 20, maxQueue: 100 });
    const t = Date.now();
    const sent = await Promise.all([
      p.submit(help, { type: 'report', id: 'h1', ts: t - 2000, data: { alarm: 1 } }),
      p.submit(help, { type: 'report', id: 'h2', ts: t - 1000, data: { alarm: 0 } }),
      p.submit(help, { type: 'report', id: 'h3', ts: t, data: { alarm: 1 } }),
    ]);
    expect(sent.every((o) => o.ok)).toBe(true);
    expect(p.stats.batches).toBe(1);
    const alarms = await db.query<{ status: string; opened_at: Date }>(
      `SELECT status, opened_at FROM alarms WHERE device_id = $1 AND type = 'help' ORDER BY opened_at`,
      [help.id],
    );
    // The press at t-2s released at t-1s, and the press at t still open: two alarms, not more.
    expect(alarms.map((a) => [a.status, new Date(a.opened_at).getTime()])).toEqual([
      ['closed', t - 2000],
      ['open', t],
    ]);
    await p.close();
  });

  it('refuses a raw message above MAX_MESSAGE_BYTES before parsing it (external broker payloads)', async () => {
    const p = new IngestPipeline(db, log, { maxBatch: 10, maxDelayMs: 5, maxQueue: 100 });
    const sized = (bytes: number, id: string) => {
      const m = { id, ts: Date.now(), type: 'report', data: { co2: 1, pad: '' } };
      m.data.pad = 'x'.repeat(bytes - JSON.stringify(m).length);
      return Buffer.from(JSON.stringify(m));
    };
    const tooLarge = { ok: false, error: '消息过大：单条消息最多 64 KB' };
    expect(await p.submitRaw(device, sized(MAX_MESSAGE_BYTES + 1, 'big'))).toEqual(tooLarge);
    // Not even looked at as JSON: 5 MB of garbage gets the same answer.
    expect(await p.submitRaw(device, Buffer.alloc(5 * 1024 * 1024, '{'))).toEqual(tooLarge);
    expect(await p.submitRaw(device, sized(MAX_MESSAGE_BYTES, 'max'))).toEqual({
      ok: true,
      duplicate: false,
    });
    const stored = await db.query<{ msg_id: string }>(
      `SELECT msg_id FROM telemetry WHERE msg_id = ANY($1::text[])`,
      [['big', 'max']],
    );
    expect(stored.map((r) => r.msg_id)).toEqual(['max']);
    await p.close();
  });
});
