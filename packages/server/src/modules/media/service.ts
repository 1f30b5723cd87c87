/**
 * Media content libraries (issue 17): pictures, videos and text notices of a media user,
 * reviewed (审核) before a playlist may use them. Who may see or touch an item is asked of
 * modules/access (the owner's account must be in the caller's subtree); every add, edit,
 * delete and review decision goes through create/mutate and is audited.
 *
 * Review: an item is 待审核 when added and again whenever what the screen shows changes
 * (a text's notice; a rename does not). A reviewer is an account above the owner in the
 * account tree holding the dealer bit (dealers, OEMs, back-office managers), or a developer;
 * nobody reviews their own content. See docs/media.md.
 */
import {
  MEDIA_LIMITS,
  MEDIA_STATUS,
  PERMISSION,
  has,
  type MediaItemRow,
  type MediaKind,
  type MediaListQuery,
  type MediaTextBody,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest, conflict, forbidden } from '../../errors.ts';
import { create, mutate } from '../audit/mutate.ts';
import { managedUserId, scopeOf, seenRow } from '../access/users.ts';
import { storage } from '../files/storage.ts';
import * as repo from './repo.ts';
import { signMediaPath } from './signing.ts';

const MISSING = '内容不存在';

/** The row with its signed preview links. */
export async function withLinks(ctx: AppContext, r: repo.ItemRow): Promise<MediaItemRow> {
  return {
    ...r,
    file_url: r.stored ? await signMediaPath(ctx, r.id, 'file') : null,
    thumb_url: r.has_thumb ? await signMediaPath(ctx, r.id, 'thumb') : null,
  };
}

/** Item `id` as the API answers it. */
export async function answer(ctx: AppContext, id: number): Promise<MediaItemRow> {
  return withLinks(ctx, (await repo.itemRow(ctx.db, id))!);
}

/** One page of the caller's items, narrowed by `filter`, each with its signed links. */
async function page(
  ctx: AppContext,
  caller: Caller,
  q: MediaListQuery,
  filter: { kind?: MediaKind; status?: MediaListQuery['status']; notUserId?: number },
) {
  const r = await repo.listItems(ctx.db, {
    scope: await scopeOf(ctx, caller),
    ...filter,
    userId: q.user_id,
    keywords: q.keywords || undefined,
    ...pageWindow(q),
  });
  return {
    ...r,
    list: await Promise.all(r.list.map((x) => withLinks(ctx, x))),
    page: q.page,
    page_size: q.page_size,
  };
}

export const list = (ctx: AppContext, caller: Caller, kind: MediaKind, q: MediaListQuery) =>
  page(ctx, caller, q, { kind, status: q.status });

/** A live item whose owner the caller manages (itself or its subtree); anything else is 内容不存在. */
export function load(ctx: AppContext, caller: Caller, id: number) {
  return repo.findItem(ctx.db, id).then((row) => seenRow(ctx, caller, row, MISSING));
}

export async function row(ctx: AppContext, caller: Caller, id: number): Promise<MediaItemRow> {
  await load(ctx, caller, id);
  return answer(ctx, id);
}

async function added(ctx: AppContext, caller: Caller, ip: string, v: repo.NewItem) {
  const id = await create(ctx, caller, ip, {
    insert: (tx) => repo.insertItem(tx, v),
    audit: { action: 'media.add', entity: 'media_item', targetUserId: v.user_id },
    after: {
      kind: v.kind,
      name: v.name,
      url: v.url ?? undefined,
      size: v.size,
      mime: v.mime,
      text_body: v.text_body ?? undefined,
    },
  });
  return answer(ctx, id);
}

export async function addUrl(
  ctx: AppContext,
  caller: Caller,
  ip: string,
  b: { kind: 'picture' | 'video'; name: string; url: string; target_user_id?: number },
) {
  const userId = await managedUserId(ctx, caller, b.target_user_id);
  return added(ctx, caller, ip, { user_id: userId, kind: b.kind, name: b.name, url: b.url });
}

export async function addText(
  ctx: AppContext,
  caller: Caller,
  ip: string,
  b: { name: string; text_body: MediaTextBody; target_user_id?: number },
) {
  const userId = await managedUserId(ctx, caller, b.target_user_id);
  return added(ctx, caller, ip, { user_id: userId, kind: 'text', name: b.name, text_body: b.text_body });
}

/** The review fields an edit of what the screen shows puts back to 待审核. */
const BACK_TO_PENDING = {
  status: MEDIA_STATUS.pending,
  reject_reason: '',
  reviewed_by: null,
  reviewed_at: null,
};

export async function updateText(
  ctx: AppContext,
  caller: Caller,
  ip: string,
  b: { id: number; name?: string; text_body?: MediaTextBody },
) {
  const item = await load(ctx, caller, b.id);
  if (item.kind !== 'text') throw badRequest('只有文字内容可以编辑正文');
  const bodyChanged =
    b.text_body !== undefined && JSON.stringify(b.text_body) !== JSON.stringify(item.text_body);
  await mutate(ctx, caller, ip, {
    row: item,
    patch: { name: b.name, ...(bodyChanged ? { text_body: b.text_body, ...BACK_TO_PENDING } : {}) },
    table: repo.MEDIA_ITEMS,
    audit: { action: 'media.update', entity: 'media_item', entityId: item.id, targetUserId: item.user_id },
  });
  return answer(ctx, item.id);
}

