import { z } from 'zod';
import { idField, intField, keywordsField, pageOf, pageQuery } from './envelope.ts';

/**
 * Attendance rules (issue 16, part B): shift schemes, the holiday calendar, daily results
 * ("records") and monthly summaries. Times are UTC+8 wall-clock (SPEC §5).
 */
export const ATTENDANCE_RULES_API = {
  schemes: '/api/v1/attendance/schemes',
  addScheme: '/api/v1/attendance/schemes/add',
  /** Edit or soft-delete (is_delete) a scheme. */
  updateScheme: '/api/v1/attendance/schemes/update',
  /** Give departments or employees a scheme (null takes it away). */
  assignScheme: '/api/v1/attendance/schemes/assign',
  holidays: '/api/v1/attendance/holidays',
  setHoliday: '/api/v1/attendance/holidays/set',
  /** Drop the organisation's own entry for a day: the national arrangement applies again. */
  resetHoliday: '/api/v1/attendance/holidays/reset',
  records: '/api/v1/attendance/records',
  record: '/api/v1/attendance/records/detail',
  correctRecord: '/api/v1/attendance/records/correct',
  summaryEmployees: '/api/v1/attendance/summary/employees',
  summaryDepartments: '/api/v1/attendance/summary/departments',
} as const;

/** A daily result's status. */
export const ATT_DAY_STATUS = {
  normal: '正常',
  late: '迟到',
  early: '早退',
  missing: '缺卡',
  absent: '旷工',
  rest: '休息',
  unscheduled: '未排班',
  /** Provisional: the shift's punch windows are still open (no punch yet: 未到). */
  pending: '进行中',
} as const;
export type AttDayStatus = keyof typeof ATT_DAY_STATUS;
export const ATT_DAY_STATUS_KEYS = Object.keys(ATT_DAY_STATUS) as AttDayStatus[];
/** How a provisional day reads while nobody has punched yet. */
export const ATT_NOT_YET = '未到';
/** The statuses an admin may set in a correction (a provisional day is the rules' alone). */
export const ATT_CORRECTABLE = ATT_DAY_STATUS_KEYS.filter((k) => k !== 'pending');

/** A calendar day's kind: 节假日, 调休上班, or 正常 (cancels the national entry). */
export const HOLIDAY_KINDS = { holiday: '节假日', workday: '调休上班', normal: '按排班' } as const;
export type HolidayKind = keyof typeof HOLIDAY_KINDS;

export const ISO_WEEKDAY_LABELS = {
  1: '周一',
  2: '周二',
  3: '周三',
  4: '周四',
  5: '周五',
  6: '周六',
  7: '周日',
} as const;

export const SCHEME_LIMITS = {
  nameMax: 50,
  graceMax: 240,
  windowMax: 720,
  noteMax: 200,
  minutesMax: 1440,
} as const;

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes past 00:00 of 'HH:mm'. */
export const minutesOfDay = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The segments as minute offsets from the start day's 00:00, each time after the one before
 * (a time not after its predecessor is on the next day: 22:00–06:00 ends at 30:00).
 */
export function shiftTimeline(segments: readonly { start: string; end: string }[]) {
  const out: { start: number; end: number }[] = [];
  let prev = -1;
  for (const s of segments) {
    let start = minutesOfDay(s.start);
    while (start <= prev) start += 1440;
    let end = minutesOfDay(s.end);
    while (end <= start) end += 1440;
    out.push({ start, end });
    prev = end;
  }
  return out;
}

const timeField = (label: string) =>
  z
    .string({ error: `请输入${label}` })
    .trim()
    .regex(HHMM, `${label}格式应为 HH:mm`);

export const shiftSegment = z.object({ start: timeField('上班时间'), end: timeField('下班时间') });

const minutes = (label: string, max: number) =>
  intField(label).pipe(z.number().int().min(0, `${label}不能小于0`).max(max, `${label}不能超过${max}分钟`));

const schemeFields = {
  name: z
    .string({ error: '请输入班次名称' })
    .trim()
    .min(1, '请输入班次名称')
    .max(SCHEME_LIMITS.nameMax, `班次名称不能超过${SCHEME_LIMITS.nameMax}个字符`),
  segments: z
    .array(shiftSegment, { error: '请设置上下班时间' })
    .min(1, '请设置上下班时间')
    .max(2, '最多两段（分段班）'),
  late_grace: minutes('迟到宽限', SCHEME_LIMITS.graceMax),
  early_grace: minutes('早退宽限', SCHEME_LIMITS.graceMax),
  earliest_in: minutes('最早打卡', SCHEME_LIMITS.windowMax),
  latest_out: minutes('最晚打卡', SCHEME_LIMITS.windowMax),
  workdays: z
    .array(intField('工作日').pipe(z.number().int().min(1, '工作日取值无效').max(7, '工作日取值无效')), {
      error: '请选择工作日',
    })
    .max(7, '工作日取值无效')
    .transform((d) => [...new Set(d)].sort()),
  follow_holidays: z.boolean(),
};

