// The demo's industrial site (issue 15): a chemical plant (an organisation) with 2 workshops
// and 4 work areas, 8 BH-50 gas monitors placed two per area by the plant's manager
// (factory / demo-pass-123), a day of one-minute history and live readings through MQTT.
// NH3 follows the shifts (day > evening > night, quiet on Sundays); the reactor area has a
// short NH3 release each morning (a STEL breach) and the tank farm a brief H2S peak each
// afternoon (a ceiling breach), so the exposure screen and its alarms have something to show.
import { CAMPUS_API, DEVICE_KINDS, ORG_API, PERMISSION, TZ_OFFSET_HOURS } from '@se/core';
import { backfill, bySerial, ensureAccount, listPages } from './demo-kit.ts';
import { ConsoleApi, bindAll, ensureDevices } from './fleet.ts';
import { rng, type SimDevice } from './values.ts';

const FACTORY_USER = 'factory';
const FACTORY_PASSWORD = 'demo-pass-123';
const MIN = 60_000;
const GW = DEVICE_KINDS.gateway;
const GW_UPDATE = `${GW.base}/update-${GW.one}`;
const GW_GET = `${GW.base}/get-${GW.one}`;
const HISTORY_MIN = 24 * 60;

const AREAS: [workshop: string, code: string, area: string, nh3: number][] = [
  ['一号合成车间', 'W1', '反应釜区', 14],
  ['一号合成车间', 'W1', '罐区', 8],
  ['二号包装车间', 'W2', '包装线', 3],
  ['二号包装车间', 'W2', '仓储区', 2],
];

const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);
const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

/** A monitor's readings at a moment (ppm): the shift's activity, noise and its area's events. */
export class MonitorModel {
  private r: () => number;
  constructor(
    private area: number,
    private first: boolean,
    serNum: string,
  ) {
    this.r = rng(hash(serNum));
  }
  next(at: number) {
    const d = new Date(at + TZ_OFFSET_HOURS * 3_600_000);
    const h = d.getUTCHours() + d.getUTCMinutes() / 60;
    const activity = d.getUTCDay() === 0 ? 0.3 : h >= 8 && h < 16 ? 1 : h >= 16 ? 0.8 : 0.5;
    const r = this.r;
    let nh3 = AREAS[this.area]![3] * activity * (0.8 + 0.4 * r());
    let h2s = (this.area === 1 ? 0.8 : 0.3) * activity * (0.7 + 0.6 * r());
    // Reactor area, first monitor: a release 10:30–10:45 (about 45 ppm).
    if (this.area === 0 && this.first && h >= 10.5 && h < 10.75) nh3 = 42 + 6 * r();
    // Tank farm: an H2S peak 14:00–14:03 (about 8 ppm, above the 10 mg/m³ ceiling).
    if (this.area === 1 && h >= 14 && h < 14.05) h2s = 7.6 + r();
    return {
      nh3: round(nh3, 2),
      h2s: round(h2s, 3),
      co2: Math.round(480 + 900 * activity * (0.6 + 0.6 * r())),
    };
  }
}

/** The demo plant (made once) and its monitors with their live models. */
export async function ensureDemoIndustry(
  admin: ConsoleApi,
  base: string,
  mqttUrl: string,
): Promise<SimDevice[]> {
  const managerId = await ensureAccount(
    admin,
    FACTORY_USER,
    FACTORY_PASSWORD,
    PERMISSION.ssManager | PERMISSION.ssUser | PERMISSION.ssVisitor | PERMISSION.user | PERMISSION.visitor,
  );
  const plant = await new ConsoleApi(base).login(FACTORY_USER, FACTORY_PASSWORD);
  try {
    await plant.call('GET', ORG_API.get);
  } catch {
    await admin.call('POST', ORG_API.add, {
      name: '华东精细化工有限公司',
      slogan: '安全第一 · 预防为主',
      user_id: managerId,
    });
  }
  const monitors = await ensureDevices(
    admin,
    'gateway',
    'FACTORY-BH',
    AREAS.length * 2,
    (i) => `${AREAS[Math.floor(i / 2)]![2]}监测仪 ${(i % 2) + 1}`,
  );
  for (const m of monitors) await admin.call('POST', GW_UPDATE, { id: m.id, industrial_type: 'BH-50' });
  await bindAll(
    admin,
    'gateway',
    managerId,
    monitors.map((m) => m.id),
  );
  let buildings = await listPages<{ id: number; code: string }>(plant, CAMPUS_API.buildings);
  for (const [name, code] of [...new Map(AREAS.map((a) => [a[1], a[0]])).entries()].map(([c, n]) => [n, c]))
    if (!buildings.some((b) => b.code === code))
      await plant.call('POST', CAMPUS_API.addBuilding, {
        name,
        code,
        use: 'other',
        floors_above: 1,
        floors_below: 0,
      });
  buildings = await listPages(plant, CAMPUS_API.buildings);
  const rooms = await listPages<{ id: number; building_id: number; number: string }>(plant, CAMPUS_API.rooms);
  const placeable = await plant.call<{ id: number; building_id: number | null }[]>(
    'GET',
    CAMPUS_API.placeable,
    {
      keywords: 'FACTORY-BH',
    },
  );
  const placed = new Set(placeable.filter((d) => d.building_id !== null).map((d) => d.id));
  const sorted = bySerial(monitors);
  const out: SimDevice[] = [];
  for (const [ai, [, code, area]] of AREAS.entries()) {
    const b = buildings.find((x) => x.code === code)!;
    const number = `${code}-${(ai % 2) + 1}`;
    let room = rooms.find((r) => r.building_id === b.id && r.number === number);
    if (!room) {
      room = await plant.call<{ id: number; building_id: number; number: string }>(
        'POST',
        CAMPUS_API.addRoom,
        {
          building_id: b.id,
          floor: 1,
          number,
          name: area,
          type: 'other',
        },
      );
    }
    for (const k of [0, 1]) {
      const d = sorted[ai * 2 + k];
      if (!d) continue;
      if (!placed.has(d.id))
        await plant.call('POST', CAMPUS_API.place, { device_id: d.id, building_id: b.id, room_id: room.id });
      const model = new MonitorModel(ai, k === 0, d.ser_num);
      const got = await admin.call<{ time: number | null }>('GET', GW_GET, { id: d.id });
      if (got.time === null) {
        const end = Math.floor(Date.now() / MIN) * MIN;
        const points = [];
        for (let ts = end - HISTORY_MIN * MIN; ts < end; ts += MIN) points.push({ ts, data: model.next(ts) });
        await backfill(mqttUrl, d, points);
      }
      out.push({ ...d, model });
    }
  }
  return out;
}
