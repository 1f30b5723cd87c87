import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ATTENDANCE_RULES_API as API,
  DOWNLOAD_API,
  type DownloadRow,
  PERMISSION,
  type HolidayRow,
  type Page,
  type DayRecordRow,
  type SchemeRow,
  type SummaryDepartments,
  type SummaryEmployeeRow,
} from '@se/core';
import {
  ADMIN_PASSWORD,
  addDevice,
  sendReport,
  testApp,
  type Account,
  type TestApp,
} from '../../test/harness.ts';
import { runnerOf } from '../downloads/runner.ts';
import { markNewPunchDaysStale } from './repo.ts';

/**
 * Schemes, holidays, daily results and summaries through the real API. Setup rows (the
 * organisations, their departments, employees and punches) are written directly: they are
 * another part's (departments, employees, terminals) and not what these tests are about.
 */
let t: TestApp;
let a: Account; // attendance account of organisation A
let b: Account; // attendance account of organisation B
let none: Account; // attendance account without an organisation
let orgA: number;
let orgB: number;
let root: number; // A's root department
let cleaning: number; // A: root / 保洁部
let night: number; // A: root / 保洁部 / 夜班组
let depB: number;
let zhang: number; // in 保洁部
let li: number; // in 夜班组
let wang: number; // in 保洁部, own scheme
let empB: number;
let terminal: number;

const at = (s: string) => new Date(`${s.replace(' ', 'T')}+08:00`).toISOString();
const post = <T = unknown>(url: string, body: Record<string, unknown>, o: { token: string }) =>
  t.post<T>(url, body, { ...o, json: true });
const q = <T>(sql: string, p: unknown[] = []) => t.ctx.db.query<T>(sql, p);
const idOf = async (sql: string, p: unknown[]) => (await q<{ id: number }>(sql, p))[0]!.id;

async function org(name: string, user: Account) {
  const id = await idOf(`INSERT INTO organisations (name, user_id) VALUES ($1, $2) RETURNING id`, [
    name,
    user.id,
  ]);
  await q(`UPDATE users SET org_id = $1 WHERE id = $2`, [id, user.id]);
  return id;
}
const dep = (o: number, parent: number | null, name: string) =>
  idOf(`INSERT INTO att_departments (org_id, parent_id, name) VALUES ($1, $2, $3) RETURNING id`, [
    o,
    parent,
    name,
  ]).then(async (id) => {
    await q(
      `UPDATE att_departments SET path = coalesce((SELECT path FROM att_departments WHERE id = $2), '/') || id || '/' WHERE id = $1`,
      [id, parent],
    );
    return id;
  });
const emp = (o: number, d: number, number: string, name: string) =>
  idOf(
    `INSERT INTO att_employees (org_id, department_id, number, name, hire_date) VALUES ($1, $2, $3, $4, '2026-01-01') RETURNING id`,
    [o, d, number, name],
  );
const punch = (o: number, e: number, when: string) =>
  q(
    `INSERT INTO att_punches (org_id, employee_id, device_id, punched_at, method) VALUES ($1, $2, $3, $4, 'card')`,
    [o, e, terminal, at(when)],
  );

const office = {
  name: '白班',
  segments: [{ start: '09:00', end: '18:00' }],
  late_grace: 5,
  early_grace: 5,
  workdays: [1, 2, 3, 4, 5],
};

async function auditLog() {
  const admin = await t.login('admin', ADMIN_PASSWORD);
  const log = await t.get<{
    list: { action: string; before: Record<string, unknown>; after: Record<string, unknown> }[];
  }>('/api/v1/user/audit-logs', { page_size: 100 }, { token: admin });
  return log.data.list;
}
const auditActions = async () => (await auditLog()).map((e) => e.action);

async function records(token: string, query: Record<string, unknown>) {
  const r = await t.get<Page<DayRecordRow>>(API.records, { page_size: 100, ...query }, { token });
  expect(r.code, r.message).toBe(200);
  return r.data.list;
}