export async function rename(ctx: AppContext, caller: Caller, ip: string, id: number, name: string) {
  const item = await load(ctx, caller, id);
  await mutate(ctx, caller, ip, {
    row: item,
    patch: { name },
    table: repo.MEDIA_ITEMS,
    audit: { action: 'media.update', entity: 'media_item', entityId: item.id, targetUserId: item.user_id },
  });
  return answer(ctx, item.id);
}

/** Soft-deletes an item no live playlist uses (else: refused with the playlists' names). */
export async function remove(ctx: AppContext, caller: Caller, ip: string, id: number) {
  const item = await load(ctx, caller, id);
  const using = await repo.playlistsUsing(ctx.db, item.id);
  if (using.length) throw conflict(`该内容正在以下节目单中使用，请先从节目单中移除：${using.join('、')}`);
  await mutate(ctx, caller, ip, {
    row: item,
    patch: { is_delete: true },
    table: repo.MEDIA_ITEMS,
    audit: { action: 'media.delete', entity: 'media_item', entityId: item.id, targetUserId: item.user_id },
  });
  // The files go with the row: a deleted item is never served again, and its bytes leave the quota.
  const store = storage(ctx);
  for (const key of [item.storage_key, item.thumb_key, item.poster_key]) {
    if (key) await store.remove(key).catch((err) => ctx.log.warn({ err, key }, 'media file not removed'));
  }
  return null;
}

// ---- review ----

/** Whether `caller` may decide on items of the account at `ownerPath` (owner `ownerId`). */
export function canReview(caller: Caller, callerPath: string, ownerId: number, ownerPath: string) {
  if (has(caller.permission, PERMISSION.develop)) return true;
  if (caller.id === ownerId) return false;
  if (!has(caller.permission, PERMISSION.dealer)) return false;
  return ownerPath.startsWith(callerPath) && ownerPath !== callerPath;
}

export async function reviewList(ctx: AppContext, caller: Caller, q: MediaListQuery & { kind?: MediaKind }) {
  const isDev = has(caller.permission, PERMISSION.develop);
  if (!isDev && !has(caller.permission, PERMISSION.dealer))
    throw forbidden('只有经销商、OEM 或开发者可以审核内容');
  return page(ctx, caller, q, {
    kind: q.kind,
    status: q.status ?? MEDIA_STATUS.pending,
    notUserId: isDev ? undefined : caller.id,
  });
}

export async function decide(
  ctx: AppContext,
  caller: Caller,
  ip: string,
  b: { id: number; approve: boolean; reason: string },
) {
  const item = await load(ctx, caller, b.id);
  const scope = await scopeOf(ctx, caller);
  if (!canReview(caller, scope, item.user_id, item.user_path)) {
    throw forbidden(
      caller.id === item.user_id
        ? '不能审核自己的内容，请由上级经销商或 OEM 审核'
        : '只有上级经销商、OEM 或开发者可以审核该内容',
    );
  }
  const status = b.approve ? MEDIA_STATUS.approved : MEDIA_STATUS.rejected;
  await mutate(ctx, caller, ip, {
    row: item,
    patch: {
      status,
      reject_reason: b.approve ? '' : b.reason,
      reviewed_by: caller.id,
      reviewed_at: new Date().toISOString(),
    },
    table: repo.MEDIA_ITEMS,
    check: () => {
      if (item.status === status && (b.approve || item.reject_reason === b.reason)) {
        throw conflict(b.approve ? '该内容已通过审核' : '该内容已驳回');
      }
    },
    audit: {
      action: b.approve ? 'media.approve' : 'media.reject',
      entity: 'media_item',
      entityId: item.id,
      targetUserId: item.user_id,
    },
  });
  return answer(ctx, item.id);
}

// ---- quota ----

export async function quotaOf(ctx: AppContext, userId: number) {
  const u = await repo.usageOf(ctx.db, userId);
  return { used: u.used, items: u.items, quota: u.quota ?? MEDIA_LIMITS.quotaBytes };
}

export async function quota(ctx: AppContext, caller: Caller, targetUserId?: number) {
  return quotaOf(ctx, await managedUserId(ctx, caller, targetUserId));
}

/** Sets another account's quota (one the caller manages; nobody raises their own). */
export async function setQuota(
  ctx: AppContext,
  caller: Caller,
  ip: string,
  targetUserId: number,
  mb: number,
) {
  if (targetUserId === caller.id && !has(caller.permission, PERMISSION.develop)) {
    throw forbidden('不能修改自己的存储配额');
  }
  await managedUserId(ctx, caller, targetUserId);
  const before = await quotaOf(ctx, targetUserId);
  const bytes = mb * 1024 * 1024;
  await mutate(ctx, caller, ip, {
    row: { quota: before.quota },
    patch: { quota: bytes },
    write: (tx) => repo.setQuota(tx, targetUserId, bytes),
    audit: { action: 'media.quota', entity: 'user', entityId: targetUserId, targetUserId },
  });
  return quotaOf(ctx, targetUserId);
}
