// The demo's attendance (issue 16): an organisation with departments and 60 staff, an
// attendance account that runs it, clock-in terminals (one in a patrolled toilet) and a
// month of punches, all through the API and the ingest pipeline as a real site would.
import {
  ATTENDANCE_API,
  DEVICE_REPORT_API,
  PERMISSION,
  TOILET_DETAIL_API,
  TZ_OFFSET_HOURS,
  type AttendanceOrg,
  type DepartmentRow,
} from '@se/core';
import type { AppContext } from '../context.ts';
import { ensureOrgNamed, setUserOrg } from '../modules/attendance/repo.ts';
import { ConsoleApi, ensureDevices } from './fleet.ts';
import { DEMO_STAFF, demoBadge, demoFace, demoNumber, rng, type SimDevice } from './values.ts';

export const ATTENDANCE_USER = 'attend';
const ORG_NAME = '西湖环卫服务有限公司';
/** Departments below the root: name and parent name ('' = the root). */
const DEPARTMENTS: [string, string][] = [
  ['保洁部', ''],
  ['保洁一组', '保洁部'],
  ['保洁二组', '保洁部'],
  ['夜班组', '保洁部'],
  ['物业部', ''],
  ['维修组', '物业部'],
  ['行政部', ''],
];
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗';
const GIVEN = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '磊',
  '洋',
  '勇',
  '艳',
  '杰',
  '军',
  '强',
  '丽',
  '涛',
  '霞',
  '平',
];
/** Which department the n-th employee works in. */
const deptOf = (n: number) =>
  n <= 20
    ? '保洁一组'
    : n <= 36
      ? '保洁二组'
      : n <= 44
        ? '夜班组'
        : n <= 52
          ? '维修组'
          : n <= 56
            ? '物业部'
            : '行政部';
const DAY = 86_400_000;

/**
 * Sets up the attendance demo once (later runs find it) and answers the terminals the
 * simulator drives.
 */
export async function ensureAttendanceDemo(
  ctx: AppContext,
  base: string,
  admin: ConsoleApi,
  password: string,
  patrolToilet: number | undefined,
): Promise<(SimDevice & { id: number })[]> {
  const userId = await ensureAttendanceUser(admin, password);
  const orgId = await ensureOrgNamed(ctx.db, ORG_NAME, userId);
  await setUserOrg(ctx.db, userId, orgId);
  const api = await new ConsoleApi(base).login(ATTENDANCE_USER, password);
  const org = await api.call<AttendanceOrg>('GET', ATTENDANCE_API.org);

  // Departments, then staff through the Excel import (as an office would).
  let tree = await api.call<DepartmentRow[]>('GET', ATTENDANCE_API.departments);
  for (const [name, parent] of DEPARTMENTS) {
    if (tree.some((d) => d.name === name)) continue;
    const parentId = parent ? tree.find((d) => d.name === parent)!.id : org.root_dep_id;
    await api.call('POST', ATTENDANCE_API.addDepartment, { parent_id: parentId, name });
    tree = await api.call<DepartmentRow[]>('GET', ATTENDANCE_API.departments);
  }
  const r = rng(16);
  const rows = Array.from({ length: DEMO_STAFF }, (_, i) => {
    const n = i + 1;
    const name =
      SURNAMES[i % SURNAMES.length]! + GIVEN[Math.floor(r() * GIVEN.length)]! + (n > 40 ? GIVEN[n % 16] : '');
    const position = n <= 44 ? '保洁员' : n <= 52 ? '维修工' : n <= 56 ? '物业专员' : '行政';
    const hired = new Date(Date.UTC(2023 + (n % 3), n % 12, 1 + (n % 27))).toISOString().slice(0, 10);
    return [
      demoNumber(n),
      name,
      deptOf(n),
      position,
      `139${String(10_000_000 + n * 7919).slice(0, 8)}`,
      demoBadge(n),
      demoFace(n),
      hired,
      '在职',
    ].join(',');
  });
  await api.call('POST', `${ATTENDANCE_API.importEmployees}?mode=valid`, undefined, {
    type: 'text/csv',
    data: ['工号,姓名,部门,职位,手机号,卡号,人脸ID,入职日期,状态', ...rows].join('\n'),
  });
  // Heads of department: the first employee of each.
  tree = await api.call<DepartmentRow[]>('GET', ATTENDANCE_API.departments);
  for (const d of tree) {
    if (d.head_employee_id !== null || d.parent_id === null) continue;
    const first = await api.call<{ list: { id: number }[] }>('GET', ATTENDANCE_API.employees, {
      department_id: d.id,
      page_size: 10,
    });
    if (first.list[0]) {
      await api.call('POST', ATTENDANCE_API.updateDepartment, {
        id: d.id,
        head_employee_id: first.list[0].id,
      });
    }
  }

  // Terminals, registered by the attendance account; the first stands in a patrolled toilet.
  const terminals = await ensureDevices(api, 'attendance', 'DEMO-ATT', 3, (i) =>
    i === 0 ? '西湖公厕保洁巡检考勤机' : `办公楼${i}号考勤机`,
  );
  const patrol = terminals.find((t) => t.ser_num === 'DEMO-ATT-1');
  if (patrolToilet !== undefined && patrol) {
    await admin.call('POST', TOILET_DETAIL_API.place, {
      toilet_id: patrolToilet,
      add_ids: String(patrol.id),
      remove_ids: '',
    });
    await admin.call('POST', ATTENDANCE_API.setPatrol, { toilet_id: patrolToilet, every_min: 60 });
  }
  const office = terminals.find((t) => t.ser_num === 'DEMO-ATT-2') ?? terminals[0]!;
  await sendHistory(base, office);
  return terminals;
}

