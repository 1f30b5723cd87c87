import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  TOILET_DETAIL_API,
  addDisplayTokenBody,
  displayData,
  displayQuery,
  displayTokenRow,
  newDisplayToken,
  revokeDisplayTokenBody,
  toiletIdQuery,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as display from './service.ts';

/** Display tokens (managed in the toilet detail) and the public screen call of /eternal-page. */
export function displayRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'display', access: AREAS.smartToilet.permission });
  r({
    method: 'GET',
    url: TOILET_DETAIL_API.displayTokens,
    summary: '厕所的显示令牌（只列名称与状态，令牌本身只在创建时返回一次）',
    query: toiletIdQuery,
    response: z.array(displayTokenRow),
    handler: ({ caller, query }) => display.list(ctx, caller, query.toilet_id),
  });
  r({
    method: 'POST',
    url: TOILET_DETAIL_API.addDisplayToken,
    summary: '创建显示令牌（用于 /eternal-page?token=…）',
    body: addDisplayTokenBody,
    response: newDisplayToken,
    handler: ({ req, caller, body }) => display.add(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: TOILET_DETAIL_API.revokeDisplayToken,
    summary: '吊销显示令牌',
    body: revokeDisplayTokenBody,
    response: displayTokenRow,
    handler: ({ req, caller, body }) => display.revoke(ctx, caller, body.id, req.ip),
  });
  r({
    method: 'GET',
    url: TOILET_DETAIL_API.display,
    summary: '厕所显示屏数据（公开，凭显示令牌；令牌失效时 403「显示令牌已失效」）',
    access: 'public',
    // A screen polls every 15 s; this leaves room for many screens behind one address.
    rateLimit: { max: 240, windowMs: 60_000 },
    query: displayQuery,
    response: displayData,
    handler: ({ query }) => display.display(ctx, query.token),
  });
}
