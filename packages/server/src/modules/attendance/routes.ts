import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  ATTENDANCE_API,
  addDepartmentBody,
  addEmployeeBody,
  attendanceOrg,
  departmentIdBody,
  departmentRow,
  employeeListQuery,
  employeeRow,
  attendanceIdQuery,
  pageOf,
  patrolCheckIn,
  patrolInfo,
  patrolScanBody,
  punchListQuery,
  punchRow,
  resolvePunchBody,
  setPatrolBody,
  updateDepartmentBody,
  updateEmployeeBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import { SHEET_IMPORT } from '../devices/routes.ts';
import { attachment } from '../files/send.ts';
import * as att from './service.ts';
import * as transfer from './transfer.ts';

const idResult = z.object({ id: z.number() });

/**
 * /api/v1/attendance/…: the caller's organisation's departments, employees, punches and
 * terminal sync. Terminal registration, binding, import and export are the device
 * registry's calls for kind 'attendance' (modules/devices/routes.ts).
 */
export function attendanceRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'attendance', access: AREAS.attendance.permission });

  r({
    method: 'GET',
    url: ATTENDANCE_API.org,
    summary: '当前账号所在组织及其根部门（首次使用时创建根部门）',
    response: attendanceOrg,
    handler: ({ caller }) => att.orgOf(ctx, caller),
  });
  r({
    method: 'GET',
    url: ATTENDANCE_API.departments,
    summary: '组织架构：全部部门（一次查询，含负责人和在职人数）',
    response: z.array(departmentRow),
    handler: ({ caller }) => att.departments(ctx, caller),
  });
  r({
    method: 'POST',
    url: ATTENDANCE_API.addDepartment,
    summary: '新增部门',
    body: addDepartmentBody,
    response: departmentRow,
    handler: ({ req, caller, body }) => att.addDepartment(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: ATTENDANCE_API.updateDepartment,
    summary: '修改部门：改名、负责人（0 清除）、排序、移动到其他上级部门',
    body: updateDepartmentBody,
    response: departmentRow,
    handler: ({ req, caller, body }) => att.updateDepartment(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: ATTENDANCE_API.deleteDepartment,
    summary: '删除部门（仅当没有下级部门和在职员工）',
    body: departmentIdBody,
    response: idResult,
    handler: ({ req, caller, body }) => att.deleteDepartment(ctx, caller, body.id, req.ip),
  });

  r({
    method: 'GET',
    url: ATTENDANCE_API.employees,
    summary: '员工列表（关键字：姓名、工号、手机号、卡号、职位；部门含下级部门）',
    query: employeeListQuery,
    response: pageOf(employeeRow),
    handler: ({ caller, query }) => att.listEmployees(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: ATTENDANCE_API.employee,
    summary: '获取员工',
    query: attendanceIdQuery,
    response: employeeRow,
    handler: ({ caller, query }) => att.getEmployee(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: ATTENDANCE_API.addEmployee,
    summary: '新增员工（工号在组织内唯一）',
    body: addEmployeeBody,
    response: employeeRow,
    handler: ({ req, caller, body }) => att.addEmployee(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: ATTENDANCE_API.updateEmployee,
    summary: '修改员工（离职：status=2，打卡和考勤记录保留）',
    body: updateEmployeeBody,
    response: employeeRow,
    handler: ({ req, caller, body }) => att.updateEmployee(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: ATTENDANCE_API.deleteEmployee,
    summary: '删除误录入的员工（打卡记录保留）',
    body: departmentIdBody,
    response: idResult,
    handler: ({ req, caller, body }) => att.deleteEmployee(ctx, caller, body.id, req.ip),
  });
  r({
    method: 'GET',
    url: ATTENDANCE_API.importTemplate,
    summary: '员工导入模板',
    query: z.object({ format: z.enum(['xlsx', 'csv'], '格式只能是 xlsx 或 csv').default('xlsx') }),
    raw: true,
    handler: async ({ query, reply }) => {
      const t = await transfer.template(query.format);
      reply.header('content-type', t.type).header('content-disposition', attachment(t.name)).send(t.body);
      return null;
    },
  });
  r({
    method: 'POST',
    url: ATTENDANCE_API.importEmployees,
    summary:
      '批量导入员工（请求体为 .xlsx 或 .csv 文件；mode=all 有错误行则不导入，mode=valid 只导入有效行）',
    ...SHEET_IMPORT,
    handler: ({ req, caller, query }) =>
      transfer.importEmployees(
        ctx,
        caller,
        req.body as Buffer | undefined,
        String(req.headers['content-type'] ?? ''),
        query.mode,
        req.ip,
      ),
  });

  r({
    method: 'POST',
    url: ATTENDANCE_API.syncTerminal,
    summary: '同步员工到考勤机（下发指令，设备回复后完成）',
    body: departmentIdBody,
    response: z.object({ command_id: z.number(), employees: z.number() }),
    handler: ({ req, caller, body }) => att.syncTerminal(ctx, caller, body.id, req.ip),
  });
  r({
    method: 'GET',
    url: ATTENDANCE_API.punches,
    summary: '打卡记录（原始；可按考勤机、员工、未匹配筛选）',
    query: punchListQuery,
    response: pageOf(punchRow),
    handler: ({ caller, query }) => att.listPunches(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: ATTENDANCE_API.resolvePunch,
    summary: '把未匹配的打卡记录关联到员工',
    body: resolvePunchBody,
    response: punchRow,
    handler: ({ req, caller, body }) => att.resolvePunch(ctx, caller, body, req.ip),
  });

  // Patrols belong to the toilet's detail: the smart-toilet area's accounts.
  r({
    method: 'GET',
    url: ATTENDANCE_API.patrols,
    summary: '厕所巡检要求与最近巡检记录',
    access: AREAS.smartToilet.permission,
    query: z.object({ toilet_id: departmentIdBody.shape.id }),
    response: patrolInfo,
    handler: ({ caller, query }) => att.patrols(ctx, caller, query.toilet_id),
  });
  r({
    method: 'POST',
    url: ATTENDANCE_API.setPatrol,
    summary: '设置厕所巡检要求（开放时间内每 N 分钟至少巡检一次，0 为不要求）',
    access: AREAS.smartToilet.permission,
    body: setPatrolBody,
    response: patrolInfo,
    handler: ({ req, caller, body }) => att.setPatrol(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: ATTENDANCE_API.patrolScan,
    summary: '扫码巡检签到（小程序：保洁员扫描厕所二维码，提交厕所编号和工号）',
    body: patrolScanBody,
    response: patrolCheckIn,
    handler: ({ req, caller, body }) => att.patrolScan(ctx, caller, body, req.ip),
  });
}
