import type { FastifyInstance } from 'fastify';
import {
  AREAS,
  RULE_API,
  addRuleBody,
  checkFormulaBody,
  formulaCheckResult,
  formulaTestResult,
  getDeviceQuery,
  pageOf,
  ruleDeviceRow,
  ruleDevicesQuery,
  ruleHitRow,
  ruleHitsQuery,
  ruleRow,
  rulesQuery,
  testFormulaBody,
  updateRuleBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as rules from './service.ts';

export function ruleRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'notify', access: AREAS.notify.permission });
  r({
    method: 'GET',
    url: RULE_API.list,
    summary: '公式规则列表（自己的规则）',
    query: rulesQuery,
    response: pageOf(ruleRow),
    handler: ({ caller, query }) => rules.list(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: RULE_API.get,
    summary: '获取公式规则',
    query: getDeviceQuery,
    response: ruleRow,
    handler: ({ caller, query }) => rules.get(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: RULE_API.add,
    summary: '新增公式规则（公式、范围、持续时间、冷却时间、模板与通知对象）',
    body: addRuleBody,
    response: ruleRow,
    handler: ({ req, caller, body }) => rules.add(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: RULE_API.update,
    summary: '修改、启用/停用或删除（is_delete）公式规则',
    body: updateRuleBody,
    response: ruleRow,
    handler: ({ req, caller, body }) => rules.update(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: RULE_API.check,
    summary: '检查公式：规范写法，或出错的位置与原因',
    body: checkFormulaBody,
    response: formulaCheckResult,
    handler: async ({ body }) => rules.check(body.formula),
  });
  r({
    method: 'POST',
    url: RULE_API.test,
    summary: '用设备最新数据测试公式',
    body: testFormulaBody,
    response: formulaTestResult,
    handler: ({ caller, body }) => rules.test(ctx, caller, body),
  });
  r({
    method: 'GET',
    url: RULE_API.hits,
    summary: '规则触发记录',
    query: ruleHitsQuery,
    response: pageOf(ruleHitRow),
    handler: ({ caller, query }) => rules.hits(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: RULE_API.devices,
    summary: '规则可选的设备（网关、传感器、除臭机）',
    query: ruleDevicesQuery,
    response: pageOf(ruleDeviceRow),
    handler: ({ caller, query }) => rules.devices(ctx, caller, query),
  });
}
