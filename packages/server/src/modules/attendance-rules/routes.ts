import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  ATTENDANCE_RULES_API as API,
  addSchemeBody,
  assignSchemeBody,
  correctRecordBody,
  holidayList,
  holidayQuery,
  dayRecordDetail,
  recordListQuery,
  dayRecordPage,
  dayRecordQuery,
  dayRecordRow,
  resetHolidayBody,
  schemeListQuery,
  schemePage,
  schemeRow,
  setHolidayBody,
  summaryDepartmentQuery,
  summaryDepartments,
  summaryEmployeePage,
  summaryQuery,
  updateSchemeBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import * as svc from './service.ts';

/** Schemes, holidays, daily results and summaries (issue 16 part B); docs/attendance.md. */
export function attendanceRuleRoutes(app: FastifyInstance, ctx: AppContext) {
  const access = AREAS.attendance.permission;
  const tag = 'attendance';
  route(app, ctx, {
    method: 'GET',
    url: API.schemes,
    summary: '考勤班次列表（本组织）',
    tag,
    access,
    query: schemeListQuery,
    response: schemePage,
    handler: ({ caller, query }) => svc.listSchemes(ctx, caller, query),
  });
  route(app, ctx, {
    method: 'POST',
    url: API.addScheme,
    summary: '新增考勤班次（一段或两段，可跨零点）',
    tag,
    access,
    body: addSchemeBody,
    response: schemeRow,
    handler: ({ req, caller, body }) => svc.addScheme(ctx, caller, body, req.ip),
  });
  route(app, ctx, {
    method: 'POST',
    url: API.updateScheme,
    summary: '修改或删除（is_delete）考勤班次；考勤结果随之重算',
    tag,
    access,
    body: updateSchemeBody,
    response: schemeRow,
    handler: ({ req, caller, body }) => svc.updateScheme(ctx, caller, body, req.ip),
  });
  route(app, ctx, {
    method: 'POST',
    url: API.assignScheme,
    summary: '为部门（含下级部门）或员工设置班次；scheme_id 为 null 时取消',
    tag,
    access,
    body: assignSchemeBody,
    response: z.object({
      scheme_id: z.number().nullable(),
      department_ids: z.array(z.number()),
      employee_ids: z.array(z.number()),
    }),
    handler: ({ req, caller, body }) => svc.assignScheme(ctx, caller, body, req.ip),
  });
  route(app, ctx, {
    method: 'GET',
    url: API.holidays,
    summary: '某年的节假日与调休上班日（法定安排与本组织设置）',
    tag,
    access,
    query: holidayQuery,
    response: holidayList,
    handler: ({ caller, query }) => svc.holidays(ctx, caller, query.year),
  });
  route(app, ctx, {
    method: 'POST',
    url: API.setHoliday,
    summary: '设置某天为节假日、调休上班日或按排班',
    tag,
    access,
    body: setHolidayBody,
    response: holidayList,
    handler: ({ req, caller, body }) => svc.setHoliday(ctx, caller, body, req.ip),
  });
  route(app, ctx, {
    method: 'POST',
    url: API.resetHoliday,
    summary: '取消本组织对某天的设置，恢复法定安排',
    tag,
    access,
    body: resetHolidayBody,
    response: holidayList,
    handler: ({ req, caller, body }) => svc.resetHoliday(ctx, caller, body.day, req.ip),
  });
  route(app, ctx, {
    method: 'GET',
    url: API.records,
    summary: '每日考勤结果（正常、迟到、早退、缺卡、旷工、休息、未排班）',
    tag,
    access,
    query: recordListQuery,
    response: dayRecordPage,
    handler: ({ caller, query }) => svc.listRecords(ctx, caller, query),
  });
  route(app, ctx, {
    method: 'GET',
    url: API.record,
    summary: '某员工某天的考勤结果与打卡记录',
    tag,
    access,
    query: dayRecordQuery,
    response: dayRecordDetail,
    handler: ({ caller, query }) => svc.record(ctx, caller, query.employee_id, query.day),
  });
  route(app, ctx, {
    method: 'POST',
    url: API.correctRecord,
    summary: '更正考勤结果（保留原计算结果，记入审计）或撤销更正（revert）',
    tag,
    access,
    body: correctRecordBody,
    response: dayRecordRow,
    handler: ({ req, caller, body }) => svc.correctRecord(ctx, caller, body, req.ip),
  });
  route(app, ctx, {
    method: 'GET',
    url: API.summaryEmployees,
    summary: '月度考勤汇总（按员工）',
    tag,
    access,
    query: summaryQuery,
    response: summaryEmployeePage,
    handler: ({ caller, query }) => svc.summaryEmployees(ctx, caller, query),
  });
  route(app, ctx, {
    method: 'GET',
    url: API.summaryDepartments,
    summary: '月度考勤汇总（按部门，含下级部门）与每日走势',
    tag,
    access,
    query: summaryDepartmentQuery,
    response: summaryDepartments,
    handler: ({ caller, query }) => svc.summaryDepartments(ctx, caller, query),
  });
}