beforeAll(async () => {
  t = await testApp();
  a = await t.account('att_a', PERMISSION.attendance, 1);
  b = await t.account('att_b', PERMISSION.attendance, 1);
  none = await t.account('att_none', PERMISSION.attendance, 1);
  orgA = await org('甲公司', a);
  orgB = await org('乙公司', b);
  root = await dep(orgA, null, '甲公司');
  cleaning = await dep(orgA, root, '保洁部');
  night = await dep(orgA, cleaning, '夜班组');
  depB = await dep(orgB, null, '乙公司');
  zhang = await emp(orgA, cleaning, 'A001', '张三');
  li = await emp(orgA, night, 'A002', '李四');
  wang = await emp(orgA, cleaning, 'A003', '王五');
  empB = await emp(orgB, depB, 'B001', '赵六');
  terminal = await idOf(
    `INSERT INTO devices (kind, ser_num, token, org_id) VALUES ('attendance', 'ATT-1', 'tok-att-1', $1) RETURNING id`,
    [orgA],
  );
});
afterAll(() => t?.close());

describe('schemes', () => {
  let day: SchemeRow;
  let nightShift: SchemeRow;

  it('adds schemes, refuses an invalid one with a Chinese message', async () => {
    const r = await post<SchemeRow>(API.addScheme, office, { token: a.token });
    expect(r.code, r.message).toBe(200);
    day = r.data;
    expect(day).toMatchObject({
      name: '白班',
      late_grace: 5,
      earliest_in: 120,
      latest_out: 240,
      follow_holidays: true,
    });
    const n = await post<SchemeRow>(
      API.addScheme,
      {
        ...office,
        name: '夜班',
        segments: [{ start: '22:00', end: '06:00' }],
        workdays: [1, 2, 3, 4, 5, 6, 7],
      },
      { token: a.token },
    );
    expect(n.code, n.message).toBe(200);
    nightShift = n.data;
    const bad = await post(
      API.addScheme,
      { ...office, segments: [{ start: '25:00', end: '18:00' }] },
      { token: a.token },
    );
    expect(bad).toMatchObject({ code: 400, message: expect.stringContaining('上班时间格式') });
    const long = await post(
      API.addScheme,
      {
        ...office,
        segments: [
          { start: '08:00', end: '12:00' },
          { start: '13:00', end: '09:00' },
        ],
      },
      { token: a.token },
    );
    expect(long).toMatchObject({ code: 400, message: '班次总长不能超过24小时' });
  });

  it('assigns to a department (inherited below) and to an employee (whose own wins)', async () => {
    let r = await post(
      API.assignScheme,
      { scheme_id: day.id, department_ids: [cleaning] },
      { token: a.token },
    );
    expect(r.code, r.message).toBe(200);
    r = await post(API.assignScheme, { scheme_id: nightShift.id, employee_ids: [wang] }, { token: a.token });
    expect(r.code, r.message).toBe(200);
    const list = await t.get<Page<SchemeRow>>(API.schemes, {}, { token: a.token });
    const mine = list.data.list.find((s) => s.id === day.id)!;
    expect(mine.departments).toEqual([{ id: cleaning, name: '保洁部' }]);
    expect(list.data.list.find((s) => s.id === nightShift.id)!.employee_count).toBe(1);
    // Monday 2026-03-02: 张三 late, 李四 (夜班组 inherits 白班) absent, 王五 on the night shift.
    await punch(orgA, zhang, '2026-03-02 09:12');
    await punch(orgA, zhang, '2026-03-02 18:03');
    await punch(orgA, wang, '2026-03-02 21:55');
    await punch(orgA, wang, '2026-03-03 06:01');
    const rows = await records(a.token, { start: '2026-03-02', end: '2026-03-02' });
    const of = (e: number) => rows.find((x) => x.employee_id === e)!;
    expect(of(zhang)).toMatchObject({ status: 'late', late_minutes: 12, scheme_name: '白班' });
    expect(of(zhang).decided.map((d) => d.at)).toEqual(['2026-03-02 09:12:00', '2026-03-02 18:03:00']);
    expect(of(li)).toMatchObject({ status: 'absent', scheme_name: '白班', department_name: '夜班组' });
    expect(of(wang)).toMatchObject({ status: 'normal', scheme_name: '夜班' });
    expect(rows.some((x) => x.employee_id === empB)).toBe(false);
  });

  it('recomputes when a scheme changes, and audits the change', async () => {
    const r = await post<SchemeRow>(API.updateScheme, { id: day.id, late_grace: 15 }, { token: a.token });
    expect(r.code, r.message).toBe(200);
    const rows = await records(a.token, { start: '2026-03-02', end: '2026-03-02', employee_id: zhang });
    expect(rows[0]).toMatchObject({ status: 'normal', late_minutes: 0 });
    expect(await auditActions()).toContain('attendance.scheme.update');
    const back = await post(API.updateScheme, { id: day.id, late_grace: 5 }, { token: a.token });
    expect(back.code, back.message).toBe(200);
    const again = await records(a.token, { start: '2026-03-02', end: '2026-03-02', employee_id: zhang });
    expect(again[0]).toMatchObject({ status: 'late', late_minutes: 12 });
  });

  it("refuses organisation B's ids to A's account exactly as missing ones", async () => {
    const s = await post<SchemeRow>(API.addScheme, { ...office, name: '乙班' }, { token: b.token });
    expect(s.code).toBe(200);
    expect((await post(API.updateScheme, { id: s.data.id, name: 'x' }, { token: a.token })).code).toBe(404);
    expect(
      (await post(API.assignScheme, { scheme_id: s.data.id, employee_ids: [zhang] }, { token: a.token }))
        .code,
    ).toBe(404);
    expect(
      await post(API.assignScheme, { scheme_id: day.id, department_ids: [depB] }, { token: a.token }),
    ).toMatchObject({ code: 404, message: '部门不存在' });
    expect(
      await post(API.assignScheme, { scheme_id: day.id, employee_ids: [empB] }, { token: a.token }),
    ).toMatchObject({ code: 404, message: '员工不存在' });
    expect((await t.get(API.record, { employee_id: empB, day: '2026-03-02' }, { token: a.token })).code).toBe(
      404,
    );
    expect(
      (
        await post(
          API.correctRecord,
          { employee_id: empB, day: '2026-03-02', status: 'normal', note: 'x' },
          { token: a.token },
        )
      ).code,
    ).toBe(404);
    expect(
      (
        await t.get(
          API.records,
          { start: '2026-03-01', end: '2026-03-31', department_id: depB },
          { token: a.token },
        )
      ).code,
    ).toBe(404);
    expect(
      (await t.get(API.summaryEmployees, { month: '2026-03', department_id: depB }, { token: a.token })).code,
    ).toBe(404);
    expect(
      (await t.get(API.summaryDepartments, { month: '2026-03', department_id: depB }, { token: a.token }))
        .code,
    ).toBe(404);
    const theirs = await t.get<Page<SchemeRow>>(API.schemes, {}, { token: a.token });
    expect(theirs.data.list.map((x) => x.name)).not.toContain('乙班');
  });

  it('gives an account outside any organisation its own (empty) one, and refuses one without the attendance right', async () => {
    const own = await t.get<Page<SchemeRow>>(API.schemes, {}, { token: none.token });
    expect(own.code, own.message).toBe(200);
    expect(own.data.list).toEqual([]);
    const visitor = await t.account('att_visitor', PERMISSION.visitor, 1);
    expect((await t.get(API.schemes, {}, { token: visitor.token })).code).toBe(403);
  });

  it('deletes a scheme: its employees fall back to the department', async () => {
    const r = await post(API.updateScheme, { id: nightShift.id, is_delete: true }, { token: a.token });
    expect(r.code, r.message).toBe(200);
    const rows = await records(a.token, { start: '2026-03-02', end: '2026-03-02', employee_id: wang });
    // 王五's 21:55 punch is now a late out punch of the day shift, with no in punch.
    expect(rows[0]).toMatchObject({ scheme_name: '白班', status: 'missing', missing: 1 });
  });
});

