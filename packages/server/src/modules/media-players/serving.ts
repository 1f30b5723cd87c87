import { CODE } from '@se/core';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import * as repo from './repo.ts';
import { checkMediaLink } from './signing.ts';

async function checked(ctx: AppContext, item: number, q: { d: number; e: number; s: string }) {
  const ok = await checkMediaLink(ctx, item, q.d, q.e, q.s);
  if (ok === 'expired') throw new AppError(CODE.expired, '链接已过期，请重新同步播放清单');
  if (ok !== 'ok') throw notFound('文件不存在');
}

/**
 * The stored file a screen's link names: the signature must be this item's for this screen,
 * and a live schedule must still put the item on it (a withdrawn notice's links stop working).
 */
export async function storedFor(ctx: AppContext, q: { i: number; d: number; e: number; s: string }) {
  await checked(ctx, q.i, q);
  const item = await repo.storedItem(ctx.db, q.i);
  if (!item || item.is_delete || !item.storage_key || !(await repo.itemScheduledOn(ctx.db, q.d, q.i)))
    throw notFound('文件不存在');
  // image/jpeg → .jpeg: the type was checked by the bytes when the file was stored.
  const ext = /^(image|video)\/([a-z0-9]+)$/.exec(item.mime)?.[2];
  return { key: item.storage_key, filename: ext ? `${item.name}.${ext}` : item.name };
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The live data zone: the screen's toilet's latest air, occupancy and star rating. */
export async function liveDataFor(ctx: AppContext, q: { d: number; e: number; s: string }) {
  await checked(ctx, 0, q);
  const r = await repo.liveDataOf(ctx.db, q.d);
  if (!r) throw notFound('播放器未关联厕所');
  const l = r.latest ?? {};
  const occupancy: Record<string, { occupy: number; count: number }> = {};
  for (const g of ['male', 'female', 'others']) {
    const count = num(l[`${g}_count`]);
    if (count !== null) occupancy[g] = { occupy: num(l[`${g}_occupy`]) ?? 0, count };
  }
  return {
    toilet_name: r.toilet_name,
    nh3: num(l.nh3),
    h2s: num(l.h2s),
    pm25: num(l.pm25),
    co2: num(l.co2),
    occupancy,
    star: r.star_count ? Math.round((r.star_sum / r.star_count) * 10) / 10 : null,
    updated_at: r.time,
  };
}
