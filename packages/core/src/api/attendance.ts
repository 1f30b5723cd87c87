import { z } from 'zod';
import { idField, intField, keywordsField, pageQuery } from './envelope.ts';

/**
 * Attendance (issue 16): an organisation's department tree, its employees, clock-in
 * terminals and the punches they report. Every row belongs to one organisation; an
 * attendance account (permission 32) works inside its own (users.org_id).
 */
export const ATTENDANCE_API = {
  /** The organisation the caller works in, with its root department (created on first use). */
  org: '/api/v1/attendance/org',
  /** The whole department tree in one answer (flat rows with parent_id, path, counts). */
  departments: '/api/v1/attendance/departments',
  addDepartment: '/api/v1/attendance/add-department',
  /** Rename, change head, or move (parent_id) one department. */
  updateDepartment: '/api/v1/attendance/update-department',
  deleteDepartment: '/api/v1/attendance/delete-department',
  employees: '/api/v1/attendance/employees',
  employee: '/api/v1/attendance/employee',
  addEmployee: '/api/v1/attendance/add-employee',
  updateEmployee: '/api/v1/attendance/update-employee',
  deleteEmployee: '/api/v1/attendance/delete-employee',
  importEmployees: '/api/v1/attendance/import-employees',
  importTemplate: '/api/v1/attendance/import-template',
  exportEmployees: '/api/v1/attendance/export-employees',
  // Terminal list/get/add/update/import/export/bind are the device registry's calls at
  // DEVICE_KINDS.attendance (/api/v1/attendance/terminals, get-terminal, add-terminal, …).
  /** Send the employee list down to a terminal (a device command, tracked to its reply). */
  syncTerminal: '/api/v1/attendance/sync-terminal',
  punches: '/api/v1/attendance/punches',
  /** Attach an unmatched punch to an employee. */
  resolvePunch: '/api/v1/attendance/resolve-punch',
  /** A toilet's patrol requirement and its last patrols. */
  patrols: '/api/v1/attendance/patrols',
  setPatrol: '/api/v1/attendance/set-patrol',
  /**
   * The mini-program's patrol check-in: a cleaner scans the QR code in a toilet (its public
   * id) and the signed-in account checks in as its own employee (a manager may name another's number).
   */
  patrolScan: '/api/v1/attendance/patrol-scan',
} as const;

/** Employee status (att_employees.status). */
export const EMPLOYEE_STATUS = { 1: '在职', 2: '离职' } as const;
export type EmployeeStatus = 1 | 2;

/** How a terminal recognised the person. */
export const PUNCH_METHODS = { face: '人脸', card: '刷卡', fingerprint: '指纹', qr: '扫码' } as const;
export type PunchMethod = keyof typeof PUNCH_METHODS;
export const PUNCH_METHOD_KEYS = Object.keys(PUNCH_METHODS) as PunchMethod[];

/** Tree limits: deeper or larger trees are refused with a reason. */
export const DEPARTMENT_LIMITS = { maxDepth: 10, maxPerOrg: 5_000, nameMax: 50 } as const;

/** One department row of the tree (flat; the client nests by parent_id). */
export const departmentRow = z.object({
  id: z.number(),
  parent_id: z.number().nullable(),
  name: z.string(),
  head_employee_id: z.number().nullable(),
  head_name: z.string(),
  /** Materialised ancestor path including the row, '/1/5/'. */
  path: z.string(),
  sort: z.number(),
  /** Employees (在职) directly in this department. */
  employee_count: z.number(),
  /** Employees (在职) in this department and every department below it. */
  total_count: z.number(),
});
export type DepartmentRow = z.infer<typeof departmentRow>;

export const employeeRow = z.object({
  id: z.number(),
  org_id: z.number(),
  department_id: z.number(),
  department_name: z.string(),
  number: z.string(),
  name: z.string(),
  position: z.string(),
  phone: z.string(),
  id_card: z.string(),
  badge_no: z.string(),
  face_id: z.string(),
  /** 'YYYY-MM-DD' or null. */
  hire_date: z.string().nullable(),
  status: z.number(),
  scheme_id: z.number().nullable(),
  /** The console account the person signs in with (patrol check-ins record it), or null. */
  user_id: z.number().nullable(),
  user_name: z.string(),
  created_at: z.string(),
});
export type EmployeeRow = z.infer<typeof employeeRow>;

