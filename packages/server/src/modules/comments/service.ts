import { keyedHasher } from '../../keyed-hash.ts';
import {
  COMMENT_LIMITS,
  OFFLINE_MS,
  PUBLIC_TOILET_ID,
  commentStarAverage,
  type CommentFilter,
  type ToiletCard,
  type addCommentBody,
} from '@se/core';
import type { z } from 'zod';
import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { pageWindow } from '../../db/sql.ts';
import { notFound, rateLimited } from '../../errors.ts';
import { mutate } from '../audit/mutate.ts';
import { findDevice } from '../devices/repo.ts';
import { findToilet } from '../toilets/repo.ts';
import * as repo from './repo.ts';
import { scopeOf } from '../access/users.ts';
import { seesFewReviewPlaces } from '../access/repo.ts';
import { ruleEngineOf } from '../rules/engine.ts';

const GONE = '厕所不存在或已停用，请扫描厕所内的二维码';

function cardOf(t: repo.ToiletCardRow): ToiletCard {
  return {
    toilet_id: t.public_id,
    name: t.name,
    address: [t.pname, t.cityname, t.adname, t.address]
      // AMap repeats the city for municipalities (北京市 北京市): say it once.
      .filter((part, i, all) => part && all.indexOf(part) === i)
      .join(''),
    star_average: commentStarAverage(t.star_sum, t.star_count),
    star_count: t.star_count,
  };
}

/** The review page's header: only what a visitor needs to know they scanned the right one. */
export async function toiletCard(ctx: AppContext, publicId: string): Promise<ToiletCard> {
  // Anything but a public id (an internal number above all) is an unknown toilet.
  const t = PUBLIC_TOILET_ID.test(publicId) ? await repo.findLiveToilet(ctx.db, publicId) : undefined;
  if (!t) throw notFound(GONE);
  return cardOf(t);
}

/** A keyed hash of the client IP: enough to count, not enough to recover the address. */
const ipHash = keyedHasher(repo.reviewSalt, 'hex');

export async function addComment(ctx: AppContext, b: z.output<typeof addCommentBody>, ip: string) {
  const hash = await ipHash(ctx, ip);
  if (!PUBLIC_TOILET_ID.test(b.toilet_id)) throw notFound(GONE);
  const out = await ctx.db.transaction(async (tx) => {
    const locked = await repo.lockLiveToilet(tx, b.toilet_id);
    if (!locked) throw notFound(GONE);
    const toiletId = locked.id;
    const used = await repo.recentCounts(tx, toiletId, b.visitor_id, hash);
    if (used.visitor >= COMMENT_LIMITS.perVisitorPerHour) {
      throw rateLimited(
        `您在1小时内已对该厕所评价${COMMENT_LIMITS.perVisitorPerHour}次，感谢您的反馈，请稍后再评价`,
      );
    }
    if (used.ip >= COMMENT_LIMITS.perIpPerHour) {
      throw rateLimited('当前网络对该厕所的评价次数已达上限，请1小时后再试');
    }
    const id = await repo.insertPublicComment(tx, {
      toilet_id: toiletId,
      star_level: b.star_level,
      badattitude: b.badattitude,
      inefficiency: b.inefficiency,
      poorsanitary: b.poorsanitary,
      smelly: b.smelly,
      content: b.content,
      sex: b.sex,
      visitor_id: b.visitor_id,
      ip_hash: hash,
    });
    const toilet = await repo.addToToilet(tx, toiletId, b.star_level, 1);
    const terminal = await repo.reviewTerminalOf(tx, toiletId);
    return { toiletId, terminal, answer: { id, star_level: b.star_level, toilet: cardOf(toilet!) } };
  });
  ctx.events.emit('comments', [{ id: out.answer.id, toilet_id: out.toiletId, equipment_id: null }]);
  // Review rules (star level, the four flags) see a QR review as a review of the toilet's
  // evaluation terminal: it counts in the same runs as the terminal's own ratings.
  if (out.terminal !== undefined) {
    ruleEngineOf(ctx)?.enqueue([
      {
        device_id: out.terminal,
        kind: 'evaluate',
        ts: Date.now(),
        data: {
          star_level: b.star_level,
          badattitude: b.badattitude,
          inefficiency: b.inefficiency,
          poorsanitary: b.poorsanitary,
          smelly: b.smelly,
        },
      },
    ]);
  }
  return out.answer;
}

/**
 * The toilet or terminal a filter names must be one the caller can see: a hidden id
 * answers exactly like a missing one.
 */
async function assertFilterIds(ctx: AppContext, scope: string, f: CommentFilter) {
  if (f.toilet_id !== undefined) {
    const t = await findToilet(ctx.db, f.toilet_id, scope);
    if (!t || t.is_delete) throw notFound('厕所不存在');
  }
  if (f.equipment_id !== undefined) {
    const d = await findDevice(ctx.db, 'evaluate', f.equipment_id, scope, OFFLINE_MS.default);
    if (!d || d.is_delete) throw notFound('评价器不存在');
  }
}

/** The caller's scope after checking the ids in the filter. */
export async function filterScope(ctx: AppContext, caller: Caller, f: CommentFilter) {
  const scope = await scopeOf(ctx, caller);
  await assertFilterIds(ctx, scope, f);
  return scope;
}

export async function list(
  ctx: AppContext,
  caller: Caller,
  q: CommentFilter & { page: number; page_size: number },
) {
  const scope = await filterScope(ctx, caller, q);
  const r = await repo.listComments(ctx.db, {
    ...q,
    scope,
    few: await seesFewReviewPlaces(ctx.db, scope, repo.WALK_SCOPE),
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function stats(ctx: AppContext, caller: Caller, q: CommentFilter) {
  const scope = await filterScope(ctx, caller, q);
  return repo.statsOf(ctx.db, { ...q, scope });
}

/**
 * Hides or restores a review. A hidden review leaves the star totals it counted in (its
 * toilet's, its terminal's), a restored one returns to them, in the same transaction.
 */
export async function setHidden(ctx: AppContext, caller: Caller, id: number, hidden: boolean, ip: string) {
  const scope = await scopeOf(ctx, caller);
  const c = await repo.findComment(ctx.db, id, scope);
  if (!c) throw notFound('评价不存在');
  await mutate(ctx, caller, ip, {
    row: c,
    patch: { is_delete: hidden },
    write: async (tx) => {
      const changed = await repo.setHidden(tx, id, hidden);
      if (!changed) return false;
      await adjustTotals(tx, changed, hidden ? -1 : 1);
    },
    audit: {
      action: hidden ? 'comment.hide' : 'comment.restore',
      entity: 'comment',
      entityId: id,
      targetUserId: null,
    },
  });
  return (await repo.findComment(ctx.db, id, scope))!;
}

async function adjustTotals(
  tx: Queryable,
  c: { toilet_id: number | null; equipment_id: number | null; star_level: number },
  sign: 1 | -1,
) {
  // A terminal's rating counts for the terminal and, when it carries one, for its toilet
  // (the ingest adds it to both).
  if (c.toilet_id !== null) await repo.addToToilet(tx, c.toilet_id, c.star_level, sign);
  if (c.equipment_id !== null) await repo.addToTerminal(tx, c.equipment_id, c.star_level, sign);
}
