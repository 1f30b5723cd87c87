import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ATTENDANCE_API,
  CODE,
  DEVICE_KINDS,
  JWB_API,
  PERMISSION,
  TOILET_DETAIL_API,
  type AttendanceOrg,
  type DepartmentRow,
  type EmployeeRow,
  type PatrolInfo,
  type PunchRow,
} from '@se/core';
import {
  addDevice,
  addToilet,
  adminApp,
  postReport,
  sendReport,
  type Account,
  type TestApp,
  type TestDevice,
} from '../../test/harness.ts';
import { patrolSweep } from './patrols.ts';

let t: TestApp;
let admin: string;
/** Attendance accounts of organisation A (two) and B. */
let a: Account;
let a2: Account;
let b: Account;
let orgA: AttendanceOrg;
let orgB: AttendanceOrg;
/** Ids of organisation B's objects that A's account tries. */
const bIds = { dept: 0, employee: 0, punch: 0, terminal: 0 };
let terminalA: TestDevice;
let terminalB: TestDevice;

const K = DEVICE_KINDS.attendance;
const ATT = PERMISSION.attendance;

async function makeOrg(name: string) {
  const [o] = await t.ctx.db.query<{ id: number }>(
    'INSERT INTO organisations (name) VALUES ($1) RETURNING id',
    [name],
  );
  return o!.id;
}
const joinOrg = (userId: number, orgId: number) =>
  t.ctx.db.query('UPDATE users SET org_id = $2 WHERE id = $1', [userId, orgId]);

const tree = async (token: string) =>
  (await t.get<DepartmentRow[]>(ATTENDANCE_API.departments, {}, { token })).data;
const addDept = async (token: string, parent_id: number, name: string) => {
  const r = await t.post<DepartmentRow>(ATTENDANCE_API.addDepartment, { parent_id, name }, { token });
  if (r.code !== 200) throw new Error(`add department ${name}: ${r.message}`);
  return r.data;
};
const addEmp = async (token: string, body: Record<string, unknown>) => {
  const r = await t.post<EmployeeRow>(ATTENDANCE_API.addEmployee, body, { token });
  if (r.code !== 200) throw new Error(`add employee: ${r.message}`);
  return r.data;
};
const punches = async (token: string, q: Record<string, unknown> = {}) =>
  (await t.get<{ list: PunchRow[]; total: number }>(ATTENDANCE_API.punches, q, { token })).data;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  const idA = await makeOrg('甲物业');
  const idB = await makeOrg('乙公司');
  a = await t.account('att_a', ATT, 1);
  a2 = await t.account('att_a2', ATT, 1);
  b = await t.account('att_b', ATT, 1);
  await joinOrg(a.id, idA);
  await joinOrg(a2.id, idA);
  await joinOrg(b.id, idB);
  orgA = (await t.get<AttendanceOrg>(ATTENDANCE_API.org, {}, { token: a.token })).data;
  orgB = (await t.get<AttendanceOrg>(ATTENDANCE_API.org, {}, { token: b.token })).data;

  // Organisation B: a department, an employee, a terminal and a punch.
  const dB = await addDept(b.token, orgB.root_dep_id, '乙-保洁部');
  bIds.dept = dB.id;
  bIds.employee = (
    await addEmp(b.token, { department_id: dB.id, number: 'E001', name: '乙员工', badge_no: 'B-CARD' })
  ).id;
  terminalB = await addDevice(t, 'attendance', 'ATT-B-1', b.token);
  bIds.terminal = terminalB.id;
  await sendReport(t, terminalB, { badge: 'UNKNOWN-B', method: 'card' });
  bIds.punch = (await punches(b.token)).list[0]!.id;

  terminalA = await addDevice(t, 'attendance', 'ATT-A-1', a.token);
}, 120_000);

afterAll(() => t?.close());

