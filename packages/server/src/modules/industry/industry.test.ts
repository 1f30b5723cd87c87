// Smart industry through the API and the real ingest pipeline: monitors listed by site,
// area, type and online state for those who see them; a site's exposure against
// hand-computed figures; MAC and end-of-shift alarms; another tenant sees nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOWNLOAD_API,
  INDUSTRY_API,
  PERMISSION,
  type ExposureReport,
  type MonitorRow,
  type Page,
  type SiteRow,
} from '@se/core';
import {
  addDevice,
  kindUrl,
  sendReport,
  testApp,
  type TestApp,
  type TestDevice,
} from '../../test/harness.ts';

let t: TestApp;
let owner: { id: number; token: string };
let stranger: { id: number; token: string };
let member: { id: number; token: string };
let orgA: number;
let orgB: number;
let roomA: number;
let workshop: number;
let m1: TestDevice;
let m2: TestDevice;
let plain: TestDevice;

const MIN = 60_000;
const cst = (y: number, mo: number, d: number, h: number, mi = 0) => Date.UTC(y, mo - 1, d, h - 8, mi);

beforeAll(async () => {
  t = await testApp();
  const db = t.ctx.db;
  owner = await t.account('plant-owner', PERMISSION.user | PERMISSION.visitor);
  stranger = await t.account('plant-stranger', PERMISSION.user | PERMISSION.visitor);
  member = await t.account('plant-officer', PERMISSION.visitor | PERMISSION.ssVisitor);
  // Setup (not what this test is about): two sites, a workshop with a work area, placements.
  const [a] = await db.query<{ id: number }>(
    `INSERT INTO organisations (name, user_id) VALUES ('化工厂', $1) RETURNING id`,
    [owner.id],
  );
  const [b] = await db.query<{ id: number }>(
    `INSERT INTO organisations (name) VALUES ('别家工厂') RETURNING id`,
  );
  orgA = a!.id;
  orgB = b!.id;
  await db.query(`UPDATE users SET org_id = $1 WHERE id = $2`, [orgA, member.id]);
  const [w] = await db.query<{ id: number }>(
    `INSERT INTO campus_buildings (org_id, name) VALUES ($1, '一车间') RETURNING id`,
    [orgA],
  );
  workshop = w!.id;
  const [r] = await db.query<{ id: number }>(
    `INSERT INTO campus_rooms (org_id, building_id, number, name) VALUES ($1, $2, 'A1', '反应釜区') RETURNING id`,
    [orgA, workshop],
  );
  roomA = r!.id;
  m1 = await addDevice(t, 'gateway', 'BH-0001', owner.token, { industrial_type: 'BH-50' });
  m2 = await addDevice(t, 'gateway', 'BH-0002', owner.token, { industrial_type: 'BH-50' });
  plain = await addDevice(t, 'gateway', 'GW-PLAIN', owner.token);
  await db.query(
    `INSERT INTO placements (device_id, org_id, building_id, room_id) VALUES ($1, $3, $4, $5), ($2, $3, $4, NULL)`,
    [m1.id, m2.id, orgA, workshop, roomA],
  );
});
afterAll(() => t.close());

