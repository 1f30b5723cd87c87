import type { FastifyInstance } from 'fastify';
import {
  DOCKING_API,
  PERMISSION,
  addDockingBody,
  dockingInterface,
  dockingQuery,
  dockingTestResult,
  getDockingQuery,
  pageOf,
  testDockingBody,
  updateDockingBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import * as docking from './service.ts';

const tag = 'docking';
// Docking interfaces are the data-integration (数据对接) role's business.
const access = PERMISSION.apier;

export function dockingRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: DOCKING_API.list,
    summary: '对接接口列表',
    tag,
    access,
    query: dockingQuery,
    response: pageOf(dockingInterface),
    handler: ({ caller, query }) => docking.list(ctx, caller, query),
  });

  route(app, ctx, {
    method: 'GET',
    url: DOCKING_API.get,
    summary: '获取对接接口',
    tag,
    access,
    query: getDockingQuery,
    response: dockingInterface,
    handler: ({ caller, query }) => docking.get(ctx, caller, query.id),
  });

  route(app, ctx, {
    method: 'POST',
    url: DOCKING_API.add,
    summary: '新增对接接口',
    tag,
    access,
    body: addDockingBody,
    response: dockingInterface,
    handler: ({ req, caller, body }) => docking.add(ctx, caller, body, req.ip),
  });

  route(app, ctx, {
    method: 'POST',
    url: DOCKING_API.update,
    summary: '修改或删除对接接口',
    tag,
    access,
    body: updateDockingBody,
    response: dockingInterface,
    handler: ({ req, caller, body }) => docking.update(ctx, caller, body, req.ip),
  });

  route(app, ctx, {
    method: 'POST',
    url: DOCKING_API.test,
    summary: '向对接接口发送测试数据',
    tag,
    access,
    rateLimit: { max: 30, windowMs: 60_000 },
    body: testDockingBody,
    response: dockingTestResult,
    handler: ({ caller, body }) => docking.sendTest(ctx, caller, body.id),
  });
}
