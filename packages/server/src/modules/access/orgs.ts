/**
 * Who may see an organisation and what is inside it (campus buildings and rooms, industrial
 * sites, attendance departments and employees): the accounts that work inside it
 * (users.org_id), its manager (organisations.user_id) and every account above the manager;
 * develop sees all. Areas built on organisations ask here, never decide it themselves.
 */
import { PERMISSION, has } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { findOrg, orgOfUser, type OrgRecord } from '../org/repo.ts';
import { isSelfOrDescendant, managerAmong, type UserRecord } from '../users/repo.ts';
import { scopeOf } from './users.ts';

/** What a caller sees of organisations: its account scope and its own organisation. */
export interface OrgScope {
  /** Account-tree path prefix ('/' for develop), as scopeOf. */
  scope: string;
  /** The organisation the caller works inside (users.org_id), or null. */
  orgId: number | null;
}

export async function orgScopeOf(ctx: AppContext, caller: Caller): Promise<OrgScope> {
  const [scope, orgId] = await Promise.all([scopeOf(ctx, caller), orgOfUser(ctx.db, caller.id)]);
  return { scope, orgId };
}

/**
 * Whether the caller sees organisation `org` (a loaded row). `own` is the caller's own
 * organisation when the caller already read it (orgScopeOf), saving the query.
 */
export async function seesOrg(
  ctx: AppContext,
  caller: Caller,
  org: Pick<OrgRecord, 'id' | 'user_id'>,
  own?: number | null,
) {
  if (has(caller.permission, PERMISSION.develop)) return true;
  if ((own === undefined ? await orgOfUser(ctx.db, caller.id) : own) === org.id) return true;
  return org.user_id !== null && (await isSelfOrDescendant(ctx.db, caller.id, org.user_id));
}

/**
 * Whether the caller manages organisation `orgId`: its manager (organisations.user_id) or an
 * account above the manager; develop manages all. Members working inside it do not: they
 * act for themselves (a patrol check-in), a manager acts for anyone of it (moves accounts
 * in or out, records a check-in for a cleaner).
 */
export async function managesOrg(ctx: AppContext, caller: Caller, orgId: number): Promise<boolean> {
  if (has(caller.permission, PERMISSION.develop)) return true;
  const org = await findOrg(ctx.db, orgId);
  if (!org || org.is_delete || org.user_id === null) return false;
  return isSelfOrDescendant(ctx.db, caller.id, org.user_id);
}

/** A live organisation the caller sees; otherwise 组织不存在 (exactly as a missing one). */
export async function assertOrgSeen(
  ctx: AppContext,
  caller: Caller,
  orgId: number,
  own?: number | null,
): Promise<OrgRecord> {
  const org = await findOrg(ctx.db, orgId);
  if (!org || org.is_delete || !(await seesOrg(ctx, caller, org, own))) throw notFound('组织不存在');
  return org;
}

/**
 * The organisation a new account created by `caller` works inside (issue 15, SPEC §6
 * assignment). An account inside an organisation (an ssManager, an ssUser, an attendance
 * user) creates accounts inside it too, and may name no other: every other name answers
 * 组织不存在, exactly as a missing one. ssSuperSaled and develop name the organisation they
 * create an account for (one they see), else it works in none.
 */
export async function newAccountOrg(ctx: AppContext, caller: Caller, named?: number): Promise<number | null> {
  // Platform accounts (develop, ssSuperSaled) make organisations and their managers; their
  // own organisation (develop's, say, from opening attendance) is not passed on.
  const platform =
    has(caller.permission, PERMISSION.develop) || has(caller.permission, PERMISSION.ssSuperSaled);
  if (platform) return named === undefined ? null : (await assertOrgSeen(ctx, caller, named)).id;
  const own = await orgOfUser(ctx.db, caller.id);
  if (named === undefined || named === own) return own;
  throw notFound('组织不存在');
}

/**
 * Refuses moving `account` (one the caller manages, assertCanManage) from its organisation
 * to `to` (null: out of any) unless the caller manages both (managesOrg): a target it does
 * not see answers 组织不存在 like a missing one. Nobody moves itself, and an organisation's
 * manager (with the accounts above it) stays: the organisation would be left without one.
 */
export async function assertOrgMove(ctx: AppContext, caller: Caller, account: UserRecord, to: number | null) {
  if (account.id === caller.id) throw forbidden('不能修改自己所属的组织');
  if (to !== null) {
    await assertOrgSeen(ctx, caller, to);
    if (!(await managesOrg(ctx, caller, to))) throw forbidden('无权把账号调入该组织');
  }
  const from = account.org_id;
  if (from === null) return;
  if (!(await managesOrg(ctx, caller, from))) throw forbidden('无权把账号调出其所在的组织');
  const manager = await managerAmong(ctx.db, from, account.path);
  if (manager) {
    throw conflict(`${manager.user_name} 是组织「${manager.org_name}」的管理员，不能调出该组织`);
  }
}
