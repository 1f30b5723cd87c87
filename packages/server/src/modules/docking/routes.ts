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
import { areaRoutes } from '../../http/route.ts';
import * as docking from './service.ts';

export function dockingRoutes(app: FastifyInstance, ctx: AppContext) {
  // Docking interfaces are the data-integration (数据对接) role's business.
  const r = areaRoutes(app, ctx, { tag: 'docking', access: PERMISSION.apier });
  r({
    method: 'GET',
    url: DOCKING_API.list,
    summary: '对接接口列表',
    query: dockingQuery,
    response: pageOf(dockingInterface),
    handler: ({ caller, query }) => docking.list(ctx, caller, query),
  });

  r({
    method: 'GET',
    url: DOCKING_API.get,
    summary: '获取对接接口',
    query: getDockingQuery,
    response: dockingInterface,
    handler: ({ caller, query }) => docking.get(ctx, caller, query.id),
  });

  r({
    method: 'POST',
    url: DOCKING_API.add,
    summary: '新增对接接口',
    body: addDockingBody,
    response: dockingInterface,
    handler: ({ req, caller, body }) => docking.add(ctx, caller, body, req.ip),
  });

  r({
    method: 'POST',
    url: DOCKING_API.update,
    summary: '修改或删除对接接口',
    body: updateDockingBody,
    response: dockingInterface,
    handler: ({ req, caller, body }) => docking.update(ctx, caller, body, req.ip),
  });

  r({
    method: 'POST',
    url: DOCKING_API.test,
    summary: '向对接接口发送测试数据',
    rateLimit: { max: 30, windowMs: 60_000 },
    body: testDockingBody,
    response: dockingTestResult,
    handler: ({ caller, body }) => docking.sendTest(ctx, caller, body.id),
  });
}
