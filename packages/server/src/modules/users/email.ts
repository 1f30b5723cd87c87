import { CAPTCHA_RESEND_S, CAPTCHA_TTL_S, type UserRow } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { lockTextKey } from '../../db/locks.ts';
import { badRequest, conflict, rateLimited } from '../../errors.ts';
import type { Mail } from '../../mail/mailer.ts';
import { audit } from '../audit/service.ts';
import { sha256 } from '../auth/password.ts';
import { insertCaptcha, lastCaptchaAge } from '../auth/repo.ts';
import { consumeCaptcha, duplicateAsConflict, newCaptchaCode } from '../auth/service.ts';
import * as repo from './repo.ts';

// An e-mail change (by a manager or the user itself) is not applied at once: the new address
// receives a code, and only the account's owner, signed in, can enter it
// (POST /api/v1/user/confirm-email). A public confirmation link would let whoever reads the
// new mailbox apply the change, which is exactly the manager who typed their own address in.
// Until then find-password and sign-in only know the confirmed address.

const SUBJECT = '【智慧环境管理系统】';

/**
 * Records `to` as the user's pending address inside `tx` (a code for it, rate-limited per
 * address like every captcha); answers the mails to send once the transaction committed.
 */
export async function stageEmailChange(
  ctx: AppContext,
  tx: Queryable,
  u: { id: number; user_name: string; email: string | null },
  to: string,
): Promise<Mail[]> {
  if (await repo.identifierTaken(tx, to, u.id)) throw conflict('该邮箱已被其他账号使用');
  if (ctx.db.kind === 'postgres') await lockTextKey(tx, to);
  const last = await lastCaptchaAge(tx, to);
  if (last && last.age_s < CAPTCHA_RESEND_S) {
    throw rateLimited(`验证码发送过于频繁，请${Math.ceil(CAPTCHA_RESEND_S - last.age_s)}秒后再试`);
  }
  const code = newCaptchaCode();
  await insertCaptcha(tx, to, 'change-email', sha256(`${to}:${code}`), CAPTCHA_TTL_S);
  await repo.setPendingEmail(tx, u.id, to);
  const mails: Mail[] = [
    {
      to,
      subject: `${SUBJECT}邮箱变更验证码`,
      body:
        `账号「${u.user_name}」申请把邮箱改为本地址，验证码：${code}，${CAPTCHA_TTL_S / 60}分钟内有效。` +
        `请由该账号本人登录后，在“修改信息”中输入验证码完成变更。如非本人操作，请忽略本邮件。`,
    },
  ];
  if (u.email) {
    mails.push({
      to: u.email,
      subject: `${SUBJECT}邮箱变更提醒`,
      body:
        `您的账号「${u.user_name}」申请把邮箱改为 ${to}。变更需账号本人输入发到新邮箱的验证码后才生效，` +
        `在此之前找回密码仍只使用本邮箱。如非本人操作，请尽快联系管理员。`,
    });
  }
  return mails;
}

/** The mail telling the old address that the account no longer uses it. */
export function emailChangedMail(userName: string, old: string, now: string | null): Mail {
  return {
    to: old,
    subject: `${SUBJECT}邮箱已变更`,
    body: now
      ? `您的账号「${userName}」的邮箱已改为 ${now}，本邮箱不再用于登录和找回密码。如非本人操作，请尽快联系管理员。`
      : `您的账号「${userName}」已删除邮箱，本邮箱不再用于登录和找回密码。如非本人操作，请尽快联系管理员。`,
  };
}

export async function sendAll(ctx: AppContext, mails: Mail[]) {
  for (const m of mails) await ctx.mailer.send(m);
}

/** The owner enters the code mailed to its pending address; the change applies then. */
export async function confirmEmail(ctx: AppContext, caller: Caller, code: string, ip: string) {
  const u = await repo.findUser(ctx.db, caller.id);
  const pending = u?.pending_email;
  if (!u || !pending) throw badRequest('没有待确认的邮箱，请先修改邮箱');
  await consumeCaptcha(ctx, pending, 'change-email', code);
  try {
    await ctx.db.transaction(async (tx) => {
      if (!(await repo.applyPendingEmail(tx, u.id, pending))) {
        throw badRequest('没有待确认的邮箱，请先修改邮箱');
      }
      await audit(tx, {
        actorId: caller.id,
        targetUserId: u.id,
        action: 'user.email',
        entity: 'user',
        entityId: u.id,
        before: { email: u.email },
        after: { email: pending },
        ip,
      });
    });
  } catch (err) {
    throw duplicateAsConflict(err);
  }
  if (u.email) await ctx.mailer.send(emailChangedMail(u.user_name, u.email, pending));
  return (await repo.getUserRow(ctx.db, u.id)) as UserRow;
}