type SchemeShape = {
  segments?: { start: string; end: string }[];
  earliest_in?: number;
  latest_out?: number;
};

/** Two days' windows may not overlap: from the earliest in punch to the latest out at most 24 h. */
function checkSpan(v: SchemeShape, ctx: z.RefinementCtx) {
  if (!v.segments?.length) return;
  const t = shiftTimeline(v.segments);
  const first = t[0]!.start - (v.earliest_in ?? 0);
  const last = t[t.length - 1]!.end + (v.latest_out ?? 0);
  if (t[t.length - 1]!.end - t[0]!.start > 1440) {
    ctx.addIssue({ code: 'custom', path: ['segments'], message: '班次总长不能超过24小时' });
  } else if (last - first > 1440) {
    ctx.addIssue({ code: 'custom', path: ['latest_out'], message: '最早与最晚打卡之间不能超过24小时' });
  }
}

export const addSchemeBody = z
  .object({
    ...schemeFields,
    late_grace: schemeFields.late_grace.default(0),
    early_grace: schemeFields.early_grace.default(0),
    earliest_in: schemeFields.earliest_in.default(120),
    latest_out: schemeFields.latest_out.default(240),
    workdays: schemeFields.workdays.default([1, 2, 3, 4, 5]),
    follow_holidays: schemeFields.follow_holidays.default(true),
  })
  .superRefine(checkSpan);
export type AddSchemeBody = z.infer<typeof addSchemeBody>;

export const updateSchemeBody = z
  .object({
    id: idField(),
    name: schemeFields.name.optional(),
    segments: schemeFields.segments.optional(),
    late_grace: schemeFields.late_grace.optional(),
    early_grace: schemeFields.early_grace.optional(),
    earliest_in: schemeFields.earliest_in.optional(),
    latest_out: schemeFields.latest_out.optional(),
    workdays: schemeFields.workdays.optional(),
    follow_holidays: schemeFields.follow_holidays.optional(),
    is_delete: z.boolean().optional(),
  })
  .superRefine(checkSpan);
export type UpdateSchemeBody = z.infer<typeof updateSchemeBody>;

export const schemeRow = z.object({
  id: z.number(),
  name: z.string(),
  segments: z.array(z.object({ start: z.string(), end: z.string() })),
  late_grace: z.number(),
  early_grace: z.number(),
  earliest_in: z.number(),
  latest_out: z.number(),
  workdays: z.array(z.number()),
  follow_holidays: z.boolean(),
  /** Departments given this scheme (their sub-departments inherit it). */
  departments: z.array(z.object({ id: z.number(), name: z.string() })),
  /** Employees given this scheme directly. */
  employee_count: z.number(),
  created_at: z.string(),
});
export type SchemeRow = z.infer<typeof schemeRow>;

export const schemeListQuery = pageQuery.extend({ keywords: keywordsField() });
export const schemePage = pageOf(schemeRow);

const idList = (label: string) =>
  z.array(idField(), { error: `${label}格式不正确` }).max(1000, `一次最多1000个${label}`);

export const assignSchemeBody = z
  .object({
    /** null takes the scheme away (departments: inherit from above; employees: follow the department). */
    scheme_id: idField().nullable(),
    department_ids: idList('部门').default([]),
    employee_ids: idList('员工').default([]),
  })
  .refine((v) => v.department_ids.length + v.employee_ids.length > 0, {
    message: '请选择部门或员工',
    path: ['department_ids'],
  });
export type AssignSchemeBody = z.infer<typeof assignSchemeBody>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** 'YYYY-MM-DD', a real date. */
export const dayField = (label = '日期') =>
  z
    .string({ error: `请输入${label}` })
    .trim()
    .refine(
      (s) =>
        DAY.test(s) &&
        !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
        new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      {
        message: `${label}格式应为 YYYY-MM-DD`,
      },
    );

export const holidayQuery = z.object({
  year: intField('年份').pipe(z.number().int().min(2000, '年份无效').max(2100, '年份无效')),
});
export const holidayRow = z.object({
  day: z.string(),
  kind: z.enum(['holiday', 'workday', 'normal']),
  name: z.string(),
  /** 'national' = the seeded arrangement, 'org' = the organisation's own entry. */
  source: z.enum(['national', 'org']),
});
export type HolidayRow = z.infer<typeof holidayRow>;
export const holidayList = z.object({ list: z.array(holidayRow) });

export const setHolidayBody = z.object({
  day: dayField(),
  kind: z.enum(['holiday', 'workday', 'normal'], { error: '类型取值无效' }),
  name: z.string().trim().max(50, '名称不能超过50个字符').default(''),
});
export type SetHolidayBody = z.infer<typeof setHolidayBody>;
export const resetHolidayBody = z.object({ day: dayField() });

const statusField = z.enum(ATT_DAY_STATUS_KEYS as [AttDayStatus, ...AttDayStatus[]], {
  error: '状态取值无效',
});

