import {
  ATTENDANCE_API,
  type AttendanceOrg,
  type DepartmentRow,
  type EmployeeRow,
  type Page,
  type PageQuery,
  type PatrolInfo,
  type PunchRow,
  type addDepartmentBody,
  type addEmployeeBody,
  type employeeListQuery,
  type punchListQuery,
  type setPatrolBody,
  type updateDepartmentBody,
  type updateEmployeeBody,
} from '@se/core';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// Attendance (/ci-organization, /ci-employee, /ci-device): the caller's organisation.

export const getAttendanceOrg = () => get<AttendanceOrg>(ATTENDANCE_API.org);

export const listDepartments = () => get<DepartmentRow[]>(ATTENDANCE_API.departments);
export const addDepartment = (b: RequestOf<typeof addDepartmentBody>) =>
  post<DepartmentRow>(ATTENDANCE_API.addDepartment, b);
export const updateDepartment = (b: RequestOf<typeof updateDepartmentBody>) =>
  post<DepartmentRow>(ATTENDANCE_API.updateDepartment, b);
export const deleteDepartment = (id: number) => post<{ id: number }>(ATTENDANCE_API.deleteDepartment, { id });

export type EmployeeQuery = Omit<RequestOf<typeof employeeListQuery>, keyof PageQuery>;
export const listEmployees = (q: EmployeeQuery & Partial<PageQuery>) =>
  get<Page<EmployeeRow>>(ATTENDANCE_API.employees, q);
export const addEmployee = (b: RequestOf<typeof addEmployeeBody>) =>
  post<EmployeeRow>(ATTENDANCE_API.addEmployee, b);
export const updateEmployee = (b: RequestOf<typeof updateEmployeeBody>) =>
  post<EmployeeRow>(ATTENDANCE_API.updateEmployee, b);
export const deleteEmployee = (id: number) => post<{ id: number }>(ATTENDANCE_API.deleteEmployee, { id });

export type PunchQuery = Omit<RequestOf<typeof punchListQuery>, keyof PageQuery>;
export const listPunches = (q: PunchQuery & Partial<PageQuery>) =>
  get<Page<PunchRow>>(ATTENDANCE_API.punches, q);
export const resolvePunch = (id: number, employee_id: number) =>
  post<PunchRow>(ATTENDANCE_API.resolvePunch, { id, employee_id });

export const syncTerminal = (id: number) =>
  post<{ command_id: number; employees: number }>(ATTENDANCE_API.syncTerminal, { id });

export const getPatrols = (toilet_id: number) => get<PatrolInfo>(ATTENDANCE_API.patrols, { toilet_id });
export const setPatrol = (b: RequestOf<typeof setPatrolBody>) =>
  post<PatrolInfo>(ATTENDANCE_API.setPatrol, b);
