import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  USER_API,
  addUserBody,
  auditEntry,
  auditQuery,
  confirmEmailBody,
  getInfoQuery,
  getUserQuery,
  pageOf,
  updateInfoBody,
  updateUserBody,
  userInfo,
  userRow,
  usersPage,
  usersQuery,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as auditLog from '../audit/service.ts';
import * as admin from './admin.ts';
import * as email from './email.ts';
import * as users from './service.ts';

const managers = AREAS.users.permission;

export function userRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'user', access: 0 });
  r({
    method: 'GET',
    url: USER_API.list,
    summary: '用户列表（自己及下级；开发者看全部）',
    access: managers,
    query: usersQuery,
    response: usersPage,
    handler: ({ caller, query }) => admin.listUsers(ctx, caller, query),
  });

  r({
    method: 'GET',
    url: USER_API.get,
    summary: '获取用户',
    query: getUserQuery,
    response: userRow,
    handler: ({ caller, query }) => admin.getUser(ctx, caller, query.user_id),
  });

  r({
    method: 'POST',
    url: USER_API.add,
    summary: '新增下级用户',
    access: managers,
    body: addUserBody,
    response: z.object({ id: z.number() }),
    handler: ({ req, caller, body }) => admin.addUser(ctx, caller, body, req.ip),
  });

  r({
    method: 'POST',
    url: USER_API.update,
    summary: '修改用户（角色、服务、删除）',
    body: updateUserBody,
    response: userRow,
    handler: ({ req, caller, body }) => admin.updateUser(ctx, caller, body, req.ip),
  });

  r({
    method: 'POST',
    url: USER_API.confirmEmail,
    summary: '输入发到新邮箱的验证码，确认邮箱变更（仅账号本人）',
    rateLimit: { max: 20, windowMs: 10 * 60_000 },
    body: confirmEmailBody,
    response: userRow,
    handler: ({ req, caller, body }) => email.confirmEmail(ctx, caller, body.code, req.ip),
  });

  r({
    method: 'GET',
    url: USER_API.getInfo,
    summary: '用户信息（公司名称、地址、电话）',
    query: getInfoQuery,
    response: userInfo,
    handler: ({ caller, query }) => users.getInfo(ctx, caller, query.user_id),
  });

  r({
    method: 'POST',
    url: USER_API.updateInfo,
    summary: '修改用户信息',
    body: updateInfoBody,
    response: userInfo,
    handler: ({ req, caller, body }) => users.updateInfo(ctx, caller, body, req.ip),
  });

  r({
    method: 'GET',
    url: USER_API.auditLogs,
    summary: '操作审计日志',
    access: managers,
    query: auditQuery,
    response: pageOf(auditEntry),
    handler: ({ caller, query }) => auditLog.list(ctx, caller, query),
  });
}
