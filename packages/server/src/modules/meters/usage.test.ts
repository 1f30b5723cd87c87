// Meter usage through the real ingest pipeline (HTTP report → batch → meter handler):
// spread between readings, a gap spread and marked, a reset that is not negative usage,
// UTC+8 days, a late reading ignored, and the night-flow alarm opening and closing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METERS_API, PERMISSION } from '@se/core';
import { placedUsage, usageByPlace } from './repo.ts';
import { addDevice, sendReport, testApp, type TestApp, type TestDevice } from '../../test/harness.ts';

let t: TestApp;
let owner: { id: number; token: string };
let other: { id: number; token: string };

const HOUR = 3_600_000;
/** Epoch ms of a China Standard Time wall clock. */
const cst = (y: number, mo: number, d: number, h: number, mi = 0) => Date.UTC(y, mo - 1, d, h - 8, mi);

beforeAll(async () => {
  t = await testApp();
  owner = await t.account('meter-owner', PERMISSION.user | PERMISSION.visitor);
  other = await t.account('meter-other', PERMISSION.user | PERMISSION.visitor);
});
afterAll(() => t.close());

async function usage(token: string, id: number, grain: string, from: number, to: number) {
  return t.get<{
    total: number;
    rows: { period_start: string; usage: number; gap: boolean; resets: number }[];
  }>(METERS_API.usage, { id, grain, from, to }, { token });
}

const round = (x: number) => Math.round(x * 1000) / 1000;

