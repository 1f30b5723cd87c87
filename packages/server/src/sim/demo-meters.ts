// The demo's meters (issue 15): 40 electric and water meters of the demo university, placed
// in its buildings and rooms, with a month of hourly history and live readings through MQTT.
// Electricity follows the working day and week; water is near zero at night except for one
// leaking toilet cistern (the night-flow alarm) and one lab left running at night (the
// after-hours base-load alarm).
import { CAMPUS_API, DEVICE_KINDS, PERMISSION, TZ_OFFSET_HOURS, type DeviceKind } from '@se/core';
import { backfill, bySerial, ensureAccount, listPages } from './demo-kit.ts';
import { ConsoleApi, bindAll, ensureDevices } from './fleet.ts';
import { rng, type SimDevice } from './values.ts';

const CAMPUS_USER = 'campus';
const CAMPUS_PASSWORD = 'demo-pass-123';
const HOUR = 3_600_000;
const HISTORY_DAYS = 31;
const PER_KIND = 20;

interface Room {
  id: number;
  building_id: number;
  number: string;
  name: string;
  type: string;
}

type Profile = 'teaching' | 'lab' | 'office' | 'dormitory' | 'library' | 'washroom';
interface Meter {
  kind: 'electric_meter' | 'water_meter';
  profile: Profile;
  /** The leaking cistern / the lab left on at night. */
  fault: boolean;
}

const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/** Use per hour (kWh or m³) at a moment: the working day, the week, and the fault if any. */
export function meterRate(m: Meter, at: number, noise: number): number {
  const d = new Date(at + TZ_OFFSET_HOURS * HOUR);
  const h = d.getUTCHours() + d.getUTCMinutes() / 60;
  const weekend = d.getUTCDay() === 0 || d.getUTCDay() === 6;
  const day = h >= 8 && h < 18 ? 1 : h >= 7 && h < 22 ? 0.4 : 0;
  const evening = h >= 18 && h < 24 ? 1 : h >= 6 && h < 8 ? 0.6 : 0;
  const week = weekend ? 0.3 : 1;
  if (m.kind === 'electric_meter') {
    const base = m.fault ? 9 : m.profile === 'lab' ? 0.8 : m.profile === 'dormitory' ? 0.6 : 0.3;
    const peak = { teaching: 6, lab: 5, office: 4, dormitory: 2, library: 4, washroom: 0.5 }[m.profile];
    const load = m.profile === 'dormitory' ? evening * 5 + day * peak * 0.3 : day * peak * week;
    return (base + load) * (0.85 + 0.3 * noise);
  }
  const peak = { teaching: 0.3, lab: 0.4, office: 0.15, dormitory: 0.6, library: 0.1, washroom: 0.5 }[
    m.profile
  ];
  const use = m.profile === 'dormitory' ? Math.max(evening, day * 0.5) : day * week;
  return use * peak * (0.7 + 0.6 * noise) + (m.fault ? 0.03 : 0);
}

/** A meter's cumulative reading, advanced by its rate over the time since the last call. */
class MeterModel {
  private r: () => number;
  private last: number;
  constructor(
    private m: Meter,
    serNum: string,
    public reading: number,
    start: number,
  ) {
    this.r = rng(hash(serNum));
    this.last = start;
  }
  next(at: number) {
    if (at > this.last) this.reading += (meterRate(this.m, at, this.r()) * (at - this.last)) / HOUR;
    this.last = Math.max(this.last, at);
    return { reading: Math.round(this.reading * 10_000) / 10_000 };
  }
}

const PROFILE_OF_ROOM: Record<string, Profile> = {
  classroom: 'teaching',
  lab: 'lab',
  office: 'office',
  dormitory: 'dormitory',
  toilet: 'washroom',
  other: 'library',
};

/**
 * Registers the 40 meters (once), binds them to the campus manager, places each in a room
 * of the university, backfills a month of hourly readings for meters that never reported,
 * and answers them with their live models for the simulator.
 */
export async function ensureDemoMeters(
  admin: ConsoleApi,
  base: string,
  mqttUrl: string,
): Promise<SimDevice[]> {
  // The university's manager (demo-campus.ts makes it and the university first).
  const manager = {
    id: await ensureAccount(
      admin,
      CAMPUS_USER,
      CAMPUS_PASSWORD,
      PERMISSION.ssManager | PERMISSION.ssUser | PERMISSION.ssVisitor | PERMISSION.user | PERMISSION.visitor,
    ),
  };
  const campus = await new ConsoleApi(base).login(CAMPUS_USER, CAMPUS_PASSWORD);
  const rooms = (await listPages<Room>(campus, CAMPUS_API.rooms)).sort((a, b) => a.id - b.id);
  if (!rooms.length) return [];
  const washrooms = rooms.filter((r) => r.type === 'toilet');
  const others = rooms.filter((r) => r.type !== 'toilet');
  const out: SimDevice[] = [];
  for (const kind of ['electric_meter', 'water_meter'] as const) {
    const prefix = kind === 'electric_meter' ? 'CAMPUS-EM' : 'CAMPUS-WM';
    // Water meters mostly in washrooms; electricity meters in the other rooms.
    const where = (i: number) =>
      kind === 'water_meter' && i % 2 === 0
        ? washrooms[(i / 2) % washrooms.length]!
        : others[i % others.length]!;
    const label = kind === 'electric_meter' ? '电表' : '水表';
    const devices = await ensureDevices(admin, kind, prefix, PER_KIND, (i) => {
      const r = where(i);
      const fault = i === 0 ? (kind === 'water_meter' ? '（水箱漏水）' : '（夜间设备未关）') : '';
      return `${r.name || r.number} ${label}${fault}`;
    });
    await bindAll(
      admin,
      kind,
      manager.id,
      devices.map((d) => d.id),
    );
    const placeable = await campus.call<{ id: number; building_id: number | null }[]>(
      'GET',
      CAMPUS_API.placeable,
      {
        keywords: prefix,
      },
    );
    const placed = new Set(placeable.filter((d) => d.building_id !== null).map((d) => d.id));
    const sorted = bySerial(devices);
    for (const [i, d] of sorted.entries()) {
      const room = where(i);
      if (!placed.has(d.id))
        await campus.call('POST', CAMPUS_API.place, {
          device_id: d.id,
          building_id: room.building_id,
          room_id: room.id,
        });
      const meter: Meter = {
        kind,
        profile: PROFILE_OF_ROOM[room.type] ?? 'office',
        fault: i === 0,
      };
      const k = DEVICE_KINDS[kind as DeviceKind];
      const now = await admin.call<{ reading: number | null; time: number | null }>(
        'GET',
        `${k.base}/get-${k.one}`,
        {
          id: d.id,
        },
      );
      const end = Date.now();
      let model: MeterModel;
      if (now.time === null) {
        const start = Math.floor(end / HOUR) * HOUR - HISTORY_DAYS * 24 * HOUR;
        model = new MeterModel(meter, d.ser_num, 1000 + (hash(d.ser_num) % 5000), start);
        const points = [];
        for (let ts = start; ts < end; ts += HOUR) points.push({ ts, data: model.next(ts) });
        await backfill(mqttUrl, d, points);
      } else {
        model = new MeterModel(meter, d.ser_num, now.reading ?? 0, end);
      }
      out.push({ ...d, model });
    }
  }
  return out;
}