export const recordListQuery = pageQuery
  .extend({
    start: dayField('开始日期'),
    end: dayField('结束日期'),
    /** This department and every department below it. */
    department_id: idField().optional(),
    employee_id: idField().optional(),
    keywords: keywordsField(),
    status: statusField.optional(),
  })
  .refine((v) => v.start <= v.end, { message: '开始日期不能晚于结束日期', path: ['start'] })
  .refine((v) => Date.parse(v.end) - Date.parse(v.start) <= 92 * 86_400_000, {
    message: '查询范围不能超过92天',
    path: ['end'],
  });
export type RecordListQuery = z.infer<typeof recordListQuery>;

export const decidingPunch = z.object({
  segment: z.number(),
  kind: z.enum(['in', 'out']),
  punch_id: z.number().nullable(),
  /** 'YYYY-MM-DD HH:mm:ss' UTC+8, or null when the punch is missing. */
  at: z.string().nullable(),
});

const resultFields = {
  status: statusField,
  late_minutes: z.number(),
  early_minutes: z.number(),
  missing: z.number(),
};

export const dayRecordRow = z.object({
  id: z.number(),
  employee_id: z.number(),
  employee_name: z.string(),
  employee_number: z.string(),
  department_id: z.number().nullable(),
  department_name: z.string(),
  day: z.string(),
  scheme_id: z.number().nullable(),
  scheme_name: z.string(),
  ...resultFields,
  due: z.boolean(),
  present: z.boolean(),
  decided: z.array(decidingPunch),
  corrected: z.boolean(),
  note: z.string(),
  /** What the rules computed (the original of a corrected record). */
  computed: z.object(resultFields),
});
export type DayRecordRow = z.infer<typeof dayRecordRow>;
export const dayRecordPage = pageOf(dayRecordRow);

export const dayRecordQuery = z.object({ employee_id: idField(), day: dayField() });
export const dayRecordDetail = z.object({
  record: dayRecordRow,
  /** Every punch of the employee around the day (the shift's windows and a margin). */
  punches: z.array(
    z.object({ id: z.number(), punched_at: z.string(), method: z.string(), device_ser_num: z.string() }),
  ),
});

export const correctRecordBody = z
  .object({
    employee_id: idField(),
    day: dayField(),
    /** true: drop the correction, the computed result counts again. */
    revert: z.boolean().default(false),
    status: z
      .enum(ATT_CORRECTABLE as [AttDayStatus, ...AttDayStatus[]], { error: '状态取值无效' })
      .optional(),
    late_minutes: minutes('迟到分钟', SCHEME_LIMITS.minutesMax).default(0),
    early_minutes: minutes('早退分钟', SCHEME_LIMITS.minutesMax).default(0),
    missing: intField('缺卡次数')
      .pipe(z.number().int().min(0, '缺卡次数无效').max(4, '缺卡次数无效'))
      .default(0),
    note: z
      .string()
      .trim()
      .max(SCHEME_LIMITS.noteMax, `说明不能超过${SCHEME_LIMITS.noteMax}个字符`)
      .default(''),
  })
  .refine((v) => v.revert || v.status !== undefined, { message: '请选择状态', path: ['status'] })
  .refine((v) => v.revert || v.note.length > 0, { message: '请填写更正说明', path: ['note'] });
export type CorrectRecordBody = z.infer<typeof correctRecordBody>;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const monthField = () => z.string({ error: '请选择月份' }).trim().regex(MONTH, '月份格式应为 YYYY-MM');

export const summaryQuery = pageQuery.extend({
  month: monthField(),
  department_id: idField().optional(),
  keywords: keywordsField(),
});
export type SummaryQuery = z.infer<typeof summaryQuery>;

const counts = {
  days_due: z.number(),
  days_present: z.number(),
  late_count: z.number(),
  late_minutes: z.number(),
  early_count: z.number(),
  early_minutes: z.number(),
  missing_count: z.number(),
  absent_count: z.number(),
};
export const summaryEmployeeRow = z.object({
  employee_id: z.number(),
  employee_name: z.string(),
  employee_number: z.string(),
  department_name: z.string(),
  ...counts,
  rest_days: z.number(),
  unscheduled_days: z.number(),
});
export type SummaryEmployeeRow = z.infer<typeof summaryEmployeeRow>;
export const summaryEmployeePage = pageOf(summaryEmployeeRow);

export const summaryDepartmentRow = z.object({
  department_id: z.number(),
  name: z.string(),
  parent_id: z.number().nullable(),
  /** Employees with results this month, sub-departments included. */
  employees: z.number(),
  ...counts,
});
export type SummaryDepartmentRow = z.infer<typeof summaryDepartmentRow>;

export const summaryDepartments = z.object({
  /** Each department with its sub-departments' figures added in. */
  list: z.array(summaryDepartmentRow),
  /** The organisation (or the chosen department's subtree) day by day, for the chart. */
  days: z.array(
    z.object({
      day: z.string(),
      due: z.number(),
      present: z.number(),
      late: z.number(),
      early: z.number(),
      missing: z.number(),
      absent: z.number(),
    }),
  ),
});
export type SummaryDepartments = z.infer<typeof summaryDepartments>;
export const summaryDepartmentQuery = z.object({ month: monthField(), department_id: idField().optional() });