export const punchRow = z.object({
  id: z.number(),
  org_id: z.number(),
  employee_id: z.number().nullable(),
  employee_name: z.string(),
  employee_number: z.string(),
  device_id: z.number().nullable(),
  device_ser_num: z.string(),
  badge: z.string(),
  method: z.string(),
  punched_at: z.string(),
  photo: z.string().nullable(),
  toilet_id: z.number().nullable(),
  toilet_name: z.string(),
  created_at: z.string(),
});
export type PunchRow = z.infer<typeof punchRow>;

export const departmentIdBody = z.object({ id: idField() });

export const employeeListQuery = pageQuery.extend({
  keywords: keywordsField(),
  /** This department and every department below it. */
  department_id: idField().optional(),
  status: intField('状态').pipe(z.number().int().min(1, '状态取值无效').max(2, '状态取值无效')).optional(),
});

const deptName = z
  .string({ error: '请输入部门名称' })
  .trim()
  .min(1, '请输入部门名称')
  .max(DEPARTMENT_LIMITS.nameMax, `部门名称不能超过${DEPARTMENT_LIMITS.nameMax}个字符`);
const sortField = intField('排序').pipe(z.number().int().min(0, '排序不能小于0').max(1_000_000, '排序过大'));

export const addDepartmentBody = z.object({
  parent_id: idField(),
  name: deptName,
  sort: sortField.default(0),
});
export type AddDepartmentBody = z.input<typeof addDepartmentBody>;

/** Rename, move (parent_id), set the head (0 clears it) or the sort order. */
export const updateDepartmentBody = z.object({
  id: idField(),
  name: deptName.optional(),
  parent_id: idField().optional(),
  head_employee_id: intField('负责人').pipe(z.number().int().min(0).max(2_147_483_647)).optional(),
  sort: sortField.optional(),
});
export type UpdateDepartmentBody = z.input<typeof updateDepartmentBody>;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label}格式不正确` })
    .trim()
    .max(max, `${label}不能超过${max}个字符`);

/** 'YYYY-MM-DD'; '' clears it. */
export const dateOnlyField = (label: string) =>
  z
    .string({ error: `${label}格式不正确` })
    .trim()
    .refine(
      (s) => s === '' || (/^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`))),
      {
        message: `${label}格式应为 YYYY-MM-DD`,
      },
    )
    .transform((s) => (s === '' ? null : s));

/** An account id; 0, an empty box or null names none (the dialog's cleared number box sends ''). */
const accountField = z.preprocess(
  (v) => (v === '' || v === null ? 0 : v),
  intField('关联账号').pipe(
    z.number().int().min(0, '关联账号取值无效').max(2_147_483_647, '关联账号取值无效'),
  ),
);

export const EMPLOYEE_NUMBER = /^[A-Za-z0-9_-]{1,32}$/;
export const PHONE = /^[0-9+\- ]{0,20}$/;

export const employeeFields = {
  department_id: idField(),
  number: z
    .string({ error: '请输入工号' })
    .trim()
    .min(1, '请输入工号')
    .regex(EMPLOYEE_NUMBER, '工号只能包含字母、数字、下划线和短横线，最多32位'),
  name: z.string({ error: '请输入姓名' }).trim().min(1, '请输入姓名').max(50, '姓名不能超过50个字符'),
  position: text('职位', 50).default(''),
  phone: text('手机号', 20).regex(PHONE, '手机号格式不正确').default(''),
  id_card: text('身份证号', 18)
    .regex(/^(|[0-9]{17}[0-9Xx])$/, '身份证号格式不正确')
    .transform((s) => s.toUpperCase())
    .default(''),
  badge_no: text('卡号', 32).default(''),
  face_id: text('人脸ID', 64).default(''),
  hire_date: dateOnlyField('入职日期').prefault(''),
  status: intField('状态').pipe(z.number().int().min(1, '状态取值无效').max(2, '状态取值无效')).default(1),
  /** 关联账号: an account of the organisation (0 or left out: none). */
  user_id: accountField.default(0),
};

export const addEmployeeBody = z.object(employeeFields);
export type AddEmployeeBody = z.input<typeof addEmployeeBody>;

