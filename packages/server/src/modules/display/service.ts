import {
  CODE,
  DISPLAY_TOKEN_INVALID,
  airOf,
  occupancyOf,
  starAverageOrNull,
  type DisplayData,
  type NewDisplayToken,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { audit } from '../audit/service.ts';
import { create } from '../audit/mutate.ts';
import { newToken, sha256 } from '../auth/password.ts';
import { findDocument, toiletDevices } from '../toilets/detail-repo.ts';
import { assertSetUp } from '../toilets/detail-service.ts';
import { get as getToilet } from '../toilets/service.ts';
import * as repo from './repo.ts';

/** More screens than this in one toilet is a leak, not a deployment. */
export const MAX_ACTIVE_TOKENS = 20;
/** How often a screen asks for fresh values. */
export const DISPLAY_REFRESH_SECONDS = 15;

export async function list(ctx: AppContext, caller: Caller, toiletId: number) {
  await getToilet(ctx, caller, toiletId);
  return repo.listTokens(ctx.db, toiletId);
}

/** Creates a token for a screen; the token is answered once and only its hash is kept. */
export async function add(
  ctx: AppContext,
  caller: Caller,
  b: { toilet_id: number; name: string },
  ip: string,
): Promise<NewDisplayToken> {
  await assertSetUp(ctx, caller, b.toilet_id, '创建显示令牌');
  const token = newToken();
  const id = await create(ctx, caller, ip, {
    insert: async (tx) => {
      if ((await repo.activeCount(tx, b.toilet_id)) >= MAX_ACTIVE_TOKENS) {
        throw conflict(`每个厕所最多 ${MAX_ACTIVE_TOKENS} 个有效的显示令牌，请先吊销不用的`);
      }
      return repo.insertToken(tx, {
        toilet_id: b.toilet_id,
        name: b.name,
        token_hash: sha256(token),
        created_by: caller.id,
      });
    },
    audit: { action: 'display.token.add', entity: 'display_token', targetUserId: null },
    after: { toilet_id: b.toilet_id, name: b.name },
  });
  return { ...(await repo.findToken(ctx.db, id))!, token };
}

export async function revoke(ctx: AppContext, caller: Caller, id: number, ip: string) {
  const row = await repo.findToken(ctx.db, id);
  if (!row) throw notFound('显示令牌不存在');
  try {
    await getToilet(ctx, caller, row.toilet_id);
  } catch {
    throw notFound('显示令牌不存在');
  }
  await assertSetUp(ctx, caller, row.toilet_id, '吊销显示令牌');
  if (row.revoked_at === null) {
    await ctx.db.transaction(async (tx) => {
      await repo.revokeToken(tx, id, caller.id);
      await audit(tx, {
        actorId: caller.id,
        targetUserId: null,
        action: 'display.token.revoke',
        entity: 'display_token',
        entityId: id,
        before: { name: row.name },
        after: null,
        ip,
      });
    });
  }
  return (await repo.findToken(ctx.db, id))!;
}

const address = (t: { pname: string; cityname: string; adname: string; address: string }) => {
  const parts: string[] = [];
  for (const p of [t.pname, t.cityname, t.adname, t.address].map((x) => x.trim())) {
    if (p && parts[parts.length - 1] !== p) parts.push(p);
  }
  return parts.join(' ');
};

/** What the screen of a token shows; a revoked or unknown token is refused with 403. */
export async function display(ctx: AppContext, token: string): Promise<DisplayData> {
  const hit = await repo.touchToken(ctx.db, sha256(token));
  const t = hit && (await repo.toiletForDisplay(ctx.db, hit.toilet_id));
  if (!t) throw new AppError(CODE.forbidden, DISPLAY_TOKEN_INVALID);
  const [doc, devices] = await Promise.all([
    findDocument(ctx.db, t.id),
    toiletDevices(ctx.db, t.id, t.gateway_id),
  ]);
  const g = devices.gateway;
  return {
    toilet: { public_id: t.public_id, name: t.name, address: address(t), status: t.status },
    document: {
      open_time: doc.open_time,
      close_time: doc.close_time,
      male_count: doc.male_count,
      female_count: doc.female_count,
      others_count: doc.others_count,
      content: doc.content,
    },
    occupancy: occupancyOf(g?.latest ?? {}, doc),
    air: airOf([...(g ? [g.latest] : []), ...devices.sensors.filter((s) => s.online).map((s) => s.latest)]),
    star_average: starAverageOrNull(t.star_sum, t.star_count),
    star_count: t.star_count,
    gateway_online: g ? g.online : null,
    updated_at: g?.time ?? null,
    server_time: Date.now(),
    refresh_seconds: DISPLAY_REFRESH_SECONDS,
  };
}
