import type { FastifyInstance } from 'fastify';
import { getInfoQuery, updateInfoBody, userInfo } from '@se/core';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import * as users from './service.ts';

export function userRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: '/api/v1/user/get-info',
    summary: '用户信息（公司名称、地址、电话）',
    tag: 'user',
    access: 0,
    query: getInfoQuery,
    response: userInfo,
    handler: ({ caller, query }) => users.getInfo(ctx, caller, query.user_id),
  });

  route(app, ctx, {
    method: 'POST',
    url: '/api/v1/user/update-info',
    summary: '修改用户信息',
    tag: 'user',
    access: 0,
    body: updateInfoBody,
    response: userInfo,
    handler: ({ caller, body }) => users.updateInfo(ctx, caller, body),
  });
}
