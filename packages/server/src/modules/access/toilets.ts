/**
 * Rights on toilets: the device model (./devices.ts) applied to toilets. Reporting on site
 * (cleaning/repair flags, a part's state) needs read, so a visitor-only cleaner does it; the
 * set-up a customer runs (document, parts list, placing devices, display tokens) needs
 * operate; the toilet's identity (name, address, gateway, delete, restore) needs manage.
 */
import type { AppContext, Caller } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { atLeast, rightOf, shortOf, type DeviceAccess, type Need } from './devices.ts';
import { toiletFacts } from './repo.ts';
import { scopeOf } from './users.ts';

export async function toiletRight(ctx: AppContext, caller: Caller, id: number): Promise<DeviceAccess | null> {
  const scope = await scopeOf(ctx, caller);
  const facts = await toiletFacts(ctx.db, id, scope);
  if (!facts) return null;
  return { right: rightOf(caller, scope, facts), scope, facts };
}

/** As assertDeviceRight, for a toilet. */
export async function assertToiletRight(
  ctx: AppContext,
  caller: Caller,
  id: number,
  need: Need,
  opts: { what: string; deleted?: boolean },
): Promise<DeviceAccess> {
  const a = await toiletRight(ctx, caller, id);
  // A deleted object is gone for all but those who may restore it.
  const gone = a?.facts.is_delete && !(opts.deleted && atLeast(a.right, 'manage'));
  if (!a || a.right === 'none' || gone) throw notFound('厕所不存在');
  if (!atLeast(a.right, need)) throw shortOf(need, '厕所', opts.what);
  return a;
}
