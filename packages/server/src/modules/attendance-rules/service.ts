import type {
  AddSchemeBody,
  AssignSchemeBody,
  CorrectRecordBody,
  RecordListQuery,
  DayRecordRow,
  SetHolidayBody,
  SummaryDepartments,
  SummaryQuery,
  UpdateSchemeBody,
} from '@se/core';
import { addSchemeBody, formatDateTime } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest, notFound } from '../../errors.ts';
import { create, mutate } from '../audit/mutate.ts';
import { DAY_MS, dayOf, dayStart } from './compute.ts';
import { attendanceOrg } from './org.ts';
import * as repo from './repo.ts';
import { ensureResults, monthRange } from './results.ts';

// ---- schemes

export async function listSchemes(
  ctx: AppContext,
  caller: Caller,
  f: { keywords?: string; page: number; page_size: number },
) {
  const org = await attendanceOrg(ctx, caller);
  const r = await repo.listSchemes(ctx.db, { org, keywords: f.keywords || undefined, ...pageWindow(f) });
  return { ...r, page: f.page, page_size: f.page_size };
}

async function schemeOf(ctx: AppContext, org: number, id: number) {
  const s = await repo.findScheme(ctx.db, org, id);
  if (!s) throw notFound('班次不存在');
  return s;
}

const schemeValues = (b: Omit<Partial<AddSchemeBody>, never>) => ({
  ...b,
  segments: b.segments === undefined ? undefined : JSON.stringify(b.segments),
});

export async function addScheme(ctx: AppContext, caller: Caller, b: AddSchemeBody, ip: string) {
  const org = await attendanceOrg(ctx, caller);
  const id = await create(ctx, caller, ip, {
    insert: (tx) => repo.insertScheme(tx, org, { ...b, segments: JSON.stringify(b.segments) }),
    audit: { action: 'attendance.scheme.add', entity: 'att_scheme', targetUserId: caller.id },
    after: b,
  });
  return schemeOf(ctx, org, id);
}

export async function updateScheme(ctx: AppContext, caller: Caller, b: UpdateSchemeBody, ip: string) {
  const org = await attendanceOrg(ctx, caller);
  const s = await schemeOf(ctx, org, b.id);
  const { id, ...patch } = b;
  const merged = { ...s, ...patch };
  // The combined scheme must still fit in a day (the body alone may carry only one side).
  const check = addSchemeBody.safeParse({ ...merged, name: merged.name });
  if (!check.success) throw badRequest(check.error.issues[0]?.message ?? '班次设置无效');
  const row = { ...s, segments: JSON.stringify(s.segments) };
  await mutate(ctx, caller, ip, {
    row,
    patch: schemeValues(patch),
    table: repo.SCHEMES,
    write: async (tx) => {
      if (patch.is_delete) await repo.dropSchemeAssignments(tx, org, id);
      await repo.markStale(tx, org);
    },
    audit: {
      action: patch.is_delete ? 'attendance.scheme.delete' : 'attendance.scheme.update',
      entity: 'att_scheme',
      entityId: id,
      targetUserId: caller.id,
    },
  });
  if (patch.is_delete) return s;
  return schemeOf(ctx, org, id);
}

export async function assignScheme(ctx: AppContext, caller: Caller, b: AssignSchemeBody, ip: string) {
  const org = await attendanceOrg(ctx, caller);
  if (b.scheme_id !== null) await schemeOf(ctx, org, b.scheme_id);
  const deps = [...new Set(b.department_ids)];
  const emps = [...new Set(b.employee_ids)];
  const [okDeps, okEmps] = await Promise.all([
    repo.orgDepartments(ctx.db, org, deps),
    repo.orgEmployees(ctx.db, org, emps),
  ]);
  if (okDeps.length !== deps.length) throw notFound('部门不存在');
  if (okEmps.length !== emps.length) throw notFound('员工不存在');
  await mutate(ctx, caller, ip, {
    row: {},
    patch: { scheme_id: b.scheme_id, department_ids: deps, employee_ids: emps },
    always: true,
    write: async (tx) => {
      await repo.setDepartmentSchemes(tx, org, deps, b.scheme_id);
      await repo.setEmployeeSchemes(tx, org, emps, b.scheme_id);
      // A department's scheme reaches everyone below it: recompute the organisation.
      await repo.markStale(tx, org, deps.length ? {} : { employees: emps });
    },
    audit: {
      action: 'attendance.scheme.assign',
      entity: 'att_scheme',
      entityId: b.scheme_id,
      targetUserId: caller.id,
    },
  });
  return { scheme_id: b.scheme_id, department_ids: deps, employee_ids: emps };
}

