import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AUTH_API,
  bindOpenTokenBody,
  changePasswordBody,
  findPasswordBody,
  loginBody,
  loginData,
  loginWithOpenTokenBody,
  loginWithTokenBody,
  odTokenData,
  odTokenStatus,
  openTokenData,
  permissionData,
  sendEmailCaptchaBody,
  signupBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import { callerIsBackendManager } from '../users/admin.ts';
import * as auth from './service.ts';

const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });
const MIN = 60_000;

/**
 * Sign-ins per address. Generous, because a whole office behind one NAT signs in at 9:00;
 * password guessing is bounded per account and per (account, address) in the database
 * (the login throttle), not by this.
 */
export const LOGIN_LIMIT = { max: 60, windowMs: 10 * MIN };

export function authRoutes(app: FastifyInstance, ctx: AppContext) {
  // LOGIN_LIMIT_PER_IP raises it where one address is many users (the e2e run).
  const loginLimit = { ...LOGIN_LIMIT, max: ctx.config.loginLimitPerIp };
  /** Routes reached without a session (signing in, signing up, recovering a password). */
  const open = areaRoutes(app, ctx, { tag: 'auth', access: 'public' });
  /** Routes of the signed-in caller's own account. */
  const own = areaRoutes(app, ctx, { tag: 'auth', access: 0 });

  open({
    method: 'POST',
    url: AUTH_API.login,
    summary: '用户登录（用户名、邮箱或手机号）',
    rateLimit: loginLimit,
    body: loginBody,
    response: loginData,
    handler: ({ req, body }) => auth.login(ctx, body, meta(req)),
  });

  open({
    method: 'POST',
    url: AUTH_API.loginWithToken,
    summary: '用长期令牌（od_token）登录',
    rateLimit: loginLimit,
    body: loginWithTokenBody,
    response: loginData,
    handler: ({ req, body }) => auth.loginWithToken(ctx, body.token, meta(req)),
  });

  open({
    method: 'POST',
    url: AUTH_API.loginWithOpenToken,
    summary: '小程序 open_token 登录',
    rateLimit: loginLimit,
    body: loginWithOpenTokenBody,
    response: loginData,
    handler: ({ req, body }) => auth.loginWithOpenToken(ctx, body.open_token, body.app_id, meta(req)),
  });

  own({
    method: 'POST',
    url: AUTH_API.bindOpenToken,
    summary: '为当前用户签发小程序 open_token（替换该小程序以前的令牌）',
    rateLimit: { max: 30, windowMs: 10 * MIN },
    body: bindOpenTokenBody,
    response: openTokenData,
    handler: ({ caller, body }) => auth.bindOpenToken(ctx, caller, body.app_id),
  });

  open({
    method: 'POST',
    url: AUTH_API.sendEmailCaptcha,
    summary: '发送邮箱验证码（注册、找回密码）',
    rateLimit: { max: 10, windowMs: 10 * MIN },
    body: sendEmailCaptchaBody,
    response: z.object({ resend_after: z.number() }),
    handler: ({ body }) => auth.sendEmailCaptcha(ctx, body.email, body.purpose),
  });

  open({
    method: 'POST',
    url: AUTH_API.signup,
    summary: '用户注册',
    rateLimit: { max: 10, windowMs: 10 * MIN },
    body: signupBody,
    response: z.object({ user_id: z.number() }),
    handler: ({ body }) => auth.signup(ctx, body),
  });

  open({
    method: 'POST',
    url: AUTH_API.findPassword,
    summary: '找回密码',
    rateLimit: { max: 10, windowMs: 10 * MIN },
    body: findPasswordBody,
    handler: ({ body }) => auth.findPassword(ctx, body).then(() => null),
  });

  own({
    method: 'POST',
    url: AUTH_API.changePassword,
    summary: '修改自己的密码（所有登录、长期令牌和小程序绑定随之失效）',
    rateLimit: { max: 10, windowMs: 10 * MIN },
    body: changePasswordBody,
    handler: ({ req, caller, body }) => auth.changePassword(ctx, caller, body, meta(req)).then(() => null),
  });

  own({
    method: 'POST',
    url: AUTH_API.logout,
    summary: '退出登录（令牌作废）',
    handler: ({ caller }) => auth.logout(ctx, caller).then(() => null),
  });

  own({
    method: 'GET',
    url: AUTH_API.getPermission,
    summary: '当前用户的权限与ID',
    response: permissionData,
    handler: async ({ caller }) => ({
      permission: caller.permission,
      id: caller.id,
      backend_manager: await callerIsBackendManager(ctx, caller),
    }),
  });

  own({
    method: 'POST',
    url: AUTH_API.resetOdToken,
    summary: '生成新的长期令牌（od_token，只显示一次）',
    response: odTokenData,
    handler: ({ caller }) => auth.resetOdToken(ctx, caller),
  });

  own({
    method: 'GET',
    url: AUTH_API.odToken,
    summary: '长期令牌的状态（是否已生成、生成时间；令牌本身不再显示）',
    response: odTokenStatus,
    handler: ({ caller }) => auth.odTokenStatus(ctx, caller),
  });
}
