import { AREAS, formatDateTime, summaryDepartmentQuery, summaryQuery, type SummaryQuery } from '@se/core';
import type { z } from 'zod';
import { defineExport, type ExportColumn } from '../downloads/types.ts';
import * as svc from './service.ts';

const PAGE = 100;

const COUNT_COLUMNS: ExportColumn[] = [
  { header: '应出勤天数', key: 'days_due', width: 10 },
  { header: '出勤天数', key: 'days_present', width: 10 },
  { header: '迟到次数', key: 'late_count', width: 10 },
  { header: '迟到分钟', key: 'late_minutes', width: 10 },
  { header: '早退次数', key: 'early_count', width: 10 },
  { header: '早退分钟', key: 'early_minutes', width: 10 },
  { header: '缺卡天数', key: 'missing_count', width: 10 },
  { header: '旷工天数', key: 'absent_count', width: 10 },
];

const today = () => formatDateTime(Date.now()).slice(0, 10);

/** 考勤月报（员工）: the monthly summary per employee, as /ci-record's 月度汇总 shows it. */
export const attendanceEmployeesExport = defineExport<SummaryQuery>({
  name: 'attendance-summary-employees',
  label: '考勤月报（员工）',
  access: AREAS.attendance.permission,
  query: summaryQuery,
  columns: () => [
    { header: '工号', key: 'employee_number', width: 12 },
    { header: '姓名', key: 'employee_name', width: 12 },
    { header: '部门', key: 'department_name', width: 20 },
    ...COUNT_COLUMNS,
    { header: '休息天数', key: 'rest_days', width: 10 },
    { header: '未排班天数', key: 'unscheduled_days', width: 10 },
  ],
  async prepare(ctx, caller, q) {
    await svc.summaryEmployees(ctx, caller, { ...q, page: 1, page_size: 10 });
  },
  async count(ctx, caller, q) {
    return (await svc.summaryEmployees(ctx, caller, { ...q, page: 1, page_size: 10 }, true)).total;
  },
  async *rows(ctx, caller, q) {
    for (let page = 1; ; page++) {
      const r = await svc.summaryEmployees(ctx, caller, { ...q, page, page_size: PAGE });
      if (r.list.length === 0) return;
      yield r.list;
      if (r.list.length < PAGE) return;
    }
  },
  summary: (q) =>
    [
      `月份：${q.month}`,
      q.department_id ? `部门ID：${q.department_id}` : '',
      q.keywords ? `关键字：${q.keywords}` : '',
    ]
      .filter(Boolean)
      .join('；'),
  fileName: (q) => `考勤月报-员工-${q.month}-${today()}`,
});

type DepartmentQuery = z.infer<typeof summaryDepartmentQuery>;

/** 考勤月报（部门）: each department with its sub-departments' figures. */
export const attendanceDepartmentsExport = defineExport<DepartmentQuery>({
  name: 'attendance-summary-departments',
  label: '考勤月报（部门）',
  access: AREAS.attendance.permission,
  query: summaryDepartmentQuery,
  columns: () => [
    { header: '部门', key: 'name', width: 24 },
    { header: '人数', key: 'employees', width: 8 },
    ...COUNT_COLUMNS,
  ],
  async prepare(ctx, caller, q) {
    await svc.summaryDepartments(ctx, caller, q);
  },
  async *rows(ctx, caller, q) {
    yield (await svc.summaryDepartments(ctx, caller, q)).list;
  },
  summary: (q) =>
    [`月份：${q.month}`, q.department_id ? `部门ID：${q.department_id}` : ''].filter(Boolean).join('；'),
  fileName: (q) => `考勤月报-部门-${q.month}-${today()}`,
});
