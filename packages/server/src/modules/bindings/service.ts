import type { BindBody } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import { audit } from '../audit/service.ts';
import { managedUser, scopeOf } from '../access/users.ts';

/** What differs between binding devices and binding toilets. */
export interface Bindable {
  /** Chinese name of the objects, for messages. */
  label: string;
  /** Audit entity. */
  entity: string;
  /** The ids among `ids` the scope may see. */
  visible(tx: Queryable, ids: number[], scope: string): Promise<Set<number>>;
  bind(tx: Queryable, userId: number, ids: number[]): Promise<unknown>;
  unbind(tx: Queryable, userId: number, ids: number[]): Promise<unknown>;
}

/**
 * SPEC §4/§7: add_ids and remove_ids together, in one transaction, all or nothing. Every id
 * must be an object the caller can see, and the user one the caller manages.
 */
export async function applyBinding(ctx: AppContext, caller: Caller, what: Bindable, b: BindBody, ip: string) {
  await managedUser(ctx, caller, b.user_id);
  const overlap = b.add_ids.filter((id) => b.remove_ids.includes(id));
  if (overlap.length) throw badRequest(`${what.label} ${overlap.join('、')} 不能同时绑定和解绑`);
  const scope = await scopeOf(ctx, caller);
  const all = [...new Set([...b.add_ids, ...b.remove_ids])];
  await ctx.db.transaction(async (tx) => {
    const visible = await what.visible(tx, all, scope);
    const missing = all.filter((id) => !visible.has(id));
    if (missing.length) throw notFound(`${what.label} ${missing.join('、')} 不存在或无权操作`);
    await what.bind(tx, b.user_id, b.add_ids);
    await what.unbind(tx, b.user_id, b.remove_ids);
    await audit(tx, {
      actorId: caller.id,
      targetUserId: b.user_id,
      action: 'device.bind',
      entity: what.entity,
      entityId: null,
      before: { remove_ids: b.remove_ids },
      after: { add_ids: b.add_ids },
      ip,
    });
  });
  return null;
}
