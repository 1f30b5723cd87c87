/**
 * Who may do what to a device (issue 12): one rights model every device, sensor, dispenser
 * and toilet call asks, written down in docs/permissions.md.
 *
 * - none: the caller does not see the object (answered as "not found", never "forbidden",
 *   so ids of other tenants leak nothing).
 * - read: it is bound to the caller or to an account of the caller's subtree.
 * - operate: read, and the caller holds the user bit (SPEC §6): commands, schedules,
 *   parameter sets, sharing it with the caller's own accounts. A visitor-only account reads.
 * - manage: operate, and the caller registered the object or is a manager above its
 *   registrant in the account tree: edit, delete, restore, read its token. An account it is
 *   merely bound to (a dealer's customer) never manages it. develop manages everything.
 */
import { DEVICE_KINDS, PERMISSION, has, type DeviceKind } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { forbidden, notFound } from '../../errors.ts';
import { deviceFacts, type AccessFacts } from './repo.ts';
import { scopeOf } from './users.ts';

export type Right = 'none' | 'read' | 'operate' | 'manage';
export type Need = Exclude<Right, 'none'>;

const LEVEL: Record<Right, number> = { none: 0, read: 1, operate: 2, manage: 3 };

export const atLeast = (right: Right, need: Need) => LEVEL[right] >= LEVEL[need];

/**
 * The right of a caller whose scope (user path, '/' for develop) is `scope` on an object
 * described by `facts`. Pure: the whole model is this function.
 */
export function rightOf(
  caller: Pick<Caller, 'permission'>,
  scope: string,
  facts: Pick<AccessFacts, 'visible' | 'registrant_path'> & { kind?: string },
): Right {
  if (has(caller.permission, PERMISSION.develop)) return 'manage';
  if (!facts.visible) return 'none';
  if (!has(caller.permission, PERMISSION.user) && !roleDevice(caller, facts.kind)) return 'read';
  if (facts.registrant_path !== null && facts.registrant_path.startsWith(scope)) return 'manage';
  return 'operate';
}

/**
 * Kinds that belong to a role of their own: there its bit acts as the user bit, so an
 * attendance account registers and runs its clock-in terminals and a media account its
 * players without being a toilet-console user (SPEC §6: media and attendance are roles of
 * their own, assigned by superSaled).
 */
const ROLE_KINDS: Partial<Record<string, number>> = {
  attendance: PERMISSION.attendance,
  player: PERMISSION.media,
};

export const roleDevice = (caller: Pick<Caller, 'permission'>, kind: string | undefined) => {
  const bit = kind === undefined ? undefined : ROLE_KINDS[kind];
  return bit !== undefined && has(caller.permission, bit);
};

/** A device of a kind, a sensor, or any device (commands, device info, history). */
export type DeviceTarget = DeviceKind | 'sensor' | 'device';

export const labelOf = (kind: DeviceTarget) =>
  kind === 'sensor' ? '传感器' : kind === 'device' ? '设备' : DEVICE_KINDS[kind].label;

/** The refusal for a caller whose right falls short of `need` on a visible object. */
export function shortOf(need: Need, label: string, what: string) {
  if (need === 'operate') return forbidden(`只有用户及以上角色可以${what}`);
  return forbidden(`只有登记该${label}的账号及其上级可以${what}`);
}

export interface DeviceAccess {
  right: Right;
  scope: string;
  facts: AccessFacts;
}

/** The caller's right on one device (none when the id is unknown or of another kind). */
export async function deviceRight(
  ctx: AppContext,
  caller: Caller,
  kind: DeviceTarget,
  id: number,
): Promise<DeviceAccess | null> {
  const scope = await scopeOf(ctx, caller);
  const [facts] = await deviceFacts(ctx.db, [id], scope, kind === 'device' ? undefined : kind);
  if (!facts) return null;
  return { right: rightOf(caller, scope, facts), scope, facts };
}

/**
 * Refuses unless the caller holds `need` on the device: 404 when it does not see it (or it
 * is deleted, unless `deleted` allows that: restoring), 403 naming who may when it sees it.
 */
export async function assertDeviceRight(
  ctx: AppContext,
  caller: Caller,
  kind: DeviceTarget,
  id: number,
  need: Need,
  opts: { what: string; deleted?: boolean },
): Promise<DeviceAccess> {
  const a = await deviceRight(ctx, caller, kind, id);
  const label = labelOf(kind);
  // A deleted object is gone for all but those who may restore it.
  const gone = a?.facts.is_delete && !(opts.deleted && atLeast(a.right, 'manage'));
  if (!a || a.right === 'none' || gone) throw notFound(`${label}不存在`);
  if (!atLeast(a.right, need)) throw shortOf(need, label, opts.what);
  return a;
}

/** The ids among `ids` (live, of the kind) on which the caller holds `need`. */
export async function idsWithRight(
  q: Queryable,
  caller: Caller,
  scope: string,
  kind: DeviceTarget,
  ids: number[],
  need: Need,
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const facts = await deviceFacts(q, ids, scope, kind === 'device' ? undefined : kind);
  return new Set(
    facts.filter((f) => !f.is_delete && atLeast(rightOf(caller, scope, f), need)).map((f) => f.id),
  );
}
