import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  PLAN_API,
  TEAM_API,
  addPlanBody,
  addTeamBody,
  assigneeList,
  planAssigneesQuery,
  checkStepBody,
  planPage,
  plansQuery,
  recordDetail,
  teamPage,
  teamsQuery,
  updatePlanBody,
  updateTeamBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as plans from './plans.ts';
import * as teams from './teams.ts';

const idAnswer = z.object({ id: z.number() });

/** Planned maintenance (计划保养): the plans, their teams and the checklist of the orders they open. */
export function planRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'maintenance', access: AREAS.maintenance.permission });
  r({
    method: 'GET',
    url: PLAN_API.list,
    summary: '保养计划列表（本周到期、已超期筛选；可见设备/厕所的计划）',
    query: plansQuery,
    response: planPage,
    handler: ({ caller, query }) => plans.listPlans(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: PLAN_API.add,
    summary: '新增保养计划（按设备、厕所或整个设备类型；按天数、运行时长、使用人次或用液量）',
    body: addPlanBody,
    response: idAnswer,
    handler: ({ req, caller, body }) => plans.addPlan(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: PLAN_API.update,
    summary: '修改、停用（enabled=false）或删除（is_delete=true）保养计划（创建者及其上级）',
    body: updatePlanBody,
    response: idAnswer,
    handler: ({ req, caller, body }) => plans.updatePlan(ctx, caller, body, req.ip),
  });
  r({
    method: 'GET',
    url: PLAN_API.assignees,
    summary: '保养计划可指派的人员（看得到该设备/厕所的账号；按设备类型的计划为本账号及下级）',
    query: planAssigneesQuery,
    response: assigneeList,
    handler: ({ caller, query }) => plans.planAssignees(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: PLAN_API.checkStep,
    summary: '勾选或取消保养单的检查项（处理中的保养单）',
    body: checkStepBody,
    response: recordDetail,
    handler: ({ req, caller, body }) => plans.checkStep(ctx, caller, body, req.ip),
  });
  r({
    method: 'GET',
    url: TEAM_API.list,
    summary: '维修班组列表（本账号及下级创建的）',
    query: teamsQuery,
    response: teamPage,
    handler: ({ caller, query }) => teams.listTeams(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: TEAM_API.add,
    summary: '新增维修班组（成员为本账号或下级账号，负责人为成员之一）',
    body: addTeamBody,
    response: idAnswer,
    handler: ({ req, caller, body }) => teams.addTeam(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: TEAM_API.update,
    summary: '修改或删除（is_delete=true）维修班组；被保养计划使用的不能删除（创建者及其上级）',
    body: updateTeamBody,
    response: idAnswer,
    handler: ({ req, caller, body }) => teams.updateTeam(ctx, caller, body, req.ip),
  });
}
