import type { MessagesEvent } from '@se/core';
import type { z } from 'zod';
import type { messagesQuery } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { pageWindow } from '../../db/sql.ts';
import { notFound } from '../../errors.ts';
import * as repo from './repo.ts';

/** Tells the live side (the /ws 'messages' channel) that these users' unread counts changed. */
export function announce(ctx: AppContext, changes: MessagesEvent[]) {
  if (!changes.length) return;
  // One entry per user: the last count a statement answered is the newest.
  const latest = new Map(changes.map((c) => [c.user_id, c.unread]));
  ctx.events.emit(
    'messages',
    [...latest].map(([user_id, unread]) => ({ user_id, unread })),
  );
}

/** Inserts inbox messages inside the caller's transaction (announce after it commits). */
export const deliver = (tx: Queryable, rows: repo.NewMessage[]) => repo.insertMessages(tx, rows);

/** Alarm changes → inbox messages for everyone who sees the device; announces the counts. */
export async function alarmsToInbox(ctx: AppContext, alarmIds: number[]) {
  const changes = await ctx.db.transaction((tx) => repo.alarmsToInbox(tx, alarmIds));
  announce(ctx, changes);
  return changes;
}

export async function list(ctx: AppContext, caller: Caller, q: z.output<typeof messagesQuery>) {
  const r = await repo.listMessages(ctx.db, {
    userId: caller.id,
    read: q.read,
    kind: q.kind,
    keywords: q.keywords || undefined,
    start: q.start,
    end: q.end,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function unread(ctx: AppContext, caller: Caller) {
  return { unread: await repo.unreadOf(ctx.db, caller.id) };
}

/** Every id must be one of the caller's own messages; otherwise nothing changes. */
async function own(tx: Queryable, caller: Caller, ids: number[]) {
  const unique = [...new Set(ids)];
  if ((await repo.countOwn(tx, caller.id, unique)) !== unique.length) throw notFound('消息不存在或已删除');
  return unique;
}

export async function markRead(ctx: AppContext, caller: Caller, ids: number[]) {
  const unread = await ctx.db.transaction(async (tx) =>
    repo.markRead(tx, caller.id, await own(tx, caller, ids)),
  );
  announce(ctx, [{ user_id: caller.id, unread }]);
  return { unread };
}

export async function readAll(ctx: AppContext, caller: Caller) {
  const unread = await ctx.db.transaction((tx) => repo.markRead(tx, caller.id, null));
  announce(ctx, [{ user_id: caller.id, unread }]);
  return { unread };
}

export async function remove(ctx: AppContext, caller: Caller, ids: number[]) {
  const unread = await ctx.db.transaction(async (tx) =>
    repo.removeMessages(tx, caller.id, await own(tx, caller, ids)),
  );
  announce(ctx, [{ user_id: caller.id, unread }]);
  return { unread };
}