// ---- holidays

export async function holidays(ctx: AppContext, caller: Caller, year: number) {
  const org = await attendanceOrg(ctx, caller);
  return { list: await repo.calendar(ctx.db, org, `${year}-01-01`, `${year}-12-31`) };
}

export async function setHoliday(ctx: AppContext, caller: Caller, b: SetHolidayBody, ip: string) {
  const org = await attendanceOrg(ctx, caller);
  const own = await repo.findOrgHoliday(ctx.db, org, b.day);
  const audit = { action: 'attendance.holiday.set', entity: 'att_holiday', targetUserId: caller.id };
  if (own) {
    await mutate(ctx, caller, ip, {
      row: own,
      patch: { kind: b.kind, name: b.name },
      table: repo.HOLIDAYS,
      write: (tx) => repo.markStale(tx, org, { from: b.day }),
      audit: { ...audit, entityId: own.id },
    });
  } else {
    await create(ctx, caller, ip, {
      insert: async (tx) => {
        const id = await repo.insertHoliday(tx, org, b.day, b.kind, b.name);
        await repo.markStale(tx, org, { from: b.day });
        return id;
      },
      audit,
      after: b,
    });
  }
  return holidays(ctx, caller, Number(b.day.slice(0, 4)));
}

export async function resetHoliday(ctx: AppContext, caller: Caller, d: string, ip: string) {
  const org = await attendanceOrg(ctx, caller);
  const own = await repo.findOrgHoliday(ctx.db, org, d);
  if (!own) throw notFound('该日期没有自定义设置');
  await mutate(ctx, caller, ip, {
    row: own,
    patch: { removed: true },
    always: true,
    write: async (tx) => {
      await repo.deleteHoliday(tx, own.id);
      await repo.markStale(tx, org, { from: d });
    },
    audit: {
      action: 'attendance.holiday.reset',
      entity: 'att_holiday',
      entityId: own.id,
      targetUserId: caller.id,
    },
  });
  return holidays(ctx, caller, Number(d.slice(0, 4)));
}

// ---- records

type Raw = Awaited<ReturnType<typeof repo.listRecords>>['list'][number];

const shown = (r: Raw): DayRecordRow => ({
  ...r,
  decided: r.decided.map((d) => ({ ...d, at: d.at === null ? null : formatDateTime(d.at) })),
});

export async function listRecords(ctx: AppContext, caller: Caller, f: RecordListQuery, exact = false) {
  const org = await attendanceOrg(ctx, caller);
  if (f.department_id && !(await repo.departmentInOrg(ctx.db, org, f.department_id)))
    throw notFound('部门不存在');
  if (f.employee_id && !(await repo.employeeInOrg(ctx.db, org, f.employee_id))) throw notFound('员工不存在');
  await ensureResults(ctx.db, org, f.start, f.end);
  const r = await repo.listRecords(ctx.db, {
    ...f,
    org,
    keywords: f.keywords || undefined,
    ...pageWindow(f),
    exact,
  });
  return { ...r, list: r.list.map(shown), page: f.page, page_size: f.page_size };
}

async function recordOf(ctx: AppContext, org: number, employee: number, d: string) {
  const e = await repo.employeeInOrg(ctx.db, org, employee);
  if (!e) throw notFound('员工不存在');
  if (d > dayOf(Date.now())) throw badRequest('不能查看或更正未来日期的考勤');
  await ensureResults(ctx.db, org, d, d, { employees: [employee] });
  const r = await repo.findRecord(ctx.db, org, employee, d);
  if (!r) throw notFound('该员工当天没有考勤记录');
  return r;
}

