/**
 * Who a caller may see and manage among accounts: its own subtree of the account tree
 * (developers see everything). Every area that lists or changes per-account data asks here,
 * so the audit log, users and the device areas share one rule without importing each other.
 */
import { PERMISSION, has } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { forbidden, notFound } from '../../errors.ts';
import { findUser, isSelfOrDescendant } from '../users/repo.ts';

/**
 * Account paths by id, per database: a path never changes (an account's parent is its
 * creator for good, migration 0002), and nearly every request asks for its caller's, so it
 * is read once instead of one round trip a request. Bounded: the oldest entry goes first.
 */
const paths = new WeakMap<object, Map<number, string>>();
const PATHS_MAX = 50_000;

/** The account-tree path prefix the caller may see ('/' for developers). */
export async function scopeOf(ctx: AppContext, caller: Caller): Promise<string> {
  if (has(caller.permission, PERMISSION.develop)) return '/';
  let known = paths.get(ctx.db);
  if (!known) paths.set(ctx.db, (known = new Map()));
  const cached = known.get(caller.id);
  if (cached) return cached;
  const me = await findUser(ctx.db, caller.id);
  if (!me) return `/${caller.id}/`;
  if (known.size >= PATHS_MAX) known.delete(known.keys().next().value!);
  known.set(caller.id, me.path);
  return me.path;
}

/** Loads nothing: decides whether `caller` may read or change user `id` (itself or its subtree). */
export async function assertCanManage(ctx: AppContext, caller: Caller, id: number) {
  if (caller.id === id || has(caller.permission, PERMISSION.develop)) return;
  if (!(await isSelfOrDescendant(ctx.db, caller.id, id))) throw forbidden('无权查看或修改该用户');
}

/** The account a request acts for (`target_user_id`, else the caller), once the caller may manage it. */
export async function managedUserId(ctx: AppContext, caller: Caller, targetUserId: number | undefined) {
  const userId = targetUserId ?? caller.id;
  await assertCanManage(ctx, caller, userId);
  return userId;
}

/** A live account the caller may manage; a deleted or missing one is "not found". */
export async function managedUser(ctx: AppContext, caller: Caller, id: number) {
  await assertCanManage(ctx, caller, id);
  const u = await findUser(ctx.db, id);
  if (!u || u.is_delete) throw notFound('用户不存在');
  return u;
}

/** A live row owned by an account the caller may manage; a deleted or missing one is "not found". */
export async function managedRow<T extends { is_delete: boolean; user_id: number }>(
  ctx: AppContext,
  caller: Caller,
  row: T | undefined,
  missing: string,
): Promise<T> {
  if (!row || row.is_delete) throw notFound(missing);
  await assertCanManage(ctx, caller, row.user_id);
  return row;
}

/**
 * As managedRow, but a row of an account the caller may not manage answers exactly like a
 * missing one (404), so no tenant learns which ids another one has.
 */
export function seenRow<T extends { is_delete: boolean; user_id: number }>(
  ctx: AppContext,
  caller: Caller,
  row: T | undefined,
  missing: string,
): Promise<T> {
  return managedRow(ctx, caller, row, missing).catch((e: { code?: number }) => {
    throw e.code === 403 ? notFound(missing) : e;
  });
}