describe('organisation structure', () => {
  it('creates the root department named after the organisation on first use, once', async () => {
    expect(orgA.name).toBe('甲物业');
    const again = (await t.get<AttendanceOrg>(ATTENDANCE_API.org, {}, { token: a2.token })).data;
    expect(again.root_dep_id).toBe(orgA.root_dep_id);
    const rows = await tree(a.token);
    const root = rows.find((d) => d.id === orgA.root_dep_id)!;
    expect(root).toMatchObject({ name: '甲物业', parent_id: null, path: `/${orgA.root_dep_id}/` });
  });

  it('founds an organisation of its own for an attendance account that belongs to none', async () => {
    const lone = await t.account('att_lone', ATT, 1);
    const org = await t.get<AttendanceOrg>(ATTENDANCE_API.org, {}, { token: lone.token });
    expect(org.code).toBe(200);
    expect(org.data.name).toBe('att_lone的组织');
    expect([orgA.org_id, orgB.org_id]).not.toContain(org.data.org_id);
    const rows = await tree(lone.token);
    expect(rows.map((d) => d.name)).toEqual(['att_lone的组织']);
    const [u] = await t.ctx.db.query<{ org_id: number }>('SELECT org_id FROM users WHERE id = $1', [lone.id]);
    expect(u!.org_id).toBe(org.data.org_id);
    // Nothing of A's shows there.
    expect((await t.get(ATTENDANCE_API.employee, { id: bIds.employee }, { token: lone.token })).code).toBe(
      CODE.notFound,
    );
  });

  it('adds, renames and moves departments, never under themselves, and counts employees per subtree', async () => {
    const ops = await addDept(a.token, orgA.root_dep_id, '运营部');
    const clean = await addDept(a.token, ops.id, '保洁组');
    const night = await addDept(a.token, clean.id, '夜班');
    await addEmp(a.token, { department_id: night.id, number: 'N1', name: '夜班一' });
    await addEmp(a.token, { department_id: clean.id, number: 'C1', name: '保洁一' });
    await addEmp(a.token, { department_id: clean.id, number: 'C2', name: '离职者', status: 2 });

    let rows = await tree(a.token);
    const by = (id: number) => rows.find((d) => d.id === id)!;
    expect(by(ops.id)).toMatchObject({ employee_count: 0, total_count: 2 });
    expect(by(clean.id)).toMatchObject({ employee_count: 1, total_count: 2 });

    // A department under its own descendant: refused, nothing moves.
    const cycle = await t.post(
      ATTENDANCE_API.updateDepartment,
      { id: ops.id, parent_id: night.id },
      { token: a.token },
    );
    expect(cycle.code).toBe(CODE.badRequest);
    expect(cycle.message).toBe('不能把部门移动到它自己或它的下级部门之下');
    const self = await t.post(
      ATTENDANCE_API.updateDepartment,
      { id: ops.id, parent_id: ops.id },
      { token: a.token },
    );
    expect(self.code).toBe(CODE.badRequest);

    // Moving 保洁组 to the root carries 夜班 along (paths rewritten in one statement).
    const moved = await t.post<DepartmentRow>(
      ATTENDANCE_API.updateDepartment,
      { id: clean.id, parent_id: orgA.root_dep_id, name: '保洁部' },
      { token: a.token },
    );
    expect(moved.code).toBe(200);
    expect(moved.data).toMatchObject({ name: '保洁部', parent_id: orgA.root_dep_id });
    // The answer is the same row the tree shows: 1 在职 directly in it, 2 with 夜班.
    expect(moved.data).toMatchObject({ employee_count: 1, total_count: 2 });
    rows = await tree(a.token);
    expect(by(clean.id)).toEqual(moved.data);
    expect(by(night.id).path).toBe(`/${orgA.root_dep_id}/${clean.id}/${night.id}/`);
    expect(by(ops.id).total_count).toBe(0);
    expect(by(orgA.root_dep_id).total_count).toBe(2);
  });

  it('deletes a department only when empty and says why otherwise', async () => {
    const parent = await addDept(a.token, orgA.root_dep_id, '待删部门');
    const child = await addDept(a.token, parent.id, '子部门');
    const e = await addEmp(a.token, { department_id: child.id, number: 'DEL1', name: '待调岗' });
    let r = await t.post(ATTENDANCE_API.deleteDepartment, { id: parent.id }, { token: a.token });
    expect(r.message).toBe('该部门下还有1 个下级部门，请先移走后再删除');
    r = await t.post(ATTENDANCE_API.deleteDepartment, { id: child.id }, { token: a.token });
    expect(r.message).toBe('该部门下还有1 名在职员工，请先移走后再删除');
    // The employee leaves: a leaver does not keep a department alive, and keeps their record.
    await t.post(ATTENDANCE_API.updateEmployee, { id: e.id, status: 2 }, { token: a.token });
    expect((await t.post(ATTENDANCE_API.deleteDepartment, { id: child.id }, { token: a.token })).code).toBe(
      200,
    );
    expect((await t.post(ATTENDANCE_API.deleteDepartment, { id: parent.id }, { token: a.token })).code).toBe(
      200,
    );
    expect((await tree(a.token)).some((d) => d.id === parent.id)).toBe(false);
    const root = await t.post(ATTENDANCE_API.deleteDepartment, { id: orgA.root_dep_id }, { token: a.token });
    expect(root.message).toBe('根部门不能删除');
    const kept = await t.get<EmployeeRow>(ATTENDANCE_API.employee, { id: e.id }, { token: a.token });
    expect(kept.data.status).toBe(2);
  });

  it('sets and clears the head of a department', async () => {
    const d = await addDept(a.token, orgA.root_dep_id, '行政部');
    const e = await addEmp(a.token, { department_id: d.id, number: 'HEAD1', name: '王主管' });
    let r = await t.post<DepartmentRow>(
      ATTENDANCE_API.updateDepartment,
      { id: d.id, head_employee_id: e.id },
      { token: a.token },
    );
    expect(r.data).toMatchObject({ head_employee_id: e.id, head_name: '王主管' });
    r = await t.post<DepartmentRow>(
      ATTENDANCE_API.updateDepartment,
      { id: d.id, head_employee_id: 0 },
      { token: a.token },
    );
    expect(r.data).toMatchObject({ head_employee_id: null, head_name: '' });
    const other = await t.post(
      ATTENDANCE_API.updateDepartment,
      { id: d.id, head_employee_id: bIds.employee },
      { token: a.token },
    );
    expect(other.code).toBe(CODE.notFound);
  });

  it('refuses an eleventh level', async () => {
    let parent = orgA.root_dep_id;
    for (let i = 2; i <= 10; i++) parent = (await addDept(a.token, parent, `第${i}级`)).id;
    const r = await t.post(
      ATTENDANCE_API.addDepartment,
      { parent_id: parent, name: '第11级' },
      { token: a.token },
    );
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toBe('部门最多10级，不能再添加下级部门');
  });
});

