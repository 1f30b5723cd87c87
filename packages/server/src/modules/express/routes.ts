import type { FastifyInstance } from 'fastify';
import {
  AREAS,
  EXPRESS_API,
  addExpressBody,
  expressPage,
  expressQuery,
  expressRow,
  updateExpressBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as express from './service.ts';

export function expressRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'express', access: AREAS.maintenance.permission });
  r({
    method: 'GET',
    url: EXPRESS_API.list,
    summary: '快递单列表（自己或所管理用户的）',
    query: expressQuery,
    response: expressPage,
    handler: ({ caller, query }) => express.list(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: EXPRESS_API.add,
    summary: '新增快递单（单号按快递公司格式校验，可关联维修记录）',
    body: addExpressBody,
    response: expressRow,
    handler: ({ req, caller, body }) => express.add(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: EXPRESS_API.update,
    summary: '修改快递单（状态等）或删除（is_delete=true）',
    body: updateExpressBody,
    response: expressRow,
    handler: ({ req, caller, body }) => express.update(ctx, caller, body, req.ip),
  });
}