describe('smart industry', () => {
  it('judges a shift: STEL breach alarms at the shift end, a MAC breach at once', async () => {
    // 2026-06-01 早班 08:00–16:00: NH3 20 ppm every 5 min, 60 ppm 10:00–10:15; one H2S spike.
    for (let m = 0; m < 480; m += 5) {
      const ts = cst(2026, 6, 1, 8) + m * MIN;
      const data: Record<string, number> = { nh3: m >= 120 && m < 135 ? 60 : 20, co2: 800 };
      if (m === 300) data.h2s = 8; // 11.15 mg/m³ > MAC 10
      if (m === 305) data.h2s = 1;
      await sendReport(t, m1, data, ts);
    }
    const alarms = () =>
      t.ctx.db.query<{ type: string; status: string; message: string }>(
        `SELECT type, status, message FROM alarms WHERE device_id = $1 AND type LIKE 'exposure%' ORDER BY id`,
        [m1.id],
      );
    expect(await alarms()).toEqual([
      { type: 'exposure_mac', status: 'closed', message: expect.stringContaining('硫化氢 11.15 mg/m³') },
    ]);
    // The first report after 16:00 judges the day shift.
    await sendReport(t, m1, { nh3: 2, co2: 600 }, cst(2026, 6, 1, 16, 5));
    const after = await alarms();
    expect(after[1]).toMatchObject({ type: 'exposure', status: 'open' });
    expect(after[1]!.message).toContain('早班职业接触超限：氨 PC-STEL 41.791 > 30');
  });

  it("gives the site's exposure per work area and shift, worst monitor first-hand", async () => {
    const r = await t.get<ExposureReport>(
      INDUSTRY_API.exposure,
      { org_id: orgA, date: '2026-06-01' },
      { token: owner.token },
    );
    expect(r.code).toBe(200);
    expect(r.data.org_name).toBe('化工厂');
    const day = r.data.rows.find((x) => x.room_id === roomA && x.shift === 'day')!;
    // TWA = (20 × 465 + 60 × 15) / 480 = 21.25 ppm × 17.03 / 24.45 = 14.801 mg/m³.
    expect(day.gases.nh3).toMatchObject({ twa: 14.801, stel: 41.791, verdict: 'over' });
    expect(day.gases.h2s).toMatchObject({ max: 11.151, verdict: 'over', breaches: ['MAC 11.151 > 10'] });
    // CO2 800 ppm all shift: 1440.0 mg/m³, far under PC-TWA 9000.
    expect(day.gases.co2).toMatchObject({ twa: 1440, verdict: 'ok' });
    expect(day.covered_min).toBe(480);
    const night = r.data.rows.find((x) => x.room_id === roomA && x.shift === 'night')!;
    expect(night.gases.nh3!.verdict).toBe('unknown');
    // The workshop's own monitor (no room) is its own area, without readings.
    expect(r.data.rows.some((x) => x.room_id === null && x.building_id === workshop)).toBe(true);
  });

  it('lists monitors by site, area, type and online state, for those who see them', async () => {
    const list = (token: string, q: Record<string, unknown> = {}) =>
      t.get<Page<MonitorRow>>(INDUSTRY_API.monitors, { page: 1, page_size: 20, ...q }, { token });
    const all = await list(owner.token);
    expect(all.data.list.map((x) => x.ser_num).sort()).toEqual(['BH-0001', 'BH-0002']); // not GW-PLAIN
    expect((await list(owner.token, { room_id: roomA })).data.list.map((x) => x.ser_num)).toEqual([
      'BH-0001',
    ]);
    expect((await list(owner.token, { org_id: orgB })).data.total).toBe(0);
    expect((await list(owner.token, { industrial_type: 'BH-50', online: false })).data.total).toBe(2);
    const one = all.data.list.find((x) => x.id === m1.id)!;
    expect(one).toMatchObject({
      org_name: '化工厂',
      building_name: '一车间',
      room_name: '反应釜区',
      // the shift's exposure alarm only: a monitor's NH3 is no toilet air alarm
      open_alarms: 1,
    });
    expect(one.latest).toMatchObject({ nh3: 2 });
    // A member of the site sees its placed monitors without being bound to them.
    expect((await list(member.token)).data.total).toBe(2);
    const sites = await t.get<SiteRow[]>(INDUSTRY_API.sites, {}, { token: member.token });
    expect(sites.data).toEqual([
      {
        id: orgA,
        name: '化工厂',
        buildings: [{ id: workshop, name: '一车间', rooms: [{ id: roomA, name: '反应釜区' }] }],
      },
    ]);
    expect(plain.id).toBeGreaterThan(0);
  });

  it("shows another tenant nothing: no monitors, no sites, the site's exposure as missing", async () => {
    expect(
      (
        await t.get<Page<MonitorRow>>(
          INDUSTRY_API.monitors,
          { page: 1, page_size: 20 },
          { token: stranger.token },
        )
      ).data.total,
    ).toBe(0);
    expect((await t.get<SiteRow[]>(INDUSTRY_API.sites, {}, { token: stranger.token })).data).toEqual([]);
    for (const org of [orgA, orgB]) {
      const r = await t.get(
        INDUSTRY_API.exposure,
        { org_id: org, date: '2026-06-01' },
        { token: stranger.token },
      );
      expect(r.code).toBe(404);
    }
    // Nor through the download centre.
    const d = await t.post(
      DOWNLOAD_API.create,
      { name: 'industry-exposure', params: JSON.stringify({ org_id: orgA, date: '2026-06-01' }) },
      { token: stranger.token },
    );
    expect(d.code).toBe(404);
    const ok = await t.post<{ id: number }>(
      DOWNLOAD_API.create,
      { name: 'industry-exposure', params: JSON.stringify({ org_id: orgA, date: '2026-06-01' }) },
      { token: owner.token },
    );
    expect(ok.code).toBe(200);
  });

  it('judges an industrial monitor by exposure only: its gases raise no toilet air alarm, even just after it became one', async () => {
    const openTypes = async (d: TestDevice) =>
      (
        await t.ctx.db.query<{ type: string }>(
          `SELECT type FROM alarms WHERE device_id = $1 AND status = 'open' ORDER BY type`,
          [d.id],
        )
      ).map((r) => r.type);
    // NH3 10 ppm is far above a toilet's 1.5 ppm and far below the workplace's PC-STEL.
    const toilet = await addDevice(t, 'gateway', 'GW-TOILET', owner.token);
    const monitor = await addDevice(t, 'gateway', 'BH-0003', owner.token, { industrial_type: 'BH-50' });
    await sendReport(t, toilet, { nh3: 10 });
    await sendReport(t, monitor, { nh3: 10 });
    expect(await openTypes(toilet)).toEqual(['air']);
    expect(await openTypes(monitor)).toEqual([]);
    // A ceiling breach on the monitor is its exposure alarm, still not an air alarm.
    await sendReport(t, monitor, { h2s: 8 });
    expect(await openTypes(monitor)).toEqual(['exposure_mac']);
    // A gateway that signed in (directory warm) and then becomes a monitor is judged as one at once.
    const later = await addDevice(t, 'gateway', 'GW-LATER', owner.token);
    await sendReport(t, later, { nh3: 0.5 });
    const u = await t.post(
      kindUrl('gateway', 'update'),
      { id: later.id, industrial_type: 'BH-50' },
      { token: owner.token },
    );
    expect(u.code).toBe(200);
    await sendReport(t, later, { nh3: 10 });
    expect(await openTypes(later)).toEqual([]);
  });
});
