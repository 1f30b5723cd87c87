// The demo's attendance rules (issue 16 part B): shift schemes given to the demo
// organisation's departments, and the last month of punches sent by a clock-in terminal
// through the ingest pipeline (the HTTP transport, messages in batches), so /ci-record shows
// a month of results with a few late, early and missing days. Idempotent: schemes are made
// once, and each punch has a fixed message id, so a restart stores nothing twice.
import {
  ATTENDANCE_API,
  ATTENDANCE_RULES_API,
  DEVICE_REPORT_API,
  DEVICE_TOKEN_HEADER,
  type DepartmentRow,
  type EmployeeRow,
  type Page,
  type SchemeRow,
} from '@se/core';
import type { ConsoleApi } from './fleet.ts';

const DAY_MS = 86_400_000;
const TZ_MS = 8 * 3_600_000;

interface DemoScheme {
  name: string;
  segments: { start: string; end: string }[];
  workdays: number[];
  /** Departments (by a word of their name) that get it; the root department gets the first. */
  match: RegExp | null;
}

const SCHEMES: DemoScheme[] = [
  { name: '行政白班', segments: [{ start: '09:00', end: '18:00' }], workdays: [1, 2, 3, 4, 5], match: null },
  {
    name: '保洁两头班',
    segments: [
      { start: '06:30', end: '11:00' },
      { start: '14:00', end: '18:30' },
    ],
    workdays: [1, 2, 3, 4, 5, 6],
    match: /保洁/,
  },
  {
    name: '夜班',
    segments: [{ start: '22:00', end: '06:00' }],
    workdays: [1, 2, 3, 4, 5, 6, 7],
    match: /夜|值班|安保/,
  },
];

/** A small deterministic generator: the same demo every start. */
function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4_294_967_296;
  };
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The ms of each in/out time of a scheme on the day starting at t0 (UTC+8 midnight). */
function times(segments: DemoScheme['segments'], t0: number) {
  const out: { start: number; end: number }[] = [];
  let prev = -1;
  for (const s of segments) {
    let a = minutes(s.start);
    while (a <= prev) a += 1440;
    let b = minutes(s.end);
    while (b <= a) b += 1440;
    out.push({ start: t0 + a * 60_000, end: t0 + b * 60_000 });
    prev = b;
  }
  return out;
}

export async function demoAttendanceRules(
  api: ConsoleApi,
  terminal: { ser_num: string; token: string },
  days = 30,
) {
  const have = await api.call<Page<SchemeRow>>('GET', ATTENDANCE_RULES_API.schemes, { page_size: 100 });
  const byName = new Map(have.list.map((s) => [s.name, s]));
  const departments = await api.call<DepartmentRow[]>('GET', ATTENDANCE_API.departments);
  const root = departments.find((d) => d.parent_id === null);
  const schemeOfDepartment = new Map<number, DemoScheme>();
  for (const s of SCHEMES) {
    let row = byName.get(s.name);
    if (!row) {
      row = await api.call<SchemeRow>('POST', ATTENDANCE_RULES_API.addScheme, {
        name: s.name,
        segments: s.segments,
        workdays: s.workdays,
        late_grace: 5,
        early_grace: 5,
      });
      const targets = s.match
        ? departments.filter((d) => s.match!.test(d.name)).map((d) => d.id)
        : root
          ? [root.id]
          : [];
      if (targets.length) {
        await api.call('POST', ATTENDANCE_RULES_API.assignScheme, {
          scheme_id: row.id,
          department_ids: targets,
        });
      }
    }
    const given = s.match ? departments.filter((d) => s.match!.test(d.name)) : root ? [root] : [];
    for (const d of given) schemeOfDepartment.set(d.id, s);
  }
  // The scheme an employee follows: the nearest department up the tree that has one.
  const byId = new Map(departments.map((d) => [d.id, d]));
  const schemeOf = (depId: number): DemoScheme | undefined => {
    for (let d = byId.get(depId); d; d = d.parent_id ? byId.get(d.parent_id) : undefined) {
      const s = schemeOfDepartment.get(d.id);
      if (s) return s;
    }
    return undefined;
  };

  const employees: EmployeeRow[] = [];
  for (let page = 1; ; page++) {
    const r = await api.call<Page<EmployeeRow>>('GET', ATTENDANCE_API.employees, {
      page,
      page_size: 100,
      status: 1,
    });
    employees.push(...r.list);
    if (r.list.length < 100) break;
  }

  // Yesterday back `days` days; today is left to the simulated terminals.
  const today0 = Math.floor((Date.now() + TZ_MS) / DAY_MS) * DAY_MS - TZ_MS;
  const messages: Record<string, unknown>[] = [];
  for (const e of employees) {
    const scheme = schemeOf(e.department_id);
    if (!scheme) continue;
    const rnd = random(e.id * 7919);
    for (let n = days; n >= 1; n--) {
      const t0 = today0 - n * DAY_MS;
      const weekday = ((new Date(t0 + TZ_MS).getUTCDay() + 6) % 7) + 1;
      if (!scheme.workdays.includes(weekday)) continue;
      const roll = rnd();
      if (roll < 0.02) continue; // 旷工: no punch at all
      const segs = times(scheme.segments, t0);
      segs.forEach((s, i) => {
        const late = roll < 0.1 && i === 0;
        const early = roll >= 0.1 && roll < 0.13 && i === segs.length - 1;
        const forgotOut = roll >= 0.13 && roll < 0.16 && i === segs.length - 1;
        const inAt = late
          ? s.start + (6 + Math.floor(rnd() * 35)) * 60_000
          : s.start - Math.floor(rnd() * 15) * 60_000;
        const outAt = early
          ? s.end - (10 + Math.floor(rnd() * 40)) * 60_000
          : s.end + Math.floor(rnd() * 20) * 60_000;
        const stamp = (at: number, k: string) =>
          messages.push({
            id: `demo-att-${e.id}-${t0}-${i}${k}`,
            ts: at,
            type: 'report',
            data: {
              employee_no: e.number,
              method: rnd() < 0.7 ? 'face' : 'card',
              punched_at: Math.floor(at / 1000) + Math.floor(rnd() * 59),
            },
          });
        stamp(inAt, 'in');
        if (!forgotOut) stamp(outAt, 'out');
      });
    }
  }
  const BATCH = 200;
  for (let i = 0; i < messages.length; i += BATCH) {
    const res = await fetch(`${api.base}${DEVICE_REPORT_API}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [DEVICE_TOKEN_HEADER]: terminal.token },
      body: JSON.stringify({ ser_num: terminal.ser_num, messages: messages.slice(i, i + BATCH) }),
    });
    const env = (await res.json()) as { code: number; message: string };
    if (env.code !== 200) throw new Error(`demo punches: ${env.code} ${env.message}`);
  }
  return { schemes: SCHEMES.length, punches: messages.length };
}