async function ensureAttendanceUser(admin: ConsoleApi, password: string): Promise<number> {
  const found = await admin.call<{ list: { id: number; user_name: string }[] }>('GET', '/api/v1/user/users', {
    keywords: ATTENDANCE_USER,
    keys: 'user_name',
  });
  const hit = found.list.find((u) => u.user_name === ATTENDANCE_USER);
  if (hit) return hit.id;
  const r = await admin.call<{ id: number }>('POST', '/api/v1/user/add-user', {
    user_name: ATTENDANCE_USER,
    password,
    permissions: PERMISSION.attendance,
  });
  return r.id;
}

/**
 * The last 30 days of punches at the office terminal, in and out on weekdays (UTC+8), with a
 * few late arrivals, missing clock-outs and absent days, and today's punches up to `now`: a
 * demo started in the afternoon shows the morning's clock-ins, one started at 07:00 none
 * yet (the simulator's live punches follow). Message ids are fixed per employee and day, so
 * a restart sends them again and the console stores them once. Pure, for tests.
 */
export function historyPunches(now: number): Record<string, unknown>[] {
  const r = rng(2026);
  const today = Math.floor((now + TZ_OFFSET_HOURS * 3_600_000) / DAY) * DAY; // local midnight, as UTC ms
  const messages: Record<string, unknown>[] = [];
  const at = (day: number, hour: number, minute: number) =>
    day + (hour * 60 + minute) * 60_000 - TZ_OFFSET_HOURS * 3_600_000;
  const punch = (id: string, when: number, who: Record<string, unknown>) => {
    if (when <= now) messages.push({ id, ts: when, type: 'report', data: { ...who, punched_at: when } });
  };
  for (let d = 30; d >= 0; d--) {
    const day = today - d * DAY;
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const date = new Date(day).toISOString().slice(0, 10).replace(/-/g, '');
    for (let n = 1; n <= DEMO_STAFF; n++) {
      const luck = r();
      if (luck < 0.015) continue; // absent
      const late = luck > 0.95;
      // Late arrivals are after 09:00 (the demo's day shift, demo-attendance-rules.ts).
      const inAt = at(day, late ? 9 : 8, late ? 6 + Math.floor(r() * 40) : 40 + Math.floor(r() * 19));
      const face = r() < 0.5;
      const who = face ? { badge: demoFace(n), method: 'face' } : { badge: demoBadge(n), method: 'card' };
      punch(`h-${demoNumber(n)}-${date}-in`, inAt, who);
      if (r() < 0.03) continue; // forgot to clock out
      punch(`h-${demoNumber(n)}-${date}-out`, at(day, 18, Math.floor(r() * 25)), who);
    }
  }
  return messages;
}

/** Sends historyPunches through the device report API, as a terminal catching up would. */
async function sendHistory(base: string, terminal: SimDevice) {
  const messages = historyPunches(Date.now());
  for (let i = 0; i < messages.length; i += 500) {
    const res = await fetch(`${base}${DEVICE_REPORT_API}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-token': terminal.token },
      body: JSON.stringify({ ser_num: terminal.ser_num, messages: messages.slice(i, i + 500) }),
    });
    const env = (await res.json()) as { code: number; message: string };
    if (env.code !== 200) throw new Error(`attendance history: ${env.code} ${env.message}`);
  }
}
