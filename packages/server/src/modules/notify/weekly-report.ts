import { PERMISSION, SERVICE, TZ_OFFSET_MS, formatDateTime, has, type Gas } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import {
  weeklyAlarmDays,
  weeklyAlarmsByType,
  weeklyDevices,
  weeklyHourly,
  weeklyLiquid,
  weeklyOnlineDays,
  weeklyRatings,
} from './weekly-repo.ts';

// The weekly reports' numbers: which week is due and what it held for one user's devices.
// The e-mail (weekly-mail.ts) and the workbook (weekly-xlsx.ts) lay them out; weekly.ts sends.

/** The two weekly reports of SPEC §6's service flags. */
export const WEEKLY_KINDS = {
  jwb: { service: SERVICE.jwbWeeklyReport, label: '除臭机周报', kinds: ['jwb'] },
  toilet: { service: SERVICE.toiletWeeklyReport, label: '智慧厕所周报', kinds: ['gateway', 'sensor'] },
} as const;
export type WeeklyKind = keyof typeof WEEKLY_KINDS;

export const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** Reports go out on Monday at 08:00 in UTC+8. */
const SEND_HOUR = 8;
export const GASES: Gas[] = ['nh3', 'h2s', 'co2', 'pm25', 'voc'];
export const GAS_LABELS: Record<Gas, string> = {
  nh3: '氨气',
  h2s: '硫化氢',
  co2: '二氧化碳',
  pm25: 'PM2.5',
  voc: 'VOC',
};
/** Monday 00:00 (UTC+8) of the week holding `t`, as a UTC instant. */
export function mondayOf(t: Date): Date {
  const local = new Date(t.getTime() + TZ_OFFSET_MS);
  const back = (local.getUTCDay() + 6) % 7;
  return new Date(
    Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - back) - TZ_OFFSET_MS,
  );
}

/** The week whose report is due at `now`: the one before the latest Monday 08:00 passed. */
export function dueWeek(now: Date): { start: Date; end: Date } {
  let monday = mondayOf(now);
  if (now.getTime() < monday.getTime() + SEND_HOUR * 3_600_000) monday = new Date(monday.getTime() - WEEK);
  return { start: new Date(monday.getTime() - WEEK), end: monday };
}

export const localDate = (d: Date) => formatDateTime(d).slice(0, 10);

export interface DeviceLine {
  id: number;
  ser_num: string;
  desc: string;
  kind: string;
  /** Hours of the week with at least one report. */
  hours: number;
  /** hours / 168, 0–1 */
  online_ratio: number;
  alarms: number;
  nh3: number | null;
  h2s: number | null;
  co2: number | null;
  pm25: number | null;
  voc: number | null;
  liquid_start: number | null;
  liquid_end: number | null;
  /** Sum of the drops of the hourly average level (refills are rises, not use). */
  liquid_used: number | null;
}

export interface WeeklyReport {
  kind: WeeklyKind;
  user: { id: number; user_name: string; email: string | null };
  start: Date;
  end: Date;
  devices: DeviceLine[];
  /** Devices with data each day (index 0 = Monday). */
  online_by_day: number[];
  alarms_by_day: number[];
  alarms_by_type: { type: string; count: number }[];
  availability: number;
  ratings: {
    count: number;
    average: number;
    stars: number[];
    badattitude: number;
    inefficiency: number;
    poorsanitary: number;
    smelly: number;
    toilets: { name: string; count: number; average: number }[];
  } | null;
}

const round = (v: number | null, digits = 3) =>
  v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits;

