import {
  COMMAND_TIMEOUT_MS,
  DEPARTMENT_LIMITS,
  SYNC_COMMAND,
  type AttendanceOrg,
  type DepartmentRow,
  type PatrolCheckIn,
  type patrolScanBody,
  type addEmployeeBody,
  type addDepartmentBody,
  type employeeListQuery,
  type punchListQuery,
  type resolvePunchBody,
  type setPatrolBody,
  type updateDepartmentBody,
  type updateEmployeeBody,
} from '@se/core';
import type { z } from 'zod';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { attendanceOrgOf } from '../access/attendance.ts';
import { managesOrg } from '../access/orgs.ts';
import { findUser } from '../users/repo.ts';
import { assertDeviceRight } from '../access/devices.ts';
import { assertToiletRight, toiletRight } from '../access/toilets.ts';
import { addDays, dayOf } from '../attendance-rules/compute.ts';
import { markDaysStale } from '../attendance-rules/repo.ts';
import { syncToiletAlarmFlagsOf } from '../../ingest/alarms.ts';
import { openedAt } from './patrols.ts';
import { create, mutate } from '../audit/mutate.ts';
import { insertCommand } from '../jwb/repo.ts';
import * as repo from './repo.ts';

/** Levels of a path: '/1/' is 1, '/1/5/' is 2. */
const depthOf = (path: string) => path.split('/').length - 2;

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';
const NUMBER_TAKEN = '工号已存在，同一组织内工号不能重复';
const ACCOUNT_TAKEN = '该账号已关联其他员工';
/** A unique violation as the refusal it stands for: the account link or the number. */
const takenAsConflict = (err: unknown) =>
  isUniqueViolation(err)
    ? conflict(
        String((err as Error).message).includes('att_employees_user_key') ? ACCOUNT_TAKEN : NUMBER_TAKEN,
      )
    : err;

/**
 * The account an employee record may name (关联账号): a live account working in the
 * organisation, linked to no other live employee. 0 unlinks (null).
 */
async function linkableAccount(ctx: AppContext, orgId: number, userId: number, employeeId = 0) {
  if (userId === 0) return null;
  const [u, works] = await Promise.all([findUser(ctx.db, userId), repo.workOrgOf(ctx.db, userId)]);
  if (!u || u.is_delete || works?.id !== orgId) throw notFound('关联账号不存在或不在本组织');
  const linked = await repo.employeeOfAccount(ctx.db, userId);
  if (linked && linked.id !== employeeId) throw conflict(`该账号已关联员工「${linked.name}」`);
  return userId;
}

/**
 * The caller's organisation with its root department, created (named after the
 * organisation) the first time the organisation uses attendance.
 */
export async function orgOf(ctx: AppContext, caller: Caller): Promise<AttendanceOrg> {
  const org = (await attendanceOrgOf(ctx, caller)) ?? (await foundOrg(ctx, caller));
  if (org.root_dep_id !== null) return { org_id: org.id, name: org.name, root_dep_id: org.root_dep_id };
  const root = await ctx.db.transaction(async (tx) => {
    const locked = await repo.lockOrg(tx, org.id);
    if (locked?.root_dep_id != null) return locked.root_dep_id;
    const id = await repo.insertDepartment(tx, { org_id: org.id, parent: null, name: org.name, sort: 0 });
    await repo.setRootDepartment(tx, org.id, id);
    return id;
  });
  return { org_id: org.id, name: org.name, root_dep_id: root };
}

/**
 * An attendance account outside any organisation founds its own on first use: named after
 * its company (or itself), managed by it, and the account works inside it from then on.
 */
async function foundOrg(ctx: AppContext, caller: Caller) {
  const id = await create(ctx, caller, '', {
    insert: async (tx) => {
      const id = await repo.insertOrgFor(tx, caller.id, caller.userName);
      await repo.setUserOrg(tx, caller.id, id);
      return id;
    },
    audit: { action: 'attendance.org.add', entity: 'organisation', targetUserId: caller.id },
    after: { user_id: caller.id },
  });
  return { id, name: (await attendanceOrgOf(ctx, caller))?.name ?? caller.userName, root_dep_id: null };
}

// ---- departments --------------------------------------------------------------------

