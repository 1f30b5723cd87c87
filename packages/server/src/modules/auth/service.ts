import crypto from 'node:crypto';
import { keyedHasher } from '../../keyed-hash.ts';
import {
  CAPTCHA_RESEND_S,
  CAPTCHA_TRIES,
  CAPTCHA_TTL_S,
  CODE,
  PERMISSION,
  WRONG_OLD_PASSWORD,
  formatDateTime,
  type CaptchaPurpose,
  type LoginData,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { lockTextKey } from '../../db/locks.ts';
import { AppError, badRequest, conflict, rateLimited } from '../../errors.ts';
import { dummyHash, hashPassword, newToken, sha256, verifyPassword } from './password.ts';
import * as repo from './repo.ts';
import { audit } from '../audit/service.ts';
import { findUser, insertUser } from '../users/repo.ts';
import { assertPasswordAllowed, passwordProblem } from './password-policy.ts';

/** Wrong passwords from one source lock that source out of the account. */
export const LOCKOUT = { failures: 5, minutes: 15 } as const;

/**
 * Wrong passwords from all sources together slow the account down for sources it has not
 * signed in from: past `free` failures in the window each one blocks for a doubling delay.
 */
export const THROTTLE = { free: 10, baseS: 2, capS: 15 * 60, windowMin: 60 } as const;

/** A source that signed in successfully within this many days passes the account-wide delay. */
export const USUAL_SOURCE = { days: 90, keep: 10 } as const;

/** One audit entry per this many failures of an account. */
export const AUDIT_EVERY = 5;

/**
 * SPEC §3: a new user has permissions 1 (visitor). A self-registered account sees what it is
 * shown; the user bit (registering devices, toilets, parameters) is granted by a manager.
 */
export const SIGNUP_PERMISSION = PERMISSION.visitor;

const WRONG = '账号或密码错误';

export interface RequestMeta {
  ip: string;
  userAgent: string;
}

async function sessionFor(
  ctx: AppContext,
  userId: number,
  remember: boolean,
  meta: RequestMeta,
): Promise<LoginData> {
  const acc = await repo.findAccountById(ctx.db, userId);
  if (!acc || acc.is_delete) throw new AppError(CODE.unauthorized, '账号不存在或已被删除');
  const token = await ctx.sessions.create(acc.id, remember, meta);
  return { auth_token: token, user_name: acc.user_name, permission: acc.permissions, user_id: acc.id };
}

export async function login(
  ctx: AppContext,
  b: { filter: string; password: string; remeber: boolean },
  meta: RequestMeta,
): Promise<LoginData> {
  const acc = await repo.findAccountByFilter(ctx.db, b.filter);
  // An unknown name is counted, locked and slowed down like a real account, under a keyed
  // hash of what was typed: the answers do not tell whether the account exists.
  const account = acc ? `u${acc.id}` : `n${await keyedHash(ctx, b.filter.normalize('NFKC').toLowerCase())}`;
  const ok = await throttledVerify(ctx, acc, account, b.password, meta, WRONG);
  return sessionFor(ctx, ok.id, b.remeber, meta);
}

/**
 * Checks a password under the sign-in throttle: a locked source or a slowed-down account is
 * refused, a wrong password counts towards both (and the audit), a right one forgives this
 * source. Sign-in and every other check of a known password go through here, so guesses
 * made anywhere share one count. Returns the account; throws otherwise.
 */
async function throttledVerify(
  ctx: AppContext,
  acc: repo.AccountRow | undefined,
  account: string,
  password: string,
  meta: RequestMeta,
  wrong: string,
): Promise<repo.AccountRow> {
  const source = await keyedHash(ctx, meta.ip);
  const gate = await repo.loginGate(ctx.db, account, source, acc?.id ?? null, USUAL_SOURCE.days);
  // The hash runs on every path, locked or not, so the time taken does not tell either.
  const stored = acc?.password_hash ?? (await dummyHash(ctx.config.scryptLogN));
  const ok = await verifyPassword(password, stored);
  if (gate.locked_s > 0) throw lockedOut(gate.locked_s);
  if (gate.blocked_s > 0 && !gate.usual) throw slowedDown(gate.blocked_s);
  if (acc && ok) {
    await repo.rememberLoginSource(ctx.db, acc.id, account, source, USUAL_SOURCE.keep);
    return acc;
  }
  const pair = await repo.countPairFailure(ctx.db, account, source, LOCKOUT.failures, LOCKOUT.minutes);
  const all = await repo.countAccountFailure(ctx.db, account, THROTTLE);
  if (acc && all.failures % AUDIT_EVERY === 0) {
    await audit(ctx.db, {
      actorId: acc.id,
      targetUserId: acc.id,
      action: 'auth.login_failed',
      entity: 'user',
      entityId: acc.id,
      before: null,
      after: { failures: all.failures, network: partialAddress(meta.ip), network_locked: pair.locked },
      ip: partialAddress(meta.ip),
    });
  }
  if (pair.locked) throw lockedOut(LOCKOUT.minutes * 60);
  throw badRequest(wrong);
}

const lockedOut = (seconds: number) =>
  rateLimited(`登录失败次数过多，账号在当前网络已锁定，请${Math.max(1, Math.ceil(seconds / 60))}分钟后再试`);

const slowedDown = (seconds: number) =>
  rateLimited(`该账号登录失败次数过多，请${Math.max(1, Math.ceil(seconds))}秒后再试`);

/** Enough of an address for a person to recognise a network, not enough to pin a host. */
export function partialAddress(ip: string) {
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.\d+$/.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.*`;
  const groups = ip.split(':').filter(Boolean);
  return groups.length > 3 ? `${groups.slice(0, 3).join(':')}:*` : ip;
}

/** A keyed hash of an address or an unknown name: enough to count by, not to recover it. */
const keyedHash = keyedHasher(repo.loginSecret, 'base64url');

export async function loginWithToken(ctx: AppContext, token: string, meta: RequestMeta) {
  const row = await repo.findUserByOdToken(ctx.db, sha256(token));
  if (!row) throw new AppError(CODE.unauthorized, '令牌无效');
  return sessionFor(ctx, row.user_id, false, meta);
}

export async function loginWithOpenToken(
  ctx: AppContext,
  openToken: string,
  appId: string,
  meta: RequestMeta,
) {
  const row = await repo.findUserByWcToken(ctx.db, appId, sha256(openToken));
  // Not 401: on the public mini-program page that would clear a session the browser holds.
  if (!row) throw new AppError(CODE.notFound, '该小程序账号尚未绑定，请先登录');
  return sessionFor(ctx, row.user_id, true, meta);
}

/**
 * Issues the mini-program token (32 random bytes, stored hashed): a client-chosen value
 * could be guessed. Binding again replaces the user's previous token for that app.
 */
export async function bindOpenToken(ctx: AppContext, caller: Caller, appId: string) {
  const token = newToken();
  await ctx.db.transaction((tx) => repo.bindWcToken(tx, caller.id, appId, sha256(token)));
  return { open_token: token };
}

/**
 * Ends every way into an account: its sessions, its od_token and its mini-program
 * bindings. Runs in the caller's transaction; used by find-password, every password change
 * and deletion.
 */
export async function endAllWaysIn(ctx: AppContext, tx: Queryable, userId: number, reason: string) {
  await repo.deleteUserTokens(tx, userId);
  await ctx.sessions.revokeUser(userId, reason, undefined, tx);
}

/** A new long-lived user token; the old one stops working. Shown once, stored hashed. */
export async function resetOdToken(ctx: AppContext, caller: Caller) {
  const token = newToken();
  await ctx.db.transaction((tx) => repo.replaceOdToken(tx, caller.id, sha256(token)));
  return { od_token: token };
}

export async function odTokenStatus(ctx: AppContext, caller: Caller) {
  const r = await repo.odTokenCreated(ctx.db, caller.id);
  return { exists: r !== undefined, created_at: r?.created_at ?? null };
}

export async function logout(ctx: AppContext, caller: Caller) {
  await ctx.sessions.revoke(caller.sessionId, 'logout');
}

export const newCaptchaCode = () => crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');

const PURPOSE_TEXT: Record<CaptchaPurpose, string> = { signup: '注册账号', 'find-password': '找回密码' };

export async function sendEmailCaptcha(ctx: AppContext, email: string, purpose: CaptchaPurpose) {
  const existing = await repo.findAccountByEmail(ctx.db, email);
  const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
  await ctx.db.transaction(async (tx) => {
    if (ctx.db.kind === 'postgres') await lockTextKey(tx, email);
    const last = await repo.lastCaptchaAge(tx, email);
    if (last && last.age_s < CAPTCHA_RESEND_S) {
      throw rateLimited(`验证码发送过于频繁，请${Math.ceil(CAPTCHA_RESEND_S - last.age_s)}秒后再试`);
    }
    await repo.insertCaptcha(tx, email, purpose, sha256(`${email}:${code}`), CAPTCHA_TTL_S);
  });
  // Recovery for an unknown address answers the same but sends nothing: no account probing.
  if (purpose === 'find-password' && !existing) return { resend_after: CAPTCHA_RESEND_S };
  // Signup for a registered address answers the same too; only the mailbox's owner learns
  // that it is taken, and how to get back in.
  if (purpose === 'signup' && existing) {
    await ctx.mailer.send({
      to: email,
      subject: '【智慧环境管理系统】该邮箱已注册',
      body: `有人（可能是您）正在用此邮箱注册账号，但该邮箱已注册过账号（用户名：${existing.user_name}）。请直接登录；如忘记密码，请在登录页点击「忘记密码」用此邮箱找回。如非本人操作，请忽略本邮件。`,
    });
    return { resend_after: CAPTCHA_RESEND_S };
  }
  await ctx.mailer.send({
    to: email,
    subject: `【智慧环境管理系统】${PURPOSE_TEXT[purpose]}验证码`,
    body: `您正在${PURPOSE_TEXT[purpose]}，验证码：${code}，${CAPTCHA_TTL_S / 60}分钟内有效。如非本人操作，请忽略本邮件。`,
  });
  return { resend_after: CAPTCHA_RESEND_S };
}

/** Checks and consumes a captcha; a wrong code costs one of its tries. */
export async function consumeCaptcha(
  ctx: AppContext,
  email: string,
  purpose: CaptchaPurpose | 'change-email',
  code: string,
) {
  const id = await checkCaptcha(ctx, email, purpose, code);
  if (!(await repo.useCaptcha(ctx.db, id))) throw badRequest('验证码已失效，请重新获取');
}

/** Checks a captcha without using it up; a wrong code costs one of its tries. */
async function checkCaptcha(
  ctx: AppContext,
  email: string,
  purpose: CaptchaPurpose | 'change-email',
  code: string,
) {
  const c = await repo.liveCaptcha(ctx.db, email, purpose);
  if (!c || c.tries >= CAPTCHA_TRIES) throw badRequest('验证码已失效，请重新获取');
  const ok = crypto.timingSafeEqual(Buffer.from(sha256(`${email}:${code}`)), Buffer.from(c.code_hash));
  if (!ok) {
    const tries = await repo.countCaptchaTry(ctx.db, c.id);
    const left = CAPTCHA_TRIES - tries;
    throw badRequest(left > 0 ? `验证码错误，还可尝试${left}次` : '验证码错误次数过多，请重新获取');
  }
  return c.id;
}

export async function signup(
  ctx: AppContext,
  b: { email: string; email_captcha: string; user_name: string; password1: string },
) {
  assertPasswordAllowed(b.password1, { user_name: b.user_name, email: b.email });
  // The captcha first: only the mailbox's owner learns whether a name or address is taken.
  // It is used up after the checks, so a taken name can be changed without a new code.
  const captchaId = await checkCaptcha(ctx, b.email, 'signup', b.email_captcha);
  const taken = await repo.nameOrEmailTaken(ctx.db, b.user_name, b.email);
  if (taken.name) throw conflict('用户名已被使用');
  if (taken.email) throw conflict('该邮箱已注册');
  if (!(await repo.useCaptcha(ctx.db, captchaId))) throw badRequest('验证码已失效，请重新获取');
  const hash = await hashPassword(b.password1, ctx.config.scryptLogN);
  try {
    const id = await ctx.db.transaction((tx) =>
      insertUser(tx, {
        user_name: b.user_name,
        email: b.email,
        password_hash: hash,
        permissions: SIGNUP_PERMISSION,
        parent_id: null,
      }),
    );
    return { user_id: id };
  } catch (err) {
    throw duplicateAsConflict(err);
  }
}

export async function findPassword(
  ctx: AppContext,
  b: { email: string; email_captcha: string; password1: string },
) {
  assertPasswordAllowed(b.password1);
  await consumeCaptcha(ctx, b.email, 'find-password', b.email_captcha);
  const acc = await repo.findAccountByEmail(ctx.db, b.email);
  if (!acc) throw badRequest('验证码已失效，请重新获取');
  assertPasswordAllowed(b.password1, await findUser(ctx.db, acc.id));
  const hash = await hashPassword(b.password1, ctx.config.scryptLogN);
  await ctx.db.transaction(async (tx) => {
    await repo.setPasswordHash(tx, acc.id, hash);
    await endAllWaysIn(ctx, tx, acc.id, 'password-changed');
  });
}

/**
 * The signed-in user's own password. The old one is checked like a sign-in (same cost, same
 * throttle), so a stolen session cannot be used to guess it. The new one ends every way in,
 * the caller's own session included, and the owner is told by mail.
 */
export async function changePassword(
  ctx: AppContext,
  caller: Caller,
  b: { old_password: string; password1: string },
  meta: RequestMeta,
) {
  const me = await findUser(ctx.db, caller.id);
  const acc = await repo.findAccountById(ctx.db, caller.id);
  if (!me || !acc || acc.is_delete) throw new AppError(CODE.unauthorized, '账号不存在或已被删除');
  if (b.password1.normalize('NFKC') === b.old_password.normalize('NFKC')) {
    throw badRequest('新密码不能与原密码相同');
  }
  assertPasswordAllowed(b.password1, me);
  await throttledVerify(ctx, acc, `u${acc.id}`, b.old_password, meta, WRONG_OLD_PASSWORD);
  const hash = await hashPassword(b.password1, ctx.config.scryptLogN);
  await ctx.db.transaction(async (tx) => {
    await repo.setPasswordHash(tx, acc.id, hash);
    await endAllWaysIn(ctx, tx, acc.id, 'password-changed');
    await audit(tx, {
      actorId: acc.id,
      targetUserId: acc.id,
      action: 'auth.password_changed',
      entity: 'user',
      entityId: acc.id,
      before: null,
      after: { sessions_ended: true },
      ip: meta.ip,
    });
  });
  if (acc.email) {
    await ctx.mailer.send({
      to: acc.email,
      subject: '【智慧环境管理系统】账号密码已修改',
      body: `您的账号（用户名：${acc.user_name}）的密码已于${formatDateTime(new Date())}修改，所有已登录的设备都已退出，长期令牌和小程序绑定已失效，请用新密码重新登录。如果这不是您本人的操作，说明您的密码可能已泄露：请立即在登录页点击「忘记密码」用此邮箱重设密码，并联系管理员。`,
    });
  }
}

/**
 * Turns a unique violation raced past the pre-check into the same 409; login_identifiers
 * (one namespace for user names, e-mails and phones) names the kind that collided.
 */
export function duplicateAsConflict(err: unknown): unknown {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') {
    const what = `${e.constraint ?? ''} ${e.message ?? ''}`;
    if (what.includes('phone_num')) return conflict('该手机号已被其他账号使用（作为手机号或用户名）');
    if (what.includes('login_identifiers_user_name')) {
      return conflict('用户名已被使用（与其他账号的用户名或手机号相同）');
    }
    return conflict(what.includes('email') ? '该邮箱已注册' : '用户名已被使用');
  }
  return err;
}

/** First start: the `admin` developer account. Returns the password when it was generated. */
export async function ensureAdmin(ctx: AppContext): Promise<{ created: boolean; password?: string }> {
  if (await repo.adminExists(ctx.db)) return { created: false };
  const generated = ctx.config.adminPassword ? undefined : crypto.randomBytes(12).toString('base64url');
  const weak = ctx.config.adminPassword && passwordProblem(ctx.config.adminPassword, { user_name: 'admin' });
  if (weak) {
    throw new Error(
      `ADMIN_PASSWORD is refused by the password policy (too common, too simple or equal to "admin"): choose a harder one`,
    );
  }
  const hash = await hashPassword(ctx.config.adminPassword ?? generated!, ctx.config.scryptLogN);
  try {
    await ctx.db.transaction((tx) =>
      insertUser(tx, {
        user_name: 'admin',
        email: null,
        password_hash: hash,
        permissions: PERMISSION.develop,
        parent_id: null,
      }),
    );
  } catch (err) {
    // Another server copy created it first.
    if ((err as { code?: string }).code === '23505') return { created: false };
    throw err;
  }
  return { created: true, password: generated };
}
