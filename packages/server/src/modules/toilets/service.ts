import {
  OFFLINE_MS,
  OPERATOR_STATUS_FLAGS,
  type AddToiletBody,
  type BindBody,
  type UpdateToiletBody,
} from '@se/core';
import type { z } from 'zod';
import type { toiletListQuery } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { forbidden, notFound } from '../../errors.ts';
import { has, PERMISSION } from '@se/core';
import { create, mutate } from '../audit/mutate.ts';
import { findDevice } from '../devices/repo.ts';
import * as repo from './repo.ts';
import { applyBinding } from '../bindings/service.ts';
import { atLeast, shortOf } from '../access/devices.ts';
import { assertToiletRight } from '../access/toilets.ts';
import { revokeAllDisplayTokens } from '../display/repo.ts';
import { insertStatusLog, unplaceAll } from './detail-repo.ts';
import { assertCanManage, managedUser, scopeOf } from '../access/users.ts';

/** A toilet may only point at a gateway the caller can see: no ids leak through the link. */
async function assertGateway(ctx: AppContext, scope: string, gatewayId: number) {
  const g = await findDevice(ctx.db, 'gateway', gatewayId, scope, OFFLINE_MS.default);
  if (!g || g.is_delete) throw notFound('网关不存在');
}

export async function list(
  ctx: AppContext,
  caller: Caller,
  q: z.output<typeof toiletListQuery>,
  opts: { exact?: boolean } = {},
) {
  const scope = await scopeOf(ctx, caller);
  let ownerScope: string | undefined;
  if (q.owner_id !== undefined) {
    ownerScope = (await managedUser(ctx, caller, q.owner_id)).path;
  }
  const r = await repo.listToilets(ctx.db, {
    scope,
    keywords: q.keywords || undefined,
    status: q.status,
    ownerScope,
    ...pageWindow(q),
    exact: opts.exact,
    json: true,
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function get(ctx: AppContext, caller: Caller, id: number) {
  const t = await repo.findToilet(ctx.db, id, await scopeOf(ctx, caller));
  if (!t || t.is_delete) throw notFound('厕所不存在');
  return t;
}

export async function add(ctx: AppContext, caller: Caller, b: AddToiletBody, ip: string) {
  if (!has(caller.permission, PERMISSION.user)) throw forbidden('只有用户及以上角色可以登记厕所');
  const scope = await scopeOf(ctx, caller);
  if (b.gateway_id !== undefined) await assertGateway(ctx, scope, b.gateway_id);
  const id = await create(ctx, caller, ip, {
    insert: async (tx) => {
      const id = await repo.insertToilet(tx, b);
      await repo.bindToilets(tx, caller.id, [id]);
      return id;
    },
    audit: { action: 'device.add', entity: 'toilet', targetUserId: caller.id },
    after: { name: b.name },
  });
  return get(ctx, caller, id);
}

/**
 * Edits, deletes (is_delete true) or restores (is_delete false on a deleted one) a toilet:
 * the toilet's managers (modules/access/toilets.ts). The cleaning/repair switches of the
 * list come through here too and, as set-status, need only read: the cleaner's work.
 */
export async function update(ctx: AppContext, caller: Caller, b: UpdateToiletBody, ip: string) {
  const restoring = b.is_delete === false;
  const a = await assertToiletRight(ctx, caller, b.id, 'read', { what: '查看厕所', deleted: restoring });
  const scope = a.scope;
  const t = (await repo.findToilet(ctx.db, b.id, scope))!;
  await mutate(ctx, caller, ip, {
    row: t,
    patch: { ...b, id: undefined, gateway_id: b.gateway_id === 0 ? null : b.gateway_id },
    check: async (c) => {
      if (Object.keys(c.after).some((k) => k !== 'status') && !atLeast(a.right, 'manage')) {
        throw shortOf(
          'manage',
          '厕所',
          b.is_delete ? '删除厕所' : restoring && t.is_delete ? '恢复厕所' : '修改厕所',
        );
      }
      if (b.gateway_id) await assertGateway(ctx, scope, b.gateway_id);
    },
    table: repo.TOILETS,
    write: async (tx, set) => {
      // Flags switched through a plain update (the list's switches) enter the history too.
      const status = set.status;
      if (typeof status === 'number') {
        const changed = OPERATOR_STATUS_FLAGS.filter((f) => (t.status & f) !== (status & f));
        await insertStatusLog(
          tx,
          changed.map((f) => ({
            toilet_id: t.id,
            flag: f,
            on: (status & f) !== 0,
            note: '',
            user_id: caller.id,
          })),
        );
      }
      if (b.is_delete) {
        // A deleted toilet holds no devices and no screen shows it any more.
        await unplaceAll(tx, t.id);
        await revokeAllDisplayTokens(tx, t.id, caller.id);
      }
    },
    audit: {
      action: b.is_delete ? 'device.delete' : t.is_delete ? 'device.restore' : 'device.update',
      entity: 'toilet',
      entityId: t.id,
      targetUserId: null,
    },
  });
  return b.is_delete ? { ...t, is_delete: true } : get(ctx, caller, t.id);
}

export async function bindList(
  ctx: AppContext,
  caller: Caller,
  q: { target_user_id: number; keywords?: string; only_bound: boolean; page: number; page_size: number },
) {
  await assertCanManage(ctx, caller, q.target_user_id);
  const r = await repo.listForBinding(ctx.db, {
    scope: await scopeOf(ctx, caller),
    targetUserId: q.target_user_id,
    keywords: q.keywords || undefined,
    onlyBound: q.only_bound,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export function bind(ctx: AppContext, caller: Caller, b: BindBody, ip: string) {
  return applyBinding(
    ctx,
    caller,
    {
      label: '厕所',
      entity: 'toilet',
      visible: repo.visibleToiletIds,
      bind: repo.bindToilets,
      unbind: repo.unbindToilets,
    },
    b,
    ip,
  );
}