/** The whole tree in one query; each node also counts the employees of its subtree. */
export async function departments(ctx: AppContext, caller: Caller): Promise<DepartmentRow[]> {
  const org = await orgOf(ctx, caller);
  const rows = await repo.departmentTree(ctx.db, org.org_id);
  const total = new Map<number, number>();
  for (const r of rows) {
    for (const id of r.path.split('/').filter(Boolean)) {
      total.set(Number(id), (total.get(Number(id)) ?? 0) + r.employee_count);
    }
  }
  return rows.map((r) => ({ ...r, total_count: total.get(r.id) ?? 0 }));
}

async function department(ctx: AppContext, orgId: number, id: number, message = '部门不存在') {
  const d = await repo.findDepartment(ctx.db, orgId, id);
  if (!d) throw notFound(message);
  return d;
}

/** One department as a tree row: the single-row lookup plus its counts. */
async function departmentRow(ctx: AppContext, caller: Caller, id: number): Promise<DepartmentRow> {
  const org = await orgOf(ctx, caller);
  const d = await department(ctx, org.org_id, id);
  const c = await repo.departmentCounts(ctx.db, d);
  return {
    id: d.id,
    parent_id: d.parent_id,
    name: d.name,
    head_employee_id: d.head_employee_id,
    head_name: c.head_name,
    path: d.path,
    sort: d.sort,
    employee_count: c.employee_count,
    total_count: c.total_count,
  };
}

export async function addDepartment(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof addDepartmentBody>,
  ip: string,
) {
  const org = await orgOf(ctx, caller);
  const parent = await department(ctx, org.org_id, b.parent_id, '上级部门不存在');
  if (depthOf(parent.path) + 1 > DEPARTMENT_LIMITS.maxDepth) {
    throw badRequest(`部门最多${DEPARTMENT_LIMITS.maxDepth}级，不能再添加下级部门`);
  }
  if ((await repo.countDepartments(ctx.db, org.org_id)) >= DEPARTMENT_LIMITS.maxPerOrg) {
    throw badRequest(`一个组织最多${DEPARTMENT_LIMITS.maxPerOrg}个部门`);
  }
  const id = await create(ctx, caller, ip, {
    insert: (tx) => repo.insertDepartment(tx, { org_id: org.org_id, parent, name: b.name, sort: b.sort }),
    audit: { action: 'attendance.department.add', entity: 'att_department', targetUserId: null },
    after: { parent_id: parent.id, name: b.name },
  });
  return departmentRow(ctx, caller, id);
}

/** Rename, head, sort, or move under another parent (never under itself or below itself). */
export async function updateDepartment(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof updateDepartmentBody>,
  ip: string,
) {
  const org = await orgOf(ctx, caller);
  const d = await department(ctx, org.org_id, b.id);
  let parent: repo.DepartmentRecord | undefined;
  if (b.parent_id !== undefined && b.parent_id !== d.parent_id) {
    if (d.id === org.root_dep_id) throw badRequest('根部门不能移动');
    parent = await department(ctx, org.org_id, b.parent_id, '上级部门不存在');
    if (parent.path.startsWith(d.path)) throw badRequest('不能把部门移动到它自己或它的下级部门之下');
    const levels = await repo.subtreeDepth(ctx.db, org.org_id, d.path);
    if (depthOf(parent.path) + levels > DEPARTMENT_LIMITS.maxDepth) {
      throw badRequest(`移动后部门将超过${DEPARTMENT_LIMITS.maxDepth}级，不能移动`);
    }
  }
  let head: number | null | undefined;
  if (b.head_employee_id !== undefined) {
    head = b.head_employee_id === 0 ? null : b.head_employee_id;
    if (head !== null && !(await repo.findEmployee(ctx.db, org.org_id, head))) throw notFound('员工不存在');
  }
  await mutate(ctx, caller, ip, {
    row: d,
    patch: { name: b.name, sort: b.sort, head_employee_id: head, parent_id: parent?.id },
    table: repo.DEPARTMENTS,
    write: async (tx, set) => {
      if (set.parent_id === undefined || !parent) return;
      // Moves of one organisation run one at a time: the cycle check holds at commit.
      await repo.lockOrg(tx, org.org_id);
      const [now, target] = await Promise.all([
        repo.findDepartment(tx, org.org_id, d.id),
        repo.findDepartment(tx, org.org_id, parent.id),
      ]);
      if (!now || !target) throw notFound('部门不存在');
      if (target.path.startsWith(now.path)) throw badRequest('不能把部门移动到它自己或它的下级部门之下');
      await repo.moveDepartment(tx, org.org_id, now, target);
    },
    audit: {
      action: 'attendance.department.update',
      entity: 'att_department',
      entityId: d.id,
      targetUserId: null,
    },
  });
  return departmentRow(ctx, caller, d.id);
}

