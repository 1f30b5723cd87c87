import { AREAS, EMPLOYEE_STATUS, employeeListQuery, formatDateTime } from '@se/core';
import type { z } from 'zod';
import { defineExport } from '../downloads/types.ts';
import { listEmployees } from './service.ts';
import { EXPORT_COLUMNS, exportRows } from './transfer.ts';

/** The employee list's filter without paging. */
export const employeeExportQuery = employeeListQuery.omit({ page: true, page_size: true });
type EmployeeExportQuery = z.output<typeof employeeExportQuery>;

/** 员工列表: the employees /ci-employee lists for the same filter. */
export const employeesExport = defineExport<EmployeeExportQuery>({
  name: 'attendance-employees',
  label: '员工列表',
  access: AREAS.attendance.permission,
  query: employeeExportQuery,
  columns: () => EXPORT_COLUMNS,
  async prepare(ctx, caller, q) {
    // Refuses a caller without an organisation, or a department of another one.
    await listEmployees(ctx, caller, { ...q, page: 1, page_size: 10 });
  },
  async count(ctx, caller, q) {
    return (await listEmployees(ctx, caller, { ...q, page: 1, page_size: 10 }, { exact: true })).total;
  },
  rows: (ctx, caller, q) => exportRows(ctx, caller, q),
  summary(q) {
    const parts: string[] = [];
    if (q.department_id) parts.push(`部门ID：${q.department_id}（含下级）`);
    if (q.status) parts.push(`状态：${EMPLOYEE_STATUS[q.status as 1 | 2]}`);
    if (q.keywords) parts.push(`关键字：${q.keywords}`);
    return parts.join('；') || '全部';
  },
  fileName: () => `员工列表-${formatDateTime(Date.now()).slice(0, 10).replace(/-/g, '')}`,
});