/** The week's numbers for the devices `user` sees (develop: all). */
export async function buildWeeklyReport(
  q: Queryable,
  user: { id: number; user_name: string; email: string | null; permissions: number; path: string },
  kind: WeeklyKind,
  week: { start: Date; end: Date },
): Promise<WeeklyReport> {
  const all = has(user.permissions, PERMISSION.develop);
  const devices = await weeklyDevices(q, WEEKLY_KINDS[kind].kinds, all ? null : user.path);
  const ids = devices.map((d) => d.id);
  const range = [ids, week.start, week.end] as const;
  const [hourly, liquid, alarms, onlineDays, alarmDays] = await Promise.all([
    weeklyHourly(q, GASES, range),
    kind === 'jwb' ? weeklyLiquid(q, range) : [],
    weeklyAlarmsByType(q, range),
    weeklyOnlineDays(q, range),
    weeklyAlarmDays(q, range),
  ]);
  const byHour = new Map(hourly.map((h) => [h.device_id, h]));
  const byLiquid = new Map(liquid.map((l) => [l.device_id, l]));
  const alarmCount = new Map<number, number>();
  const typeCount = new Map<string, number>();
  for (const a of alarms) {
    alarmCount.set(a.device_id, (alarmCount.get(a.device_id) ?? 0) + a.n);
    typeCount.set(a.type, (typeCount.get(a.type) ?? 0) + a.n);
  }
  const hoursInWeek = (week.end.getTime() - week.start.getTime()) / 3_600_000;
  const lines: DeviceLine[] = devices.map((d) => {
    const h = byHour.get(d.id);
    const l = byLiquid.get(d.id);
    const hours = h?.hours ?? 0;
    return {
      ...d,
      hours,
      online_ratio: Math.min(1, hours / hoursInWeek),
      alarms: alarmCount.get(d.id) ?? 0,
      nh3: round(h?.nh3 ?? null),
      h2s: round(h?.h2s ?? null),
      co2: round(h?.co2 ?? null, 1),
      pm25: round(h?.pm25 ?? null, 1),
      voc: round(h?.voc ?? null),
      liquid_start: l ? round(l.first, 1) : null,
      liquid_end: l ? round(l.last, 1) : null,
      liquid_used: l ? round(l.used, 1) : null,
    };
  });
  const perDay = (rows: { day: number; n: number }[]) => {
    const out = Array<number>(7).fill(0);
    for (const r of rows) if (r.day >= 0 && r.day < 7) out[r.day] = r.n;
    return out;
  };
  return {
    kind,
    user: { id: user.id, user_name: user.user_name, email: user.email },
    start: week.start,
    end: week.end,
    devices: lines,
    online_by_day: perDay(onlineDays),
    alarms_by_day: perDay(alarmDays),
    alarms_by_type: [...typeCount]
      .map(([type, count]) => ({ type, count }))
      .sort((a, b) => b.count - a.count),
    availability: lines.length ? lines.reduce((s, l) => s + l.online_ratio, 0) / lines.length : 0,
    ratings: kind === 'toilet' ? await ratings(q, user, all, week) : null,
  };
}

async function ratings(
  q: Queryable,
  user: { path: string },
  all: boolean,
  week: { start: Date; end: Date },
): Promise<WeeklyReport['ratings']> {
  const rows = await weeklyRatings(q, all ? null : user.path, week.start, week.end);
  const sum = (k: keyof (typeof rows)[number]) => rows.reduce((s, r) => s + (r[k] as number), 0);
  const count = sum('n');
  return {
    count,
    average: count ? Math.round((sum('stars') / count) * 10) / 10 : 0,
    stars: [sum('s1'), sum('s2'), sum('s3'), sum('s4'), sum('s5')],
    badattitude: sum('badattitude'),
    inefficiency: sum('inefficiency'),
    poorsanitary: sum('poorsanitary'),
    smelly: sum('smelly'),
    toilets: rows.map((r) => ({ name: r.name, count: r.n, average: Math.round((r.stars / r.n) * 10) / 10 })),
  };
}

// ---- shared by the e-mail and the workbook ----

export const pct = (r: number) => `${Math.round(r * 1000) / 10}%`;
export const DAY_NAMES = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'];

export function reportTitle(r: WeeklyReport) {
  const last = new Date(r.end.getTime() - DAY);
  return `${WEEKLY_KINDS[r.kind].label}（${localDate(r.start)} 至 ${localDate(last)}）`;
}

export const totalAlarms = (r: WeeklyReport) => r.alarms_by_type.reduce((s, a) => s + a.count, 0);
