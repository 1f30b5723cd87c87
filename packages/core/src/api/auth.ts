import { z } from 'zod';
import { boolField } from './envelope.ts';

/** Sign-in, sign-up and session routes; the mini-program's and the od_token reset sit here too. */
export const AUTH_API = {
  login: '/api/v1/auth/login',
  loginWithToken: '/api/v1/auth/login-with-token',
  loginWithOpenToken: '/api/v1/mini-program/login-with-open-token',
  bindOpenToken: '/api/v1/mini-program/bind-open-token',
  sendEmailCaptcha: '/api/v1/auth/send-email-captcha',
  signup: '/api/v1/auth/signup',
  findPassword: '/api/v1/auth/find-password',
  changePassword: '/api/v1/auth/change-password',
  logout: '/api/v1/auth/logout',
  getPermission: '/api/v1/auth/get-permission',
  resetOdToken: '/api/v1/user/reset-od-token',
  odToken: '/api/v1/user/od-token',
} as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;
export const USER_NAME_MAX = 32;

const password = z
  .string()
  .min(PASSWORD_MIN, `密码长度不能少于${PASSWORD_MIN}个字符`)
  .max(PASSWORD_MAX, `密码长度不能超过${PASSWORD_MAX}个字符`);

export const email = z
  .string()
  .trim()
  .max(254, '邮箱长度不能超过254个字符')
  .pipe(z.email('邮箱格式不正确'))
  .transform((s) => s.toLowerCase());

/**
 * True for what could be a phone number: only digits, +, -, dots and spaces, with at least
 * 6 digits. User names, e-mails and phones share one sign-in namespace, so a user name must
 * not look like the other two.
 */
export const looksLikePhone = (s: string) => /^[\d+\-. ]+$/.test(s) && s.replace(/\D/g, '').length >= 6;

export const userName = z
  .string()
  .trim()
  .min(2, '用户名长度不能少于2个字符')
  .max(USER_NAME_MAX, `用户名长度不能超过${USER_NAME_MAX}个字符`)
  .refine((s) => !s.includes('@'), '用户名不能是邮箱地址（不能包含 @），请换一个用户名')
  .refine((s) => !looksLikePhone(s), '用户名不能像手机号（全是数字且至少6位），请加入字母或文字')
  .regex(/^[\p{L}\p{N}_.-]+$/u, '用户名只能包含文字、数字、下划线、点和短横线');

export const captcha = z
  .string()
  .trim()
  .regex(/^\d{6}$/, '邮箱验证码为6位数字');

/** POST /api/v1/auth/login. `filter` is a user name, email or phone; `remeber` as the spec spells it. */
export const loginBody = z.object({
  filter: z.string().trim().min(1, '请输入用户名、邮箱或手机号').max(254, '账号过长'),
  password: z.string().min(1, '请输入密码').max(PASSWORD_MAX, '密码过长'),
  remeber: boolField().default(false),
});

export const loginData = z.object({
  auth_token: z.string(),
  user_name: z.string(),
  permission: z.number(),
  user_id: z.number(),
});
export type LoginData = z.infer<typeof loginData>;

export const loginWithTokenBody = z.object({
  token: z.string().trim().min(1, '令牌不能为空').max(200, '令牌过长'),
});

export const loginWithOpenTokenBody = z.object({
  open_token: z.string().trim().min(1, '小程序令牌不能为空').max(200, '小程序令牌过长'),
  app_id: z.string().trim().min(1, '小程序 AppID 不能为空').max(64, '小程序 AppID 过长'),
});

/**
 * POST /api/v1/mini-program/bind-open-token: the server issues the open_token (a client-chosen
 * one could be guessed), so the body only names the mini-program.
 */
export const bindOpenTokenBody = z.object({
  app_id: loginWithOpenTokenBody.shape.app_id,
  open_token: z.undefined('open_token 由服务器生成并在绑定结果中返回，请不要提交').optional(),
});

export const openTokenData = z.object({ open_token: z.string() });

/** POST /api/v1/user/confirm-email: the code mailed to the pending address. */
export const confirmEmailBody = z.object({ code: captcha });

export const CAPTCHA_PURPOSES = ['signup', 'find-password'] as const;
export type CaptchaPurpose = (typeof CAPTCHA_PURPOSES)[number];

export const sendEmailCaptchaBody = z.object({
  email,
  purpose: z.enum(CAPTCHA_PURPOSES, '用途只能是 signup 或 find-password'),
});

const samePasswords = (b: { password1: string; password2: string }) => b.password1 === b.password2;
const mismatch = { message: '两次输入的密码不一致', path: ['password2'] };

export const signupBody = z
  .object({ email, email_captcha: captcha, user_name: userName, password1: password, password2: z.string() })
  .refine(samePasswords, mismatch);

export const findPasswordBody = z
  .object({ email, email_captcha: captcha, password1: password, password2: z.string() })
  .refine(samePasswords, mismatch);

/**
 * POST /api/v1/auth/change-password: the signed-in user's own password. The old one is only
 * checked for presence here; its length rules may have been different when it was set.
 */
export const changePasswordBody = z
  .object({
    old_password: z.string().min(1, '请输入原密码').max(PASSWORD_MAX, '原密码过长'),
    password1: password,
    password2: z.string(),
  })
  .refine(samePasswords, mismatch);

/** change-password's answer to a wrong old password; the web shows it under that field. */
export const WRONG_OLD_PASSWORD = '原密码错误';

export const permissionData = z.object({
  permission: z.number(),
  id: z.number(),
  /** Whether a 127 permission is a backend manager rather than an OEM (isBackendManager). */
  backend_manager: z.boolean(),
});
export type PermissionData = z.infer<typeof permissionData>;

export const odTokenData = z.object({ od_token: z.string() });

/** Whether the caller has a long-lived token, and since when (UTC+8); the token itself is never shown again. */
export const odTokenStatus = z.object({ exists: z.boolean(), created_at: z.string().nullable() });
export type OdTokenStatus = z.infer<typeof odTokenStatus>;

/** Seconds between two captcha mails to one address; lifetime; tries. */
export const CAPTCHA_RESEND_S = 60;
export const CAPTCHA_TTL_S = 600;
export const CAPTCHA_TRIES = 5;