describe('meter usage', () => {
  let m: TestDevice;
  it('spreads usage over hours, marks a gap, counts a reset without negative usage', async () => {
    m = await addDevice(t, 'water_meter', 'WM-U1', owner.token);
    const readings: [number, number][] = [
      [cst(2026, 3, 10, 0, 0), 100],
      [cst(2026, 3, 10, 0, 30), 101],
      [cst(2026, 3, 10, 1, 0), 103], // hour 00: 3
      [cst(2026, 3, 10, 5, 0), 107], // 4 h gap: 1 per hour 01–04, marked gap
      [cst(2026, 3, 10, 5, 30), 2], // replaced meter: a reset, nothing counted
      [cst(2026, 3, 10, 6, 0), 5], // hour 05: 3
    ];
    for (const [ts, reading] of readings) await sendReport(t, m, { reading }, ts);
    // A late reading (older than the last) stays in history and changes nothing.
    await sendReport(t, m, { reading: 999 }, cst(2026, 3, 10, 4, 0));

    const hours = await usage(owner.token, m.id, 'hour', cst(2026, 3, 10, 0), cst(2026, 3, 10, 7));
    expect(hours.code).toBe(200);
    expect(
      hours.data.rows.map((r) => [new Date(r.period_start).getTime(), round(r.usage), r.gap, r.resets]),
    ).toEqual([
      [cst(2026, 3, 10, 0), 3, false, 0],
      [cst(2026, 3, 10, 1), 1, true, 0],
      [cst(2026, 3, 10, 2), 1, true, 0],
      [cst(2026, 3, 10, 3), 1, true, 0],
      [cst(2026, 3, 10, 4), 1, true, 0],
      [cst(2026, 3, 10, 5), 3, true, 1],
    ]);
    const days = await usage(owner.token, m.id, 'day', cst(2026, 3, 1, 0), cst(2026, 3, 20, 0));
    expect(days.data.rows).toEqual([
      { period_start: new Date(cst(2026, 3, 10, 0)).toISOString(), usage: 10, gap: true, resets: 1 },
    ]);
    const months = await usage(owner.token, m.id, 'month', cst(2026, 1, 1, 0), cst(2026, 6, 1, 0));
    expect(months.data.rows.map((r) => [r.period_start, r.usage])).toEqual([
      [new Date(cst(2026, 3, 1, 0)).toISOString(), 10],
    ]);
    expect(months.data.total).toBe(10);
  });

  it('splits a reading pair across midnight UTC+8 into two days', async () => {
    const e = await addDevice(t, 'electric_meter', 'EM-U1', owner.token);
    await sendReport(t, e, { reading: 50 }, cst(2026, 4, 1, 23, 30));
    await sendReport(t, e, { reading: 52 }, cst(2026, 4, 2, 0, 30));
    const days = await usage(owner.token, e.id, 'day', cst(2026, 4, 1, 0), cst(2026, 4, 3, 0));
    expect(days.data.rows.map((r) => [r.period_start, r.usage, r.gap])).toEqual([
      [new Date(cst(2026, 4, 1, 0)).toISOString(), 1, false],
      [new Date(cst(2026, 4, 2, 0)).toISOString(), 1, false],
    ]);
  });

  it('is not shown to an account that does not see the meter, and exports as CSV', async () => {
    const r = await usage(other.token, m.id, 'day', cst(2026, 3, 1, 0), cst(2026, 3, 20, 0));
    expect(r.code).toBe(404);
    const res = await t.app.inject({
      method: 'GET',
      url: `${METERS_API.usageExport}?id=${m.id}&grain=day&from=${cst(2026, 3, 1, 0)}&to=${cst(2026, 3, 20, 0)}`,
      headers: { 'x-token': owner.token },
    });
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body).toContain('2026-03-10,10,是,1');
  });

  it('opens night flow after 3 nights of water at 02:00–04:00 and closes it after a dry night', async () => {
    const w = await addDevice(t, 'water_meter', 'WM-LEAK', owner.token);
    let reading = 0;
    const alarms = async () =>
      (
        await t.ctx.db.query<{ status: string; opened_at: Date }>(
          `SELECT status, opened_at FROM alarms WHERE device_id = $1 AND type = 'night_flow' ORDER BY id`,
          [w.id],
        )
      ).map((a) => a.status);
    // Hourly readings for 3 days: a leak of 0.02 m³/h all day and night.
    for (let ts = cst(2026, 5, 1, 0); ts <= cst(2026, 5, 3, 6); ts += HOUR) {
      await sendReport(t, w, { reading: round(reading) }, ts);
      reading += 0.02;
    }
    expect(await alarms()).toEqual(['open']);
    // Repaired: no use at night on May 4.
    for (let ts = cst(2026, 5, 3, 7); ts <= cst(2026, 5, 4, 5); ts += HOUR) {
      const h = new Date(ts + 8 * HOUR).getUTCHours();
      if (h >= 7 && h <= 22) reading += 0.1;
      await sendReport(t, w, { reading: round(reading) }, ts);
    }
    expect(await alarms()).toEqual(['closed']);
  });

  it('opens after-hours base load when the night draws more than half the day mean', async () => {
    const e = await addDevice(t, 'electric_meter', 'EM-BASE', owner.token);
    let reading = 1000;
    // June 1: 2 kWh/h from 08:00 to 18:00, 0.1 kWh/h otherwise; June 2 night: 1.5 kWh/h.
    for (let ts = cst(2026, 6, 1, 0); ts <= cst(2026, 6, 2, 6); ts += HOUR) {
      await sendReport(t, e, { reading }, ts);
      const h = new Date(ts + 8 * HOUR).getUTCHours();
      const day1 = ts < cst(2026, 6, 2, 0);
      reading += day1 ? (h >= 8 && h < 18 ? 2 : 0.1) : 1.5;
    }
    const [a] = await t.ctx.db.query<{ status: string; detail: { night_mean: number; day_mean: number } }>(
      `SELECT status, detail FROM alarms WHERE device_id = $1 AND type = 'base_load'`,
      [e.id],
    );
    expect(a?.status).toBe('open');
    expect(a?.detail).toMatchObject({ night_mean: 1.5, day_mean: 2 });
  });

  it('sums the usage of the meters placed in a building and in a room', async () => {
    const db = t.ctx.db;
    const orgs = await db.query<{ id: number }>(
      `INSERT INTO organisations (name) VALUES ('大学'), ('别校') RETURNING id`,
    );
    const A = orgs[0]!.id;
    const B = orgs[1]!.id;
    const [b] = await db.query<{ id: number }>(
      `INSERT INTO campus_buildings (org_id, name) VALUES (${A}, '一号楼') RETURNING id`,
    );
    const [r] = await db.query<{ id: number }>(
      `INSERT INTO campus_rooms (org_id, building_id, number) VALUES (${A}, $1, '101') RETURNING id`,
      [b!.id],
    );
    const w1 = await addDevice(t, 'water_meter', 'WM-P1', owner.token);
    const w2 = await addDevice(t, 'water_meter', 'WM-P2', owner.token);
    await db.query(
      `INSERT INTO placements (device_id, org_id, building_id, room_id) VALUES ($1, ${A}, $3, $4), ($2, ${A}, $3, NULL)`,
      [w1.id, w2.id, b!.id, r!.id],
    );
    for (const [d, base] of [
      [w1, 10],
      [w2, 20],
    ] as const) {
      await sendReport(t, d, { reading: base }, cst(2026, 7, 1, 9));
      await sendReport(t, d, { reading: base + (d === w1 ? 1.5 : 2.5) }, cst(2026, 7, 1, 10));
    }
    const from = new Date(cst(2026, 7, 1, 0)).toISOString();
    const to = new Date(cst(2026, 7, 2, 0)).toISOString();
    const building = await placedUsage(db, { orgId: A, buildingId: b!.id }, 'day', from, to);
    expect(building.map((x) => [x.kind, x.usage, x.meters])).toEqual([['water_meter', 4, 2]]);
    const room = await placedUsage(db, { orgId: A, roomId: r!.id }, 'day', from, to);
    expect(room.map((x) => [x.kind, x.usage])).toEqual([['water_meter', 1.5]]);
    const rooms = await usageByPlace(db, A, 'room', 'day', from, to);
    expect(rooms.map((x) => [x.place_id, x.usage])).toEqual([[r!.id, 1.5]]);
    // Another organisation's figures do not include them.
    expect(await placedUsage(db, { orgId: B }, 'day', from, to)).toEqual([]);
  });
});