export const updateEmployeeBody = z.object({
  id: idField(),
  department_id: employeeFields.department_id.optional(),
  number: employeeFields.number.optional(),
  name: employeeFields.name.optional(),
  position: text('职位', 50).optional(),
  phone: text('手机号', 20).regex(PHONE, '手机号格式不正确').optional(),
  id_card: text('身份证号', 18)
    .regex(/^(|[0-9]{17}[0-9Xx])$/, '身份证号格式不正确')
    .transform((s) => s.toUpperCase())
    .optional(),
  badge_no: text('卡号', 32).optional(),
  face_id: text('人脸ID', 64).optional(),
  hire_date: dateOnlyField('入职日期').optional(),
  status: intField('状态').pipe(z.number().int().min(1, '状态取值无效').max(2, '状态取值无效')).optional(),
  /** 0 unlinks the account. */
  user_id: accountField.optional(),
});
export type UpdateEmployeeBody = z.input<typeof updateEmployeeBody>;

export const attendanceIdQuery = z.object({ id: idField() });

export const punchListQuery = pageQuery.extend({
  keywords: keywordsField(),
  device_id: idField().optional(),
  employee_id: idField().optional(),
  /** Only punches no employee matched. */
  unmatched: z
    .preprocess(
      (v) =>
        v === 'true' || v === '1' || v === true
          ? true
          : v === undefined || v === '' || v === 'false' || v === '0' || v === false
            ? false
            : v,
      z.boolean(),
    )
    .default(false),
  start: z.string().trim().max(19).optional(),
  end: z.string().trim().max(19).optional(),
});
export type PunchListQuery = z.input<typeof punchListQuery>;

export const resolvePunchBody = z.object({ id: idField(), employee_id: idField() });

export const attendanceOrg = z.object({
  org_id: z.number(),
  name: z.string(),
  root_dep_id: z.number(),
});
export type AttendanceOrg = z.infer<typeof attendanceOrg>;

/** What a terminal is sent by 同步员工 (command type 'employees'). */
export const SYNC_COMMAND = 'employees';

/** A toilet's patrol requirement: every N minutes in its opening hours (document); 0 = none. */
export const PATROL_LIMITS = { minMinutes: 10, maxMinutes: 24 * 60 } as const;

export const setPatrolBody = z.object({
  toilet_id: idField(),
  every_min: intField('巡检间隔').pipe(
    z
      .number()
      .int()
      .refine((n) => n === 0 || (n >= PATROL_LIMITS.minMinutes && n <= PATROL_LIMITS.maxMinutes), {
        message: `巡检间隔应为 0（不要求）或 ${PATROL_LIMITS.minMinutes}–${PATROL_LIMITS.maxMinutes} 分钟`,
      }),
  ),
});

export const patrolScanBody = z.object({
  /** The toilet's public id, as read from its QR code. */
  toilet_id: z
    .string({ error: '缺少厕所编号，请扫描厕所内的二维码' })
    .trim()
    .min(1, '缺少厕所编号，请扫描厕所内的二维码')
    .max(200, '厕所不存在或未要求巡检，请扫描厕所内的二维码'),
  /**
   * The cleaner's number: only a manager of the organisation records for others; anyone
   * else checks in as the employee linked to its own account (left out: the caller's own).
   */
  employee_no: z.string({ error: '工号格式不正确' }).trim().max(64, '工号不能超过64个字符').optional(),
});

export const patrolCheckIn = z.object({
  /** The punch stored for the check-in. */
  id: z.number(),
  toilet_name: z.string(),
  employee_name: z.string(),
  /** 'YYYY-MM-DD HH:mm:ss' UTC+8. */
  punched_at: z.string(),
  /** true when the same cleaner had already checked in at this toilet within the minute. */
  duplicate: z.boolean(),
});
export type PatrolCheckIn = z.infer<typeof patrolCheckIn>;

export const patrolInfo = z.object({
  toilet_id: z.number(),
  every_min: z.number(),
  /** The toilet's opening hours (its document), during which patrols are due. */
  open_time: z.string(),
  close_time: z.string(),
  /** The last patrol's time, null when never patrolled. */
  last_at: z.string().nullable(),
  overdue: z.boolean(),
  recent: z.array(
    z.object({
      id: z.number(),
      employee_name: z.string(),
      device_ser_num: z.string(),
      punched_at: z.string(),
    }),
  ),
});
export type PatrolInfo = z.infer<typeof patrolInfo>;
