import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  JWB_API,
  addParameterBody,
  applyParameterBody,
  cacheOperationBody,
  commandListQuery,
  deviceCommand,
  deviceRow,
  jwbConfig,
  getDeviceQuery,
  pageOf,
  parameterListQuery,
  parameterSet,
  sensorOperationBody,
  updateConfigBody,
  updateParameterBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as dispenser from './service.ts';

const commandId = z.object({ command_id: z.number() });

export function jwbRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'jwb', access: AREAS.jwb.permission });
  r({
    method: 'GET',
    url: JWB_API.getConfig,
    summary: '除臭机配置（每周时段、工作参数）',
    query: getDeviceQuery,
    response: jwbConfig,
    handler: ({ caller, query }) => dispenser.getConfig(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: JWB_API.updateConfig,
    summary: '保存除臭机配置并下发',
    body: updateConfigBody,
    response: jwbConfig,
    handler: ({ req, caller, body }) => dispenser.updateConfig(ctx, caller, body, req.ip),
  });
  r({
    method: 'GET',
    url: JWB_API.parameters,
    summary: '参数组列表',
    query: parameterListQuery,
    response: pageOf(parameterSet),
    handler: ({ caller, query }) => dispenser.listParameters(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: JWB_API.getParameter,
    summary: '获取参数组',
    query: getDeviceQuery,
    response: parameterSet,
    handler: ({ caller, query }) => dispenser.getParameter(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: JWB_API.addParameter,
    summary: '新建参数组（未填的项取默认值）',
    body: addParameterBody,
    response: parameterSet,
    handler: ({ caller, body }) => dispenser.addParameter(ctx, caller, body),
  });
  r({
    method: 'POST',
    url: JWB_API.updateParameter,
    summary: '修改或删除参数组',
    body: updateParameterBody,
    response: parameterSet,
    handler: ({ caller, body }) => dispenser.updateParameter(ctx, caller, body),
  });
  r({
    method: 'POST',
    url: JWB_API.applyParameter,
    summary: '为除臭机应用参数组并下发',
    body: applyParameterBody,
    response: deviceRow,
    handler: ({ req, caller, body }) =>
      dispenser.applyParameter(ctx, caller, body.id, body.parameter_num, req.ip),
  });
  r({
    method: 'POST',
    url: JWB_API.cacheOperation,
    summary: '除臭机缓存操作（0 重启、1 强力、2 深度睡眠、3 氨气校准）',
    body: cacheOperationBody,
    response: commandId,
    handler: ({ caller, body }) => dispenser.cacheOperation(ctx, caller, body.id, body.op),
  });
  r({
    method: 'POST',
    url: JWB_API.sensorOperation,
    summary: '网关传感器操作（0 搜索、1 删除、2 清空、3 添加）',
    tag: 'gateway',
    access: AREAS.gateway.permission,
    body: sensorOperationBody,
    response: commandId,
    handler: ({ caller, body }) => dispenser.sensorOperation(ctx, caller, body.id, body.op, body.ser_num),
  });
  r({
    method: 'GET',
    url: JWB_API.commands,
    summary: '设备指令及其状态（待下发、已下发、已完成、失败、超时）',
    tag: 'device',
    access: 0,
    query: commandListQuery,
    response: pageOf(deviceCommand),
    handler: ({ caller, query }) => dispenser.listCommands(ctx, caller, query),
  });
}
