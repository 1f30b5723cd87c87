// The example for an area author: how a device kind adds an ingest step, and what the
// pipeline guarantees about it (one call per batch, inside the batch's transaction).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../db/index.ts';
import { testApp, type TestApp } from '../test/harness.ts';
import type { DeviceRef } from './directory.ts';
import type { IngestHandler, StoredReport } from './handler.ts';
import { INGEST_HANDLERS } from './handlers/index.ts';
import { IngestPipeline } from './pipeline.ts';

let t: TestApp;
let db: Db;
let gateway: DeviceRef;
let sensor: DeviceRef;
const log = { warn: () => {}, error: () => {}, info: () => {} } as never;

async function device(kind: string, ser: string): Promise<DeviceRef> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO devices (kind, ser_num, token) VALUES ($1, $2, 't') RETURNING id`,
    [kind, ser],
  );
  return { id: row!.id, kind, ser_num: ser, token: 't', gateway_id: null, industrial_type: null };
}

beforeAll(async () => {
  // A fresh database (PGlite, or PostgreSQL with TEST_DB=postgres); its pipeline is unused.
  t = await testApp();
  db = t.ctx.db;
  // The kind's own table; the CHECK stands for anything the database refuses.
  await db.query(
    `CREATE TABLE example_readings (device_id int NOT NULL, co2 int NOT NULL CHECK (co2 < 5000))`,
  );
  gateway = await device('gateway', 'HX-GW');
  sensor = await device('sensor', 'HX-SN');
});
afterAll(() => t.close());

/** Gateways' CO2 readings copied to a table of their own: a store step and a validator. */
function exampleHandler(calls: string[][]): IngestHandler {
  return {
    name: 'example-readings',
    kinds: ['gateway'],
    validate: (data) => (data.co2 === 4242 ? '示例：该读数不接受' : undefined),
    // One statement for the whole batch, as every step does; SQL belongs in a repo.ts.
    async store(tx: Queryable, reports: StoredReport[]) {
      calls.push(reports.map((r) => `${r.kind}:${r.data.co2}`));
      await tx.query(`INSERT INTO example_readings SELECT * FROM unnest($1::int[], $2::int[])`, [
        reports.map((r) => r.device_id),
        reports.map((r) => r.data.co2),
      ]);
    },
  };
}

const report = (id: string, co2: number) => ({ type: 'report' as const, id, ts: Date.now(), data: { co2 } });

describe('ingest handlers', () => {
  it("runs a kind's step once per batch with that kind's reports, and rolls it back with the batch", async () => {
    const calls: string[][] = [];
    const p = new IngestPipeline(db, log, { maxBatch: 50, maxDelayMs: 20, maxQueue: 100 }, [
      ...INGEST_HANDLERS,
      exampleHandler(calls),
    ]);
    const out = await Promise.all([
      p.submit(gateway, report('hx1', 400)),
      p.submit(sensor, report('hx2', 410)),
      p.submit(gateway, report('hx3', 9000)), // refused by the step's table
      p.submit(gateway, report('hx4', 420)),
    ]);
    // The refused step sank its batch; retried one by one, only its own message is refused.
    expect(out).toEqual([
      { ok: true, duplicate: false },
      { ok: true, duplicate: false },
      { ok: false, error: '数据无法保存' },
      { ok: true, duplicate: false },
    ]);
    // First the whole batch in one call (gateways only), then each gateway message alone.
    expect(calls).toEqual([
      ['gateway:400', 'gateway:9000', 'gateway:420'],
      ['gateway:400'],
      ['gateway:9000'],
      ['gateway:420'],
    ]);
    const mine = await db.query<{ co2: number }>(`SELECT co2 FROM example_readings ORDER BY co2`);
    expect(mine.map((r) => r.co2)).toEqual([400, 420]);
    // The refused message's history row went with the step that failed.
    const history = await db.query<{ msg_id: string }>(
      `SELECT msg_id FROM telemetry WHERE msg_id LIKE 'hx%' ORDER BY msg_id`,
    );
    expect(history.map((r) => r.msg_id)).toEqual(['hx1', 'hx2', 'hx4']);
    // The registered steps still ran: the hourly rollup counted the stored readings.
    const [hourly] = await db.query<{ n: number }>(
      `SELECT sum((counts->>'co2')::int)::int AS n FROM telemetry_hourly WHERE device_id = $1`,
      [gateway.id],
    );
    expect(hourly!.n).toBe(2);
    await p.close();
  });

  it("answers a report its kind's validator refuses, before it is queued", async () => {
    const calls: string[][] = [];
    const p = new IngestPipeline(db, log, { maxBatch: 50, maxDelayMs: 5, maxQueue: 100 }, [
      exampleHandler(calls),
    ]);
    expect(await p.submit(gateway, report('hx5', 4242))).toEqual({ ok: false, error: '示例：该读数不接受' });
    // Other kinds are not this handler's: the same reading from a sensor is stored.
    expect(await p.submit(sensor, report('hx6', 4242))).toEqual({ ok: true, duplicate: false });
    await p.close();
    expect(calls).toEqual([]);
    const history = await db.query<{ msg_id: string }>(
      `SELECT msg_id FROM telemetry WHERE msg_id IN ('hx5', 'hx6')`,
    );
    expect(history.map((r) => r.msg_id)).toEqual(['hx6']);
  });

  it('refuses a handler listed twice: its steps would run twice in every batch', () => {
    const h = exampleHandler([]);
    expect(() => new IngestPipeline(db, log, undefined, [h, INGEST_HANDLERS[0]!, h])).toThrow(
      'ingest handler example-readings is listed twice',
    );
  });
});