describe('employees', () => {
  let dept: DepartmentRow;
  let sub: DepartmentRow;
  beforeAll(async () => {
    dept = await addDept(a.token, orgA.root_dep_id, '客服部');
    sub = await addDept(a.token, dept.id, '客服一组');
    await addEmp(a.token, {
      department_id: dept.id,
      number: 'K100',
      name: '李客服',
      phone: '13900000001',
      position: '组长',
    });
    await addEmp(a.token, {
      department_id: sub.id,
      number: 'K101',
      name: '赵客服',
      phone: '13900000002',
      badge_no: 'CARD-K101',
    });
  });

  it('keeps employee numbers unique within an organisation, not across organisations', async () => {
    const dup = await t.post(
      ATTENDANCE_API.addEmployee,
      { department_id: dept.id, number: 'K100', name: '重复' },
      { token: a.token },
    );
    expect(dup.code).toBe(CODE.conflict);
    expect(dup.message).toBe('工号已存在，同一组织内工号不能重复');
    // B already has E001; A may use it too.
    expect((await addEmp(a.token, { department_id: dept.id, number: 'E001', name: '甲的E001' })).number).toBe(
      'E001',
    );
    const clash = await t.post(
      ATTENDANCE_API.updateEmployee,
      {
        id: (await addEmp(a.token, { department_id: dept.id, number: 'K102', name: '改号' })).id,
        number: 'K100',
      },
      { token: a.token },
    );
    expect(clash.code).toBe(CODE.conflict);
  });

  it('validates fields with Chinese messages', async () => {
    const r = await t.post(
      ATTENDANCE_API.addEmployee,
      { department_id: dept.id, number: '工号 1', name: '坏工号' },
      { token: a.token },
    );
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toContain('工号只能包含');
    const d = await t.post(
      ATTENDANCE_API.addEmployee,
      { department_id: dept.id, number: 'D1', name: '日期', hire_date: '2026-13-45' },
      { token: a.token },
    );
    expect(d.message).toBe('入职日期格式应为 YYYY-MM-DD');
  });

  it('searches by name, number, phone, and department including sub-departments', async () => {
    const list = async (q: Record<string, unknown>) =>
      (
        await t.get<{ list: EmployeeRow[]; total: number }>(ATTENDANCE_API.employees, q, { token: a.token })
      ).data.list.map((e) => e.number);
    expect(await list({ keywords: '赵客' })).toEqual(['K101']);
    expect(await list({ keywords: '13900000001' })).toEqual(['K100']);
    expect(await list({ keywords: 'K10' })).toEqual(['K100', 'K101', 'K102']);
    expect((await list({ department_id: dept.id })).sort()).toEqual(['E001', 'K100', 'K101', 'K102']);
    expect(await list({ department_id: sub.id })).toEqual(['K101']);
    expect(await list({ keywords: '离职者', status: 2 })).toEqual(['C2']);
    expect(await list({ keywords: '离职者', status: 1 })).toEqual([]);
  });

  it('audits an edit', async () => {
    const e = await addEmp(a.token, { department_id: dept.id, number: 'AUD1', name: '审计' });
    await t.post(ATTENDANCE_API.updateEmployee, { id: e.id, position: '主管' }, { token: a.token });
    const [row] = await t.ctx.db.query<{ before: unknown; after: unknown }>(
      `SELECT before, after FROM audit_log WHERE action = 'attendance.employee.update' AND entity_id = $1`,
      [e.id],
    );
    expect(row).toMatchObject({ before: { position: '' }, after: { position: '主管' } });
  });

  it('imports from a sheet with row-level errors, nothing or only the valid rows', async () => {
    const upload = async (csv: string, mode = 'all') => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${ATTENDANCE_API.importEmployees}?mode=${mode}`,
        headers: { 'x-token': a.token, 'content-type': 'text/csv' },
        payload: csv,
      });
      return res.json() as {
        code: number;
        message: string;
        data: { imported: number; errors: { row: number; field: string; message: string }[] };
      };
    };
    const csv = [
      '工号,姓名,部门,手机号,状态',
      'IMP1,导入一,客服部/客服一组,13800000001,在职',
      'IMP2,导入二,不存在的部门,,在职',
      'IMP1,重复工号,客服部,,在职',
      'K100,已有工号,客服部,,在职',
      'IMP3,导入三,客服一组,,休假',
      'IMP4,导入四,客服部,,离职',
    ].join('\n');
    const all = await upload(csv);
    expect(all.code).toBe(CODE.badRequest);
    expect(all.message).toBe('有4行数据有误，未导入任何数据');
    expect(all.data.errors.map((e) => [e.row, e.field, e.message])).toEqual([
      [3, 'department', '部门“不存在的部门”不存在'],
      [4, 'number', '工号与第2行重复'],
      [5, 'number', '工号已存在'],
      [6, 'status', '状态只能是 在职 或 离职'],
    ]);
    expect(
      (await t.get<{ total: number }>(ATTENDANCE_API.employees, { keywords: 'IMP' }, { token: a.token })).data
        .total,
    ).toBe(0);
    const valid = await upload(csv, 'valid');
    expect(valid.code).toBe(200);
    expect(valid.data.imported).toBe(2);
    const got = (
      await t.get<{ list: EmployeeRow[] }>(ATTENDANCE_API.employees, { keywords: 'IMP' }, { token: a.token })
    ).data.list;
    expect(got.map((e) => [e.number, e.department_name, e.status])).toEqual([
      ['IMP1', '客服一组', 1],
      ['IMP4', '客服部', 2],
    ]);
  });
});

describe('clock-in terminals and punches', () => {
  let dept: DepartmentRow;
  let zhang: EmployeeRow;
  beforeAll(async () => {
    dept = await addDept(a.token, orgA.root_dep_id, '工程部');
    zhang = await addEmp(a.token, {
      department_id: dept.id,
      number: 'P001',
      name: '张工',
      badge_no: 'CARD-P001',
      face_id: 'FACE-P001',
    });
  });

  it('lets an attendance account register its terminals (the device registry at /api/v1/attendance)', async () => {
    const list = await t.get<{ list: { ser_num: string }[] }>(
      `${K.base}/${K.plural}`,
      {},
      { token: a.token },
    );
    expect(list.data.list.map((d) => d.ser_num)).toEqual(['ATT-A-1']);
    const none = await t.get<{ list: unknown[] }>(`${K.base}/${K.plural}`, {}, { token: b.token });
    expect(none.data.list.map((d) => (d as { ser_num: string }).ser_num)).toEqual(['ATT-B-1']);
  });

  it('stores punches matched by card, face or number; duplicates once; unknown cards kept unmatched', async () => {
    const at = Date.parse('2026-11-20T00:58:00Z'); // 08:58 UTC+8
    await sendReport(t, terminalA, { badge: 'CARD-P001', method: 'card', punched_at: at / 1000 });
    await sendReport(t, terminalA, { badge: 'FACE-P001', method: 'face', punched_at: at / 1000 + 60 });
    await sendReport(t, terminalA, {
      employee_no: 'P001',
      method: 'fingerprint',
      punched_at: at / 1000 + 120,
    });
    // The same message resent (no PUBACK seen) and the same punch under a new message id.
    const msg = {
      ser_num: terminalA.ser_num,
      id: 'dup-1',
      ts: at + 600_000,
      type: 'report',
      data: { badge: 'CARD-P001' },
    };
    expect((await postReport(t, terminalA.token, msg)).json().data).toMatchObject({ accepted: 1 });
    expect((await postReport(t, terminalA.token, msg)).json().data).toMatchObject({ duplicates: 1 });
    await postReport(t, terminalA.token, { ...msg, id: 'dup-2' });
    await sendReport(t, terminalA, { badge: 'STRANGER', method: 'card', punched_at: at / 1000 });

    const mine = await punches(a.token, { employee_id: zhang.id });
    expect(mine.list.map((p) => [p.method, p.punched_at])).toEqual([
      ['card', '2026-11-20 09:08:00'],
      ['fingerprint', '2026-11-20 09:00:00'],
      ['face', '2026-11-20 08:59:00'],
      ['card', '2026-11-20 08:58:00'],
    ]);
    const unmatched = await punches(a.token, { unmatched: true });
    expect(unmatched.list.map((p) => [p.badge, p.employee_id, p.device_ser_num])).toEqual([
      ['STRANGER', null, 'ATT-A-1'],
    ]);
    // The terminal's page: its recent punches.
    expect((await punches(a.token, { device_id: terminalA.id })).total).toBe(5);
  });

  it('refuses a punch without a number or a card, telling the terminal why', async () => {
    const res = await postReport(t, terminalA.token, {
      ser_num: terminalA.ser_num,
      id: 'bad-1',
      ts: Date.now(),
      type: 'report',
      data: { method: 'card' },
    });
    const body = res.json() as { data: { rejected: { error: string }[] } };
    expect(body.data.rejected).toHaveLength(1);
  });

  it('lets an admin resolve an unmatched punch to an employee', async () => {
    const [p] = (await punches(a.token, { unmatched: true })).list;
    const r = await t.post<PunchRow>(
      ATTENDANCE_API.resolvePunch,
      { id: p!.id, employee_id: zhang.id },
      { token: a.token },
    );
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ employee_id: zhang.id, employee_name: '张工', badge: 'STRANGER' });
    expect((await punches(a.token, { unmatched: true })).total).toBe(0);
    const again = await t.post(
      ATTENDANCE_API.resolvePunch,
      { id: p!.id, employee_id: zhang.id },
      { token: a.token },
    );
    expect(again.message).toBe('该打卡记录已关联员工');
  });

  it('syncs the employee list to a terminal as a command closed by its reply', async () => {
    const r = await t.post<{ command_id: number; employees: number }>(
      ATTENDANCE_API.syncTerminal,
      { id: terminalA.id },
      { token: a.token },
    );
    expect(r.code).toBe(200);
    expect(r.data.employees).toBeGreaterThan(5);
    type Cmd = { id: number; type: string; status: string; payload: { employees: { number: string }[] } };
    let cmds = await t.get<{ list: Cmd[] }>(
      JWB_API.commands,
      { device_id: terminalA.id },
      { token: a.token },
    );
    const cmd = cmds.data.list.find((c) => c.id === r.data.command_id)!;
    expect(cmd.type).toBe('employees');
    expect(cmd.payload.employees.map((e) => e.number)).toContain('P001');
    expect(cmd.payload.employees.map((e) => e.number)).not.toContain('C2'); // a leaver
    await postReport(t, terminalA.token, {
      ser_num: terminalA.ser_num,
      id: 'reply-1',
      ts: Date.now(),
      type: 'reply',
      command_id: r.data.command_id,
      ok: true,
      result: '已同步',
    });
    cmds = await t.get<{ list: Cmd[] }>(JWB_API.commands, { device_id: terminalA.id }, { token: a.token });
    expect(cmds.data.list.find((c) => c.id === r.data.command_id)!.status).toBe('done');
  });
});

describe("organisation A's account on organisation B's ids", () => {
  it('sees none of them and changes none of them', async () => {
    const tok = { token: a.token };
    const calls: [string, 'get' | 'post', Record<string, unknown>][] = [
      [ATTENDANCE_API.employee, 'get', { id: bIds.employee }],
      [ATTENDANCE_API.employees, 'get', { department_id: bIds.dept }],
      [ATTENDANCE_API.updateEmployee, 'post', { id: bIds.employee, name: '改名' }],
      [ATTENDANCE_API.deleteEmployee, 'post', { id: bIds.employee }],
      [ATTENDANCE_API.addEmployee, 'post', { department_id: bIds.dept, number: 'X1', name: '越权' }],
      [ATTENDANCE_API.addDepartment, 'post', { parent_id: bIds.dept, name: '越权' }],
      [ATTENDANCE_API.updateDepartment, 'post', { id: bIds.dept, name: '越权' }],
      [ATTENDANCE_API.updateDepartment, 'post', { id: orgA.root_dep_id, head_employee_id: bIds.employee }],
      [ATTENDANCE_API.deleteDepartment, 'post', { id: bIds.dept }],
      [ATTENDANCE_API.resolvePunch, 'post', { id: bIds.punch, employee_id: bIds.employee }],
      [ATTENDANCE_API.punches, 'get', { device_id: bIds.terminal }],
      [ATTENDANCE_API.punches, 'get', { employee_id: bIds.employee }],
      [ATTENDANCE_API.syncTerminal, 'post', { id: bIds.terminal }],
      [`${K.base}/get-${K.one}`, 'get', { id: bIds.terminal }],
      [`${K.base}/update-${K.one}`, 'post', { id: bIds.terminal, desc: '越权' }],
    ];
    for (const [url, method, body] of calls) {
      const r = method === 'get' ? await t.get(url, body, tok) : await t.post(url, body, tok);
      expect([url, r.code]).toEqual([url, CODE.notFound]);
    }
    // A's own lists hold nothing of B's.
    expect((await tree(a.token)).some((d) => d.id === bIds.dept)).toBe(false);
    expect((await punches(a.token)).list.some((p) => p.id === bIds.punch)).toBe(false);
    const emps = await t.get<{ list: EmployeeRow[] }>(ATTENDANCE_API.employees, { keywords: '乙员工' }, tok);
    expect(emps.data.list).toEqual([]);
    // B's rows are as they were.
    const e = await t.get<EmployeeRow>(ATTENDANCE_API.employee, { id: bIds.employee }, { token: b.token });
    expect(e.data).toMatchObject({ name: '乙员工', department_id: bIds.dept });
    expect((await tree(b.token)).find((d) => d.id === bIds.dept)!.name).toBe('乙-保洁部');
    expect((await punches(b.token, { unmatched: true })).total).toBe(1);
  });
});

/** A toilet the admin runs with an organisation A terminal placed in it. */
async function patrolledToilet(name: string, serNum: string) {
  const toilet = await addToilet(t, admin, { name });
  const term = await addDevice(t, 'attendance', serNum, a.token);
  await t.ctx.db.query('UPDATE devices SET org_id = $2 WHERE id = $1', [term.id, orgA.org_id]);
  const placed = await t.post(
    TOILET_DETAIL_API.place,
    { toilet_id: toilet, add_ids: [term.id] },
    { token: admin },
  );
  expect(placed.code).toBe(200);
  return { toilet, term };
}

describe('cleaner patrols', () => {
  it('alarms a toilet whose patrol is overdue and closes the alarm on the next punch there', async () => {
    const { toilet, term } = await patrolledToilet('巡检公厕', 'ATT-TOILET-1');
    // Open from three hours ago to three hours ahead (UTC+8 wall clock, perhaps across
    // midnight), so that whatever the time of day the toilet is open and a patrol is due.
    const wall = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(11, 16);
    const [openAt, closeAt] = [wall(Date.now() - 3 * 3_600_000), wall(Date.now() + 3 * 3_600_000)];
    await t.ctx.db.query(
      `INSERT INTO toilet_documents (toilet_id, open_time, close_time) VALUES ($1, $2, $3)`,
      [toilet, openAt, closeAt],
    );

    let info = await t.post<PatrolInfo>(
      ATTENDANCE_API.setPatrol,
      { toilet_id: toilet, every_min: 30 },
      { token: admin },
    );
    expect(info.code).toBe(200);
    expect(info.data).toMatchObject({
      every_min: 30,
      open_time: openAt,
      close_time: closeAt,
      last_at: null,
      overdue: true,
    });
    const bad = await t.post(ATTENDANCE_API.setPatrol, { toilet_id: toilet, every_min: 5 }, { token: admin });
    expect(bad.message).toContain('巡检间隔应为');

    // A patrol 40 minutes ago: overdue now.
    await sendReport(t, term, {
      employee_no: 'P001',
      method: 'card',
      punched_at: (Date.now() - 40 * 60_000) / 1000,
    });
    const opened = await patrolSweep(t.ctx);
    expect(opened).toHaveLength(1);
    const open = async () =>
      t.ctx.db.query<{ status: string }>(
        `SELECT status FROM alarms WHERE device_id = $1 AND type = 'patrol'`,
        [term.id],
      );
    expect((await open())[0]!.status).toBe('open');
    // A second sweep raises nothing new.
    expect(await patrolSweep(t.ctx)).toHaveLength(0);

    await sendReport(t, term, { employee_no: 'P001', method: 'card' });
    expect((await open())[0]!.status).toBe('closed');
    info = await t.get<PatrolInfo>(ATTENDANCE_API.patrols, { toilet_id: toilet }, { token: admin });
    expect(info.data.overdue).toBe(false);
    expect(info.data.recent.map((p) => p.employee_name)).toEqual(['张工', '张工']);
    expect(await patrolSweep(t.ctx)).toHaveLength(0);

    // B's attendance account does not see the toilet.
    const other = await t.get(ATTENDANCE_API.patrols, { toilet_id: toilet }, { token: b.token });
    expect(other.code).not.toBe(200);
  });
});

describe('patrols by QR code and opening hours past midnight', () => {
  let toilet: number;
  let publicId: string;
  let term: TestDevice;
  const alarms = () =>
    t.ctx.db.query<{ status: string }>(`SELECT status FROM alarms WHERE device_id = $1 AND type = 'patrol'`, [
      term.id,
    ]);

  beforeAll(async () => {
    ({ toilet, term } = await patrolledToilet('夜间公厕', 'ATT-NIGHT-1'));
    // Open 18:00 to 02:00 the next morning, a patrol every 30 minutes.
    await t.ctx.db.query(
      `INSERT INTO toilet_documents (toilet_id, open_time, close_time) VALUES ($1, '18:00', '02:00')`,
      [toilet],
    );
    const set = await t.post(
      ATTENDANCE_API.setPatrol,
      { toilet_id: toilet, every_min: 30 },
      { token: admin },
    );
    expect(set.code, set.message).toBe(200);
    publicId = (
      await t.ctx.db.query<{ public_id: string }>(`SELECT public_id FROM toilets WHERE id = $1`, [toilet])
    )[0]!.public_id;
  });

  it('requires patrols from 18:00 to 02:00 across midnight, not in the closed hours', async () => {
    // Alarms raised on this toilet's terminal by a sweep at a UTC+8 wall-clock time.
    const sweep = async (local: string) => {
      await patrolSweep(t.ctx, new Date(`${local}+08:00`));
      return alarms();
    };
    expect(await sweep('2026-11-20T03:00:00')).toHaveLength(0); // closed
    expect(await sweep('2026-11-20T17:59:00')).toHaveLength(0); // closed
    expect(await sweep('2026-11-20T18:20:00')).toHaveLength(0); // open for 20 minutes only
    // 01:00: open since 18:00 the day before, no patrol for 7 hours.
    expect(await sweep('2026-11-21T01:00:00')).toHaveLength(1);
    expect((await alarms()).map((x) => x.status)).toEqual(['open']);
  });

  const scan = (body: Record<string, unknown>, token = a.token) =>
    t.post<{ id: number; employee_name: string; toilet_name: string; duplicate: boolean }>(
      ATTENDANCE_API.patrolScan,
      body,
      { token },
    );
  const employeeNumbered = async (number: string) =>
    (
      await t.get<{ list: EmployeeRow[] }>(ATTENDANCE_API.employees, { keywords: number }, { token: a.token })
    ).data.list.find((e) => e.number === number)!;

  it('links an employee record to an account of the organisation, one employee per account', async () => {
    const zhang = await employeeNumbered('P001');
    const link = (id: number, user_id: number) =>
      t.post<EmployeeRow>(ATTENDANCE_API.updateEmployee, { id, user_id }, { token: a.token });
    // An account of another organisation is not one to link.
    expect(await link(zhang.id, b.id)).toMatchObject({ code: 404, message: '关联账号不存在或不在本组织' });
    const linked = await link(zhang.id, a.id);
    expect(linked.code, linked.message).toBe(200);
    expect(linked.data).toMatchObject({ user_id: a.id, user_name: 'att_a' });
    const other = await addEmp(a.token, { department_id: zhang.department_id, number: 'P002', name: '李工' });
    expect(await link(other.id, a.id)).toMatchObject({ code: 409, message: '该账号已关联员工「张工」' });
    expect(
      await t.post(
        ATTENDANCE_API.addEmployee,
        { department_id: zhang.department_id, number: 'P003', name: '王工', user_id: a.id },
        { token: a.token },
      ),
    ).toMatchObject({ code: 409, message: '该账号已关联员工「张工」' });
  });

  it("a cleaner's QR scan is a patrol check-in as its own employee: stored once, closes the alarm", async () => {
    const r = await scan({ toilet_id: publicId });
    expect(r.code, r.message).toBe(200);
    expect(r.data).toMatchObject({ employee_name: '张工', toilet_name: '夜间公厕', duplicate: false });
    expect((await alarms()).map((x) => x.status)).toEqual(['closed']);
    // Scanned twice in a row (its own number given this time): one check-in.
    const again = await scan({ toilet_id: publicId, employee_no: 'P001' });
    expect(again.data).toMatchObject({ id: r.data.id, duplicate: true });
    const info = await t.get<PatrolInfo>(ATTENDANCE_API.patrols, { toilet_id: toilet }, { token: admin });
    expect(info.data.recent.map((p) => p.employee_name)).toEqual(['张工']);
    const row = await t.ctx.db.query<{ method: string; employee_id: number | null }>(
      `SELECT method, employee_id FROM att_punches WHERE id = $1`,
      [r.data.id],
    );
    expect(row[0]).toMatchObject({ method: 'qr', employee_id: (await employeeNumbered('P001')).id });
    expect(await scan({ toilet_id: 'not-a-toilet' })).toMatchObject({
      code: 404,
      message: expect.stringContaining('厕所不存在'),
    });
    expect(await scan({ toilet_id: publicId }, b.token)).toMatchObject({ code: 404 });
  });

  it('refuses a member scanning as someone else; the manager of the organisation records for a cleaner', async () => {
    // a2 works in A but no employee names its account; nor may it give another's number.
    expect(await scan({ toilet_id: publicId }, a2.token)).toMatchObject({
      code: 403,
      message: '当前账号未关联在职员工，请联系管理员在员工资料中关联账号',
    });
    expect(await scan({ toilet_id: publicId, employee_no: 'P002' }, a2.token)).toMatchObject({
      code: 403,
      message: '只能为自己巡检打卡：工号与当前账号关联的员工不符',
    });
    expect(await scan({ toilet_id: publicId, employee_no: 'P002' })).toMatchObject({ code: 403 });
    const before = await t.ctx.db.query(`SELECT 1 FROM att_punches WHERE method = 'qr'`);

    // A's manager (organisations.user_id) records for any 在职 cleaner by number.
    const manager = await t.account('att_a_manager', ATT, 1);
    await joinOrg(manager.id, orgA.org_id);
    await t.ctx.db.query('UPDATE organisations SET user_id = $2 WHERE id = $1', [orgA.org_id, manager.id]);
    const forLi = await scan({ toilet_id: publicId, employee_no: 'P002' }, manager.token);
    expect(forLi.code, forLi.message).toBe(200);
    expect(forLi.data).toMatchObject({ employee_name: '李工', duplicate: false });
    expect(await scan({ toilet_id: publicId, employee_no: 'NOBODY' }, manager.token)).toMatchObject({
      code: 404,
      message: '工号不存在或该员工已离职',
    });
    const after = await t.ctx.db.query(`SELECT 1 FROM att_punches WHERE method = 'qr'`);
    expect(after.length).toBe(before.length + 1);
  });
});
