/**
 * Who may see an organisation and what is inside it (campus buildings and rooms, industrial
 * sites, attendance departments and employees): the accounts that work inside it
 * (users.org_id), its manager (organisations.user_id) and every account above the manager;
 * develop sees all. Areas built on organisations ask here, never decide it themselves.
 */
import { PERMISSION, has } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { findOrg, orgOfUser, type OrgRecord } from '../org/repo.ts';
import { isSelfOrDescendant } from '../users/repo.ts';
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
