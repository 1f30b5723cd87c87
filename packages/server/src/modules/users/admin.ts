import {
  PERMISSION,
  SERVICE,
  blockedRole,
  withLowerRoles,
  has,
  isBackendManager,
  type AddUserBody,
  type UpdateUserBody,
  type UserRow,
  type UsersQuery,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import { create, mutate } from '../audit/mutate.ts';
import { hashPassword } from '../auth/password.ts';
import { assertPasswordAllowed } from '../auth/password-policy.ts';
import { duplicateAsConflict, endAllWaysIn } from '../auth/service.ts';
import type { Mail } from '../../mail/mailer.ts';
import { emailChangedMail, sendAll, stageEmailChange } from './email.ts';
import * as repo from './repo.ts';
import { assertCanManage, managedUser, scopeOf } from '../access/users.ts';
import { assertOrgMove, newAccountOrg } from '../access/orgs.ts';
import { insertAudit } from '../audit/repo.ts';
import { unlinkAccounts } from '../attendance/repo.ts';
import type { Queryable } from '../../db/index.ts';

const SERVICE_BITS = SERVICE.jwbWeeklyReport | SERVICE.toiletWeeklyReport;

/** Users the caller may see: itself and its subtree (develop: everyone), newest first. */
export async function listUsers(ctx: AppContext, caller: Caller, q: UsersQuery) {
  let scope = await scopeOf(ctx, caller);
  if (q.user_id !== undefined) {
    // The variant with user_id lists that user's subtree.
    scope = (await managedUser(ctx, caller, q.user_id)).path;
  }
  const r = await repo.listUsers(ctx.db, {
    scope,
    keywords: q.keywords || undefined,
    keys: q.keys,
    permission: q.permission,
    ...pageWindow(q),
    count: q.need_match_count,
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function getUser(ctx: AppContext, caller: Caller, id: number): Promise<UserRow> {
  await assertCanManage(ctx, caller, id);
  const row = await repo.getUserRow(ctx.db, id);
  if (!row || (row.is_delete && !has(caller.permission, PERMISSION.develop))) throw notFound('用户不存在');
  return row;
}

/** Whether the caller's 127 bits make it a backend manager (created by a developer) rather than an OEM. */
export async function callerIsBackendManager(ctx: AppContext, caller: Caller): Promise<boolean> {
  if (!has(caller.permission, PERMISSION.superSaled)) return false;
  return isBackendManager(caller.permission, await repo.parentPermissions(ctx.db, caller.id));
}

/** Refuses a role change the caller may not make; a 127 caller is an OEM unless a developer created it. */
async function roleRefusal(ctx: AppContext, caller: Caller, before: number, after: number) {
  const r = blockedRole(caller.permission, before, after, await callerIsBackendManager(ctx, caller));
  if (r) throw forbidden(`无权分配或取消角色「${r.label}」`);
}

/** A granted role brings the lower roles of its chain the caller may assign (core withLowerRoles). */
async function lowerRolesToo(ctx: AppContext, caller: Caller, before: number, after: number) {
  return withLowerRoles(caller.permission, before, after, await callerIsBackendManager(ctx, caller));
}

export async function addUser(ctx: AppContext, caller: Caller, body: AddUserBody, ip: string) {
  if (body.permissions === 0) throw badRequest('请至少选择一个角色');
  await roleRefusal(ctx, caller, 0, body.permissions);
  const b = { ...body, permissions: await lowerRolesToo(ctx, caller, 0, body.permissions) };
  assertPasswordAllowed(b.password, b);
  const orgId = await newAccountOrg(ctx, caller, b.org_id);
  const hash = await hashPassword(b.password, ctx.config.scryptLogN);
  try {
    const id = await create(ctx, caller, ip, {
      insert: (tx) =>
        repo.insertUser(tx, {
          user_name: b.user_name,
          email: b.email || null,
          phone_num: b.phone_num,
          password_hash: hash,
          permissions: b.permissions,
          parent_id: caller.id,
          org_id: orgId,
        }),
      audit: (id) => ({ action: 'user.add', entity: 'user', targetUserId: id }),
      after: {
        user_name: b.user_name,
        email: b.email,
        phone_num: b.phone_num,
        permissions: b.permissions,
        org_id: orgId,
      },
    });
    return { id };
  } catch (err) {
    throw duplicateAsConflict(err);
  }
}

export async function updateUser(ctx: AppContext, caller: Caller, body: UpdateUserBody, ip: string) {
  let b = body;
  await assertCanManage(ctx, caller, b.id);
  const u = await repo.findUser(ctx.db, b.id);
  if (!u) throw notFound('用户不存在');
  const self = u.id === caller.id;
  const isDevelop = has(caller.permission, PERMISSION.develop);

  if (u.is_delete && b.is_delete !== false) throw notFound('用户不存在');
  if (b.is_delete === true && self) throw forbidden('不能删除自己的账号');
  if (b.permissions !== undefined && b.permissions !== u.permissions) {
    if (self) throw forbidden('不能修改自己的角色');
    await roleRefusal(ctx, caller, u.permissions, b.permissions);
    b = { ...b, permissions: await lowerRolesToo(ctx, caller, u.permissions, b.permissions) };
  }
  if (b.services !== undefined && b.services !== u.services) {
    if (self && !isDevelop) throw forbidden('服务只能由上级管理员修改');
    if (((b.services ^ u.services) & ~SERVICE_BITS) !== 0) throw badRequest('只能修改周报服务');
  }
  let orgId: number | null | undefined;
  if (b.org_id !== undefined && (b.org_id || null) !== u.org_id) {
    orgId = b.org_id || null;
    await assertOrgMove(ctx, caller, u, orgId);
  }
  const email = b.email === undefined ? undefined : b.email || null;
  const change = {
    is_delete: b.is_delete,
    user_name: b.user_name,
    // Removing the address applies at once; a new one waits for its owner (email.ts).
    email: email === null ? null : undefined,
    pending_email: email === undefined ? undefined : email === u.email ? null : email,
    phone_num: b.phone_num,
    permissions: b.permissions,
    services: b.services,
    org_id: orgId,
  };
  // The same pending address again: its owner lost the code, send a new one.
  const resend = email && email !== u.email && email === u.pending_email ? email : undefined;
  const mails: Mail[] = [];
  let moved = [u.id];
  try {
    const d = await mutate(ctx, caller, ip, {
      row: u,
      patch: change,
      always: resend !== undefined,
      write: async (tx, set) => {
        const { pending_email, org_id, ...columns } = set;
        await repo.updateUserColumns(tx, u.id, columns);
        if (org_id !== undefined) moved = await moveOrg(tx, caller, ip, u, org_id);
        const staged = pending_email ?? resend;
        if (staged) mails.push(...(await stageEmailChange(ctx, tx, u, staged)));
        else if (pending_email === null) await repo.setPendingEmail(tx, u.id, null);
        if (columns.email === null && u.email) mails.push(emailChangedMail(u.user_name, u.email, null));
        if (b.is_delete === true) await endAllWaysIn(ctx, tx, u.id, 'deleted');
      },
      audit: {
        action:
          b.is_delete === true
            ? 'user.delete'
            : b.is_delete === false && u.is_delete
              ? 'user.restore'
              : 'user.update',
        entity: 'user',
        entityId: u.id,
        targetUserId: u.id,
      },
    });
    if (!d.changed && !resend) return repo.getUserRow(ctx.db, u.id);
  } catch (err) {
    throw duplicateAsConflict(err);
  }
  await sendAll(ctx, mails);
  for (const id of moved) ctx.sessions.forgetUser(id);
  return repo.getUserRow(ctx.db, u.id);
}

/**
 * Moves the account to organisation `to` with the accounts below it that work in the same
 * organisation (each follower audited), and unlinks them from the employee records of the
 * organisation they leave (attendance history stays with it). Bound devices stay bound to the
 * accounts; what the organisation owns (buildings, placements, terminals) stays with it.
 */
async function moveOrg(tx: Queryable, caller: Caller, ip: string, u: repo.UserRecord, to: number | null) {
  const ids = await repo.moveToOrg(tx, u.id, u.org_id, to);
  for (const id of ids.slice(1)) {
    await insertAudit(tx, {
      actorId: caller.id,
      action: 'user.update',
      entity: 'user',
      entityId: id,
      targetUserId: id,
      before: { org_id: u.org_id },
      after: { org_id: to, moved_with: u.id },
      ip,
    });
  }
  if (u.org_id !== null) await unlinkAccounts(tx, u.org_id, ids);
  return ids;
}
