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