export async function record(ctx: AppContext, caller: Caller, employee: number, d: string) {
  const org = await attendanceOrg(ctx, caller);
  const r = await recordOf(ctx, org, employee, d);
  const t0 = dayStart(d);
  const punches = await repo.employeePunches(ctx.db, employee, t0, t0 + 2 * DAY_MS);
  return { record: shown(r), punches };
}

export async function correctRecord(ctx: AppContext, caller: Caller, b: CorrectRecordBody, ip: string) {
  const org = await attendanceOrg(ctx, caller);
  const r = await recordOf(ctx, org, b.employee_id, b.day);
  const patch = b.revert
    ? { ...r.computed, ...flags(r.computed.status), corrected: false, note: '' }
    : {
        status: b.status!,
        late_minutes: b.status === 'late' || b.status === 'missing' ? b.late_minutes : 0,
        early_minutes:
          b.status === 'late' || b.status === 'early' || b.status === 'missing' ? b.early_minutes : 0,
        missing: b.status === 'missing' ? Math.max(1, b.missing) : 0,
        ...flags(b.status!),
        corrected: true,
        note: b.note,
      };
  if (b.revert && !r.corrected) throw badRequest('该记录没有更正');
  const { decided: _d, computed: _c, ...row } = r;
  await mutate(ctx, caller, ip, {
    row,
    patch,
    table: repo.RESULTS,
    audit: {
      action: b.revert ? 'attendance.record.revert' : 'attendance.record.correct',
      entity: 'att_day_result',
      entityId: r.id,
      targetUserId: caller.id,
    },
  });
  return shown((await repo.findRecord(ctx.db, org, b.employee_id, b.day))!);
}

const flags = (status: string) => ({
  due: status !== 'rest' && status !== 'unscheduled',
  present: !['rest', 'unscheduled', 'absent'].includes(status),
});

// ---- summaries

function clip(month: string) {
  const { start, end } = monthRange(month);
  return { start, end };
}

export async function summaryEmployees(
  ctx: AppContext,
  caller: Caller,
  f: Omit<SummaryQuery, 'page_size'> & { page_size: number },
  exact = false,
) {
  const org = await attendanceOrg(ctx, caller);
  if (f.department_id && !(await repo.departmentInOrg(ctx.db, org, f.department_id)))
    throw notFound('部门不存在');
  const { start, end } = clip(f.month);
  await ensureResults(ctx.db, org, start, end);
  const r = await repo.summaryByEmployee(ctx.db, {
    org,
    month: start,
    department_id: f.department_id,
    keywords: f.keywords || undefined,
    ...pageWindow(f),
    exact,
  });
  return { ...r, page: f.page, page_size: f.page_size };
}

export async function summaryDepartments(
  ctx: AppContext,
  caller: Caller,
  f: { month: string; department_id?: number },
): Promise<SummaryDepartments> {
  const org = await attendanceOrg(ctx, caller);
  if (f.department_id && !(await repo.departmentInOrg(ctx.db, org, f.department_id)))
    throw notFound('部门不存在');
  const { start, end } = clip(f.month);
  await ensureResults(ctx.db, org, start, end);
  const filter = { org, month: start, department_id: f.department_id };
  const [own, days, tree] = await Promise.all([
    repo.summaryByDepartment(ctx.db, filter),
    repo.summaryByDay(ctx.db, filter),
    repo.orgDepartmentTree(ctx.db, org),
  ]);
  const KEYS = ['employees', ...repo.FIGURES] as const;
  const figures = new Map(own.map((o) => [o.department_id, o]));
  const top = f.department_id ? tree.find((d) => d.id === f.department_id) : undefined;
  const list = tree
    .filter((d) => !top || d.path.startsWith(top.path))
    .map((d) => {
      const sum = Object.fromEntries(KEYS.map((k) => [k, 0])) as Record<(typeof KEYS)[number], number>;
      for (const x of tree) {
        if (!x.path.startsWith(d.path)) continue;
        const o = figures.get(x.id);
        if (o) for (const k of KEYS) sum[k] += Number(o[k] ?? 0);
      }
      return { department_id: d.id, name: d.name, parent_id: d.parent_id, ...sum };
    });
  return { list, days };
}