describe('late punches', () => {
  it('a punch arriving two days late turns the day it belongs to from 缺卡 into 迟到', async () => {
    // 张三 on Tuesday 2026-03-03: only the out punch so far.
    await punch(orgA, zhang, '2026-03-03 18:00');
    let rows = await records(a.token, { start: '2026-03-03', end: '2026-03-05', employee_id: zhang });
    expect(rows.find((r) => r.day === '2026-03-03')).toMatchObject({ status: 'missing', missing: 1 });
    // Thursday: the terminal, offline since Tuesday, delivers the in punch (the ingest step
    // marks the days of the batch's new punches in the same transaction).
    await t.ctx.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO att_punches (org_id, employee_id, device_id, punched_at) VALUES ($1, $2, $3, $4)`,
        [orgA, zhang, terminal, at('2026-03-03 09:20')],
      );
      await markNewPunchDaysStale(tx, [terminal]);
    });
    rows = await records(a.token, { start: '2026-03-03', end: '2026-03-05', employee_id: zhang });
    expect(rows.find((r) => r.day === '2026-03-03')).toMatchObject({
      status: 'late',
      late_minutes: 20,
      missing: 0,
    });
  });
});

describe('punches through the ingest pipeline', () => {
  it('a terminal report recomputes a day already computed: 旷工 becomes 迟到 7 分钟', async () => {
    const before = await records(a.token, { start: '2026-03-10', end: '2026-03-10', employee_id: zhang });
    expect(before[0]).toMatchObject({ status: 'absent' });
    const dev = await addDevice(t, 'attendance', 'ATT-R-1', a.token);
    const punchAt = (s: string) => Date.parse(`${s.replace(' ', 'T')}+08:00`) / 1000;
    await sendReport(t, dev, {
      employee_no: 'A001',
      method: 'face',
      punched_at: punchAt('2026-03-10 09:07:40'),
    });
    await sendReport(t, dev, {
      employee_no: 'A001',
      method: 'face',
      punched_at: punchAt('2026-03-10 18:30:00'),
    });
    const after = await records(a.token, { start: '2026-03-10', end: '2026-03-10', employee_id: zhang });
    expect(after[0]).toMatchObject({ status: 'late', late_minutes: 7, missing: 0 });
    expect(after[0]!.decided.map((d) => d.at)).toEqual(['2026-03-10 09:07:40', '2026-03-10 18:30:00']);
  });
});

describe('holidays', () => {
  it('lists the 2026 national arrangement', async () => {
    const r = await t.get<{ list: HolidayRow[] }>(API.holidays, { year: 2026 }, { token: a.token });
    expect(r.code).toBe(200);
    const kinds = Object.fromEntries(r.data.list.map((h) => [h.day, h.kind]));
    expect(kinds['2026-02-17']).toBe('holiday');
    expect(kinds['2026-02-14']).toBe('workday');
    expect(kinds['2026-10-10']).toBe('workday');
    expect(r.data.list.filter((h) => h.kind === 'holiday')).toHaveLength(33);
  });

  it('an organisation day off makes that day rest for its employees only, and can be reset', async () => {
    let rows = await records(a.token, { start: '2026-03-04', end: '2026-03-04', employee_id: li });
    expect(rows[0]!.status).toBe('absent');
    const r = await post<{ list: HolidayRow[] }>(
      API.setHoliday,
      { day: '2026-03-04', kind: 'holiday', name: '公司活动' },
      { token: a.token },
    );
    expect(r.code, r.message).toBe(200);
    expect(r.data.list.find((h) => h.day === '2026-03-04')).toMatchObject({ kind: 'holiday', source: 'org' });
    rows = await records(a.token, { start: '2026-03-04', end: '2026-03-04', employee_id: li });
    expect(rows[0]!.status).toBe('rest');
    const other = await t.get<{ list: HolidayRow[] }>(API.holidays, { year: 2026 }, { token: b.token });
    expect(other.data.list.some((h) => h.day === '2026-03-04')).toBe(false);
    expect((await post(API.resetHoliday, { day: '2026-03-04' }, { token: a.token })).code).toBe(200);
    rows = await records(a.token, { start: '2026-03-04', end: '2026-03-04', employee_id: li });
    expect(rows[0]!.status).toBe('absent');
    expect(await post(API.resetHoliday, { day: '2026-03-04' }, { token: a.token })).toMatchObject({
      code: 404,
    });
    expect(
      await post(API.setHoliday, { day: '2026-02-30', kind: 'holiday' }, { token: a.token }),
    ).toMatchObject({
      code: 400,
      message: '日期格式应为 YYYY-MM-DD',
    });
  });
});

describe('records and corrections', () => {
  it('filters by status and by department including sub-departments', async () => {
    const absent = await records(a.token, { start: '2026-03-02', end: '2026-03-06', status: 'absent' });
    expect(absent.length).toBeGreaterThan(0);
    expect(absent.every((r) => r.status === 'absent')).toBe(true);
    const sub = await records(a.token, { start: '2026-03-02', end: '2026-03-02', department_id: cleaning });
    expect(sub.map((r) => r.employee_id).sort()).toEqual([zhang, li, wang].sort());
    const leaf = await records(a.token, { start: '2026-03-02', end: '2026-03-02', department_id: night });
    expect(leaf.map((r) => r.employee_id)).toEqual([li]);
    const named = await records(a.token, { start: '2026-03-02', end: '2026-03-02', keywords: '李' });
    expect(named.map((r) => r.employee_id)).toEqual([li]);
    const bad = await t.get(API.records, { start: '2026-03-05', end: '2026-03-01' }, { token: a.token });
    expect(bad).toMatchObject({ code: 400, message: '开始日期不能晚于结束日期' });
  });

  it('an employee without any scheme shows 未排班, not 旷工', async () => {
    const loner = await emp(orgA, root, 'A009', '孙九');
    const rows = await records(a.token, { start: '2026-03-02', end: '2026-03-02', employee_id: loner });
    expect(rows[0]).toMatchObject({ status: 'unscheduled', due: false, scheme_name: '' });
  });

  it('a correction is audited, keeps the original, survives a recomputation and can be reverted', async () => {
    const c = await post<DayRecordRow>(
      API.correctRecord,
      { employee_id: li, day: '2026-03-02', status: 'normal', note: '外出办事，已补签' },
      { token: a.token },
    );
    expect(c.code, c.message).toBe(200);
    expect(c.data).toMatchObject({
      status: 'normal',
      corrected: true,
      note: '外出办事，已补签',
      computed: { status: 'absent' },
    });
    // A punch for that day arrives: the computed part follows, the correction stays.
    await punch(orgA, li, '2026-03-02 09:30');
    await t.ctx.db.query(`UPDATE att_day_results SET stale = true WHERE employee_id = $1`, [li]);
    const d = await t.get<{ record: DayRecordRow; punches: { punched_at: string }[] }>(
      API.record,
      { employee_id: li, day: '2026-03-02' },
      { token: a.token },
    );
    expect(d.data.record).toMatchObject({
      status: 'normal',
      corrected: true,
      computed: { status: 'missing', late_minutes: 30 },
    });
    expect(d.data.punches.map((p) => p.punched_at)).toEqual(['2026-03-02 09:30:00']);
    const entry = (await auditLog()).find((e) => e.action === 'attendance.record.correct')!;
    expect(entry.before).toMatchObject({ status: 'absent', corrected: false });
    expect(entry.after).toMatchObject({ status: 'normal', corrected: true });
    const needNote = await post(
      API.correctRecord,
      { employee_id: li, day: '2026-03-02', status: 'normal' },
      { token: a.token },
    );
    expect(needNote).toMatchObject({ code: 400, message: '请填写更正说明' });
    const back = await post<DayRecordRow>(
      API.correctRecord,
      { employee_id: li, day: '2026-03-02', revert: true },
      { token: a.token },
    );
    expect(back.data).toMatchObject({ status: 'missing', late_minutes: 30, corrected: false });
    const future = await post(
      API.correctRecord,
      { employee_id: li, day: '2099-01-01', status: 'normal', note: 'x' },
      { token: a.token },
    );
    expect(future.code).toBe(400);
  });
});

describe('monthly summary', () => {
  it('per employee and per department (sub-departments added in), with the day series', async () => {
    const e = await t.get<Page<SummaryEmployeeRow>>(
      API.summaryEmployees,
      { month: '2026-03', page_size: 50 },
      { token: a.token },
    );
    expect(e.code, e.message).toBe(200);
    const z = e.data.list.find((r) => r.employee_id === zhang)!;
    // March 2026 has 22 weekdays and no holidays.
    expect(z).toMatchObject({ days_due: 22, late_count: 3, late_minutes: 12 + 20 + 7, days_present: 3 });
    expect(z.absent_count).toBe(19);
    expect(e.data.list.some((r) => r.employee_id === empB)).toBe(false);
    const d = await t.get<SummaryDepartments>(
      API.summaryDepartments,
      { month: '2026-03' },
      { token: a.token },
    );
    expect(d.code, d.message).toBe(200);
    const of = (id: number) => d.data.list.find((r) => r.department_id === id)!;
    expect(of(night).employees).toBe(1);
    expect(of(cleaning).employees).toBe(3);
    expect(of(cleaning).late_count).toBeGreaterThanOrEqual(of(night).late_count + 2);
    expect(of(root).days_due).toBeGreaterThanOrEqual(of(cleaning).days_due);
    expect(d.data.days).toHaveLength(31);
    expect(d.data.days.find((x) => x.day === '2026-03-07')!.due).toBe(0);
    expect((await t.get(API.summaryEmployees, { month: '2026-13' }, { token: a.token })).code).toBe(400);
  });
});

describe('exports through the download centre', () => {
  async function exported(token: string, name: string, params: unknown) {
    const r = await t.post<DownloadRow>(
      DOWNLOAD_API.create,
      { name, params: JSON.stringify(params) },
      { token },
    );
    expect(r.code, r.message).toBe(200);
    const until = Date.now() + 60_000;
    for (;;) {
      const j = (await t.get<DownloadRow>(DOWNLOAD_API.get, { id: r.data.id }, { token })).data;
      if (j.status === 'done' || j.status === 'failed') return j;
      if (Date.now() > until) throw new Error('export still running');
      await new Promise((res) => setTimeout(res, 50));
    }
  }
  async function sheet(token: string, id: number) {
    const link = await t.get<{ url: string }>(DOWNLOAD_API.sign, { id }, { token });
    const file = await t.app.inject({ method: 'GET', url: link.data.url });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows: string[][] = [];
    const ws = wb.worksheets[0]!;
    ws.eachRow((row) => rows.push(Array.from({ length: ws.columnCount }, (_, i) => row.getCell(i + 1).text)));
    return rows;
  }

  it('exports the monthly summary per employee and per department', async () => {
    await runnerOf(t.ctx).start({ pollMs: 50, progressMs: 20 });
    const e = await exported(a.token, 'attendance-summary-employees', { month: '2026-03' });
    expect(e.status).toBe('done');
    const rows = await sheet(a.token, e.id);
    expect(rows[0]!.slice(0, 4)).toEqual(['工号', '姓名', '部门', '应出勤天数']);
    const zhangRow = rows.find((r) => r[0] === 'A001')!;
    expect(zhangRow.slice(0, 4)).toEqual(['A001', '张三', '保洁部', '22']);
    expect(rows.some((r) => r[0] === 'B001')).toBe(false);
    const d = await exported(a.token, 'attendance-summary-departments', {
      month: '2026-03',
      department_id: cleaning,
    });
    expect(d.status).toBe('done');
    const deps = await sheet(a.token, d.id);
    expect(deps.map((r) => r[0])).toEqual(['部门', '保洁部', '夜班组']);
    const refused = await t.post(
      DOWNLOAD_API.create,
      {
        name: 'attendance-summary-departments',
        params: JSON.stringify({ month: '2026-03', department_id: depB }),
      },
      { token: a.token },
    );
    expect(refused.code).toBe(404);
  });
});

describe('the monthly rollup follows the results', () => {
  const summaryOf = async (e: number) => {
    const r = await t.get<Page<SummaryEmployeeRow>>(
      API.summaryEmployees,
      { month: '2026-03', page_size: 50 },
      { token: a.token },
    );
    return r.data.list.find((x) => x.employee_id === e)!;
  };

  it('a correction moves the summary at once, and a revert moves it back', async () => {
    const before = await summaryOf(zhang);
    // Friday 2026-03-27: 张三 has no punch, 旷工.
    const fixed = await post<DayRecordRow>(
      API.correctRecord,
      { employee_id: zhang, day: '2026-03-27', status: 'normal', note: '出差' },
      { token: a.token },
    );
    expect(fixed.code, fixed.message).toBe(200);
    const after = await summaryOf(zhang);
    expect(after.absent_count).toBe(before.absent_count - 1);
    expect(after.days_present).toBe(before.days_present + 1);
    const days = await t.get<SummaryDepartments>(
      API.summaryDepartments,
      { month: '2026-03' },
      { token: a.token },
    );
    const root27 = days.data.days.find((x) => x.day === '2026-03-27')!;
    await post(
      API.correctRecord,
      { employee_id: zhang, day: '2026-03-27', revert: true },
      { token: a.token },
    );
    expect((await summaryOf(zhang)).absent_count).toBe(before.absent_count);
    const again = await t.get<SummaryDepartments>(
      API.summaryDepartments,
      { month: '2026-03' },
      { token: a.token },
    );
    expect(again.data.days.find((x) => x.day === '2026-03-27')!.absent).toBe(root27.absent + 1);
  });

  it('matches the day results counted directly', async () => {
    await summaryOf(zhang);
    const direct = await q<{ employee_id: number; absent: number; late: number; due: number }>(
      `SELECT employee_id, count(*) FILTER (WHERE status = 'absent')::int AS absent,
              coalesce(sum(late_minutes) FILTER (WHERE due), 0)::int AS late, count(*) FILTER (WHERE due)::int AS due
         FROM att_day_results WHERE org_id = $1 AND day BETWEEN '2026-03-01' AND '2026-03-31' GROUP BY employee_id`,
      [orgA],
    );
    expect(direct.length).toBeGreaterThan(0);
    for (const d of direct) {
      const s = await summaryOf(d.employee_id);
      expect([s.absent_count, s.late_minutes, s.days_due]).toEqual([d.absent, d.late, d.due]);
    }
  });
});

describe("today's provisional result", () => {
  // Wednesday 2026-04-08, 10:30 UTC+8: 白班 (09:00–18:00, out window to 22:00) is still open.
  afterAll(() => vi.useRealTimers());

  it('reads 进行中 / not 旷工 or 缺卡 until the punch windows close, and is not counted as absent', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-04-08T10:30:00+08:00'));
    const today = async (e: number) =>
      (await records(a.token, { start: '2026-04-08', end: '2026-04-08' })).find((r) => r.employee_id === e)!;
    expect(await today(zhang)).toMatchObject({ status: 'pending', present: false, missing: 0 });
    // In late by 10 minutes: still pending (the out punch may come), the late minutes shown.
    await t.ctx.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO att_punches (org_id, employee_id, device_id, punched_at) VALUES ($1, $2, $3, $4)`,
        [orgA, zhang, terminal, at('2026-04-08 09:10')],
      );
      await markNewPunchDaysStale(tx, [terminal]);
    });
    expect(await today(zhang)).toMatchObject({ status: 'pending', present: true, late_minutes: 10 });
    const s = await t.get<Page<SummaryEmployeeRow>>(
      API.summaryEmployees,
      { month: '2026-04', page_size: 50 },
      { token: a.token },
    );
    // 1–3 and 7 April are due and without punches (4–6 April is 清明节); the 8th is not absent.
    expect(s.data.list.find((r) => r.employee_id === zhang)).toMatchObject({
      absent_count: 4,
      missing_count: 0,
    });
    const d = await t.get<SummaryDepartments>(
      API.summaryDepartments,
      { month: '2026-04' },
      { token: a.token },
    );
    expect(d.data.days.find((x) => x.day === '2026-04-08')).toMatchObject({ absent: 0, missing: 0 });
    // 22:00 has passed: the same day, read again, is final.
    vi.setSystemTime(new Date('2026-04-08T22:01:00+08:00'));
    expect(await today(zhang)).toMatchObject({ status: 'missing', late_minutes: 10, missing: 1 });
    expect(await today(li)).toMatchObject({ status: 'absent' });
  });
});
