import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_KINDS } from '@se/core';
import { addDevice, adminApp, sendReport, type TestApp } from '../test/harness.ts';
import { ensurePartitions } from './partitions.ts';
import { applyRetention } from './retention.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => ({ t, admin } = await adminApp()));
afterAll(() => t.close());

const rows = async (deviceId: number) =>
  (
    await t.ctx.db.query<{ ts: Date }>(`SELECT ts FROM telemetry WHERE device_id = $1 ORDER BY ts`, [
      deviceId,
    ])
  ).map((r) => new Date(r.ts).toISOString().slice(0, 10));

describe('telemetry partitions and retention', () => {
  it('creates this month and the next two, idempotently', async () => {
    await ensurePartitions(t.ctx.db, new Date('2026-11-21T00:00:00Z'));
    await ensurePartitions(t.ctx.db, new Date('2026-11-21T00:00:00Z'));
    const parts = await t.ctx.db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'telemetry'::regclass`,
    );
    expect(parts.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'telemetry_default',
        'telemetry_y2026m11',
        'telemetry_y2026m12',
        'telemetry_y2027m01',
      ]),
    );
  });

  it('drops whole old months, trims the default partition and keeps recent reports', async () => {
    const d = await addDevice(t, 'gateway', 'RET-1', admin);
    await ensurePartitions(t.ctx.db, new Date('2024-03-01T00:00:00Z'));
    await t.ctx.db.query(
      `INSERT INTO telemetry (device_id, ts, msg_id, data) VALUES
         ($1, '2023-06-01T00:00:00Z', 'a', '{}'), ($1, '2024-03-10T00:00:00Z', 'b', '{}'), ($1, now(), 'c', '{}')`,
      [d.id],
    );
    const r = await applyRetention(t.ctx.db, 400, new Date('2025-06-01T00:00:00Z'));
    expect(r.dropped).toContain('telemetry_y2024m03');
    expect(await rows(d.id)).toEqual([new Date().toISOString().slice(0, 10)]);
  });

  it('keeps everything when retention is 0', async () => {
    expect((await applyRetention(t.ctx.db, 0)).dropped).toEqual([]);
  });
});

describe('evaluation terminal ratings', () => {
  it('become comments and move the terminal star average', async () => {
    const evl = await addDevice(t, 'evaluate', 'EVL-1', admin);
    for (const star of [4, 2]) {
      expect((await sendReport(t, evl, { star_level: star, smelly: 1 })).accepted).toBe(1);
    }
    const comments = await t.ctx.db.query<{ star_level: number; smelly: boolean }>(
      `SELECT star_level, smelly FROM comments WHERE equipment_id = $1 ORDER BY id`,
      [evl.id],
    );
    expect(comments).toEqual([
      { star_level: 4, smelly: true },
      { star_level: 2, smelly: true },
    ]);
    const dev = await t.get<{ star_count: number; star_level: number }>(
      `${DEVICE_KINDS.evaluate.base}/get-evaluate`,
      { id: evl.id },
      { token: admin },
    );
    expect(dev.data).toMatchObject({ star_count: 2, star_level: 3 });
  });
});