/** Deletes an empty department; says what is still in it otherwise. */
export async function deleteDepartment(ctx: AppContext, caller: Caller, id: number, ip: string) {
  const org = await orgOf(ctx, caller);
  const d = await department(ctx, org.org_id, id);
  if (d.id === org.root_dep_id) throw badRequest('根部门不能删除');
  const c = await repo.departmentContents(ctx.db, d.id);
  if (c.children || c.employees) {
    const parts = [];
    if (c.children) parts.push(`${c.children} 个下级部门`);
    if (c.employees) parts.push(`${c.employees} 名在职员工`);
    throw badRequest(`该部门下还有${parts.join('和')}，请先移走后再删除`);
  }
  await mutate(ctx, caller, ip, {
    row: d,
    patch: { is_delete: true },
    table: repo.DEPARTMENTS,
    audit: {
      action: 'attendance.department.delete',
      entity: 'att_department',
      entityId: d.id,
      targetUserId: null,
    },
  });
  return { id: d.id };
}

// ---- employees ----------------------------------------------------------------------

export async function listEmployees(
  ctx: AppContext,
  caller: Caller,
  q: z.output<typeof employeeListQuery>,
  opts: { exact?: boolean } = {},
) {
  const org = await orgOf(ctx, caller);
  const dep = q.department_id !== undefined ? await department(ctx, org.org_id, q.department_id) : undefined;
  const r = await repo.listEmployees(ctx.db, {
    org_id: org.org_id,
    keywords: q.keywords || undefined,
    department_path: dep?.path,
    status: q.status,
    ...pageWindow(q),
    exact: opts.exact,
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function getEmployee(ctx: AppContext, caller: Caller, id: number) {
  const org = await orgOf(ctx, caller);
  const e = await repo.employeeRow(ctx.db, org.org_id, id);
  if (!e) throw notFound('员工不存在');
  return e;
}

export async function addEmployee(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof addEmployeeBody>,
  ip: string,
) {
  const org = await orgOf(ctx, caller);
  await department(ctx, org.org_id, b.department_id);
  if (await repo.numberTaken(ctx.db, org.org_id, b.number)) throw conflict(NUMBER_TAKEN);
  const userId = await linkableAccount(ctx, org.org_id, b.user_id);
  try {
    const id = await create(ctx, caller, ip, {
      insert: async (tx) => (await repo.insertEmployees(tx, org.org_id, [{ ...b, user_id: userId }]))[0]!,
      audit: { action: 'attendance.employee.add', entity: 'att_employee', targetUserId: userId },
      after: { number: b.number, name: b.name, department_id: b.department_id, user_id: userId },
    });
    return getEmployee(ctx, caller, id);
  } catch (err) {
    throw takenAsConflict(err);
  }
}

export async function updateEmployee(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof updateEmployeeBody>,
  ip: string,
) {
  const org = await orgOf(ctx, caller);
  const e = await repo.findEmployee(ctx.db, org.org_id, b.id);
  if (!e) throw notFound('员工不存在');
  if (b.department_id !== undefined) await department(ctx, org.org_id, b.department_id);
  if (b.number !== undefined && (await repo.numberTaken(ctx.db, org.org_id, b.number, e.id))) {
    throw conflict(NUMBER_TAKEN);
  }
  const { id, user_id, ...rest } = b;
  const userId = user_id === undefined ? undefined : await linkableAccount(ctx, org.org_id, user_id, e.id);
  try {
    await mutate(ctx, caller, ip, {
      row: e,
      patch: { ...rest, user_id: userId },
      table: repo.EMPLOYEES,
      audit: {
        action: 'attendance.employee.update',
        entity: 'att_employee',
        entityId: id,
        targetUserId: userId ?? e.user_id ?? null,
      },
    });
  } catch (err) {
    throw takenAsConflict(err);
  }
  return getEmployee(ctx, caller, id);
}

/**
 * Removes an employee from the lists. Punches and results stay (a leaver is status 离职
 * and stays listed; this is for rows entered by mistake).
 */
export async function deleteEmployee(ctx: AppContext, caller: Caller, id: number, ip: string) {
  const org = await orgOf(ctx, caller);
  const e = await repo.findEmployee(ctx.db, org.org_id, id);
  if (!e) throw notFound('员工不存在');
  await mutate(ctx, caller, ip, {
    row: e,
    patch: { is_delete: true },
    table: repo.EMPLOYEES,
    audit: { action: 'attendance.employee.delete', entity: 'att_employee', entityId: id, targetUserId: null },
  });
  return { id };
}

// ---- terminals and punches ----------------------------------------------------------

/** A clock-in terminal the caller may use (need) and that belongs to the caller's organisation. */
async function terminal(
  ctx: AppContext,
  caller: Caller,
  orgId: number,
  id: number,
  need: 'read' | 'operate',
) {
  await assertDeviceRight(ctx, caller, 'attendance', id, need, { what: '同步员工' });
  const owner = await repo.terminalOrg(ctx.db, id);
  if (owner !== orgId) throw notFound('考勤机不存在');
}

/** 同步员工: the organisation's 在职 employees sent down as a command, tracked to the reply. */
export async function syncTerminal(ctx: AppContext, caller: Caller, id: number, ip: string) {
  const org = await orgOf(ctx, caller);
  await terminal(ctx, caller, org.org_id, id, 'operate');
  const employees = await repo.activeEmployees(ctx.db, org.org_id);
  const commandId = await create(ctx, caller, ip, {
    insert: (tx) =>
      insertCommand(tx, {
        deviceId: id,
        type: SYNC_COMMAND,
        op: null,
        payload: { employees },
        createdBy: caller.id,
        timeoutMs: COMMAND_TIMEOUT_MS,
      }),
    audit: { action: 'attendance.terminal.sync', entity: 'device_command', targetUserId: null },
    after: { device_id: id, employees: employees.length },
  });
  void ctx.commands.deliver(id);
  return { command_id: commandId, employees: employees.length };
}

export async function listPunches(ctx: AppContext, caller: Caller, q: z.output<typeof punchListQuery>) {
  const org = await orgOf(ctx, caller);
  if (q.device_id !== undefined) await terminal(ctx, caller, org.org_id, q.device_id, 'read');
  if (q.employee_id !== undefined && !(await repo.employeeRow(ctx.db, org.org_id, q.employee_id))) {
    throw notFound('员工不存在');
  }
  const r = await repo.listPunches(ctx.db, {
    org_id: org.org_id,
    device_id: q.device_id,
    employee_id: q.employee_id,
    unmatched: q.unmatched,
    keywords: q.keywords || undefined,
    start: q.start || undefined,
    end: q.end || undefined,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

/** Attaches an unmatched punch (unknown card) to the employee it belonged to. */
export async function resolvePunch(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof resolvePunchBody>,
  ip: string,
) {
  const org = await orgOf(ctx, caller);
  const p = await repo.findPunch(ctx.db, org.org_id, b.id);
  if (!p) throw notFound('打卡记录不存在');
  if (p.employee_id !== null) throw badRequest('该打卡记录已关联员工');
  if (!(await repo.findEmployee(ctx.db, org.org_id, b.employee_id))) throw notFound('员工不存在');
  await mutate(ctx, caller, ip, {
    row: p,
    patch: { employee_id: b.employee_id },
    table: repo.PUNCHES,
    audit: { action: 'attendance.punch.resolve', entity: 'att_punch', entityId: p.id, targetUserId: null },
  });
  return (await repo.punchRow(ctx.db, org.org_id, p.id))!;
}

// ---- patrols ------------------------------------------------------------------------

const PATROLS_SHOWN = 20;

/** Whom a patrol check-in records: the caller's own 在职 employee, or (a manager) the one named. */
async function scanningEmployee(ctx: AppContext, caller: Caller, orgId: number, number?: string) {
  const linked = await repo.employeeOfAccount(ctx.db, caller.id);
  const own = linked && linked.org_id === orgId && linked.status === 1 ? linked : undefined;
  if (number !== undefined && number !== own?.number) {
    if (!(await managesOrg(ctx, caller, orgId))) {
      throw forbidden('只能为自己巡检打卡：工号与当前账号关联的员工不符');
    }
    const named = await repo.activeEmployeeByNumber(ctx.db, orgId, number);
    if (!named) throw notFound('工号不存在或该员工已离职');
    return named;
  }
  if (!own) throw forbidden('当前账号未关联在职员工，请联系管理员在员工资料中关联账号');
  return own;
}

export async function patrols(ctx: AppContext, caller: Caller, toiletId: number) {
  await assertToiletRight(ctx, caller, toiletId, 'read', { what: '查看巡检' });
  const s = await repo.patrolSetting(ctx.db, toiletId);
  if (!s) throw notFound('厕所不存在');
  const recent = await repo.recentPatrols(ctx.db, toiletId, PATROLS_SHOWN);
  const last = recent[0];
  // Due only while open (hours may run past midnight), counted from the later of the last
  // patrol and the current opening.
  const now = Date.now();
  const opened = openedAt(now, s.open_time, s.close_time);
  const since = Math.max(opened ?? 0, last ? new Date(last.at).getTime() : 0);
  const overdue = s.patrol_every_min > 0 && opened !== null && now - since > s.patrol_every_min * 60_000;
  return {
    toilet_id: toiletId,
    every_min: s.patrol_every_min,
    open_time: s.open_time,
    close_time: s.close_time,
    last_at: last?.punched_at ?? null,
    overdue,
    recent: recent.map(({ at: _at, ...r }) => r),
  };
}

export async function setPatrol(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof setPatrolBody>,
  ip: string,
) {
  await assertToiletRight(ctx, caller, b.toilet_id, 'operate', { what: '设置巡检要求' });
  const s = await repo.patrolSetting(ctx.db, b.toilet_id);
  if (!s) throw notFound('厕所不存在');
  await mutate(ctx, caller, ip, {
    row: s,
    patch: { patrol_every_min: b.every_min },
    table: repo.PATROLS,
    audit: { action: 'attendance.patrol.set', entity: 'toilet', entityId: b.toilet_id, targetUserId: null },
  });
  return patrols(ctx, caller, b.toilet_id);
}

/**
 * The mini-program's patrol check-in: a cleaner scans the QR code in a toilet and the
 * signed-in account checks in as its own employee (the record naming the account, 关联账号).
 * Only a manager of the organisation (managesOrg) records for someone else by number; a
 * member naming another number is refused. The toilet must be one the organisation patrols
 * (its terminal stands there, or the account may see the toilet); the punch is stored at the
 * toilet (method 'qr'): it closes an open patrol alarm and counts for the cleaner's
 * attendance like a terminal punch. A repeat within the minute is answered with the first.
 */
export async function patrolScan(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof patrolScanBody>,
  ip: string,
): Promise<PatrolCheckIn> {
  const org = await orgOf(ctx, caller);
  const toilet = await repo.toiletByPublicId(ctx.db, b.toilet_id, org.org_id);
  const allowed =
    toilet &&
    (toilet.org_terminal || ((await toiletRight(ctx, caller, toilet.id))?.right ?? 'none') !== 'none');
  if (!toilet || !allowed) throw notFound('厕所不存在或不在本组织的巡检范围内，请扫描厕所内的二维码');
  const e = await scanningEmployee(ctx, caller, org.org_id, b.employee_no || undefined);
  const seen = await repo.recentScan(ctx.db, toilet.id, e.id);
  if (seen) return { ...seen, toilet_name: toilet.name, employee_name: e.name, duplicate: true };
  let stored: { id: number; punched_at: string } | undefined;
  const closed: number[] = [];
  await create(ctx, caller, ip, {
    insert: async (tx) => {
      stored = await repo.insertScan(tx, {
        org_id: org.org_id,
        employee_id: e.id,
        toilet_id: toilet.id,
        number: e.number,
      });
      const alarms = await repo.closePatrolAlarms(tx, [toilet.id]);
      closed.push(...alarms.map((a) => a.id));
      await syncToiletAlarmFlagsOf(tx, [toilet.id]);
      const today = dayOf(Date.now());
      await markDaysStale(tx, [e.id, e.id], [addDays(today, -1), today]);
      return stored.id;
    },
    audit: { action: 'attendance.patrol.scan', entity: 'att_punch', targetUserId: null },
    after: { toilet_id: toilet.id, employee_id: e.id },
  });
  if (closed.length) ctx.events.emit('alarms', closed);
  return { ...stored!, toilet_name: toilet.name, employee_name: e.name, duplicate: false };
}
