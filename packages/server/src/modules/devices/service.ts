import crypto from 'node:crypto';
import {
  DEVICE_KINDS,
  PERMISSION,
  STATUS_FILTER,
  has,
  type AddDeviceBody,
  type BindBody,
  type DeviceKind,
  type DeviceListQuery,
  type UpdateDeviceBody,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { offset } from '../../db/sql.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { audit, diff, scopeOf } from '../audit/service.ts';
import { findUser } from '../users/repo.ts';
import { assertCanManage } from '../users/service.ts';
import * as repo from './repo.ts';
import { applyBinding } from '../bindings/service.ts';

/** A device token: what the device signs in with (MQTT password / HTTP header). */
export const newDeviceToken = () => crypto.randomBytes(18).toString('base64url');

function onlineFilter(status: number | undefined): boolean | undefined {
  if (!status) return undefined;
  const on = (status & STATUS_FILTER.online) !== 0;
  const off = (status & STATUS_FILTER.offline) !== 0;
  return on === off ? undefined : on;
}

/** The list's query as a repository filter: the caller's scope and an owner they may manage. */
export async function filterOf(
  ctx: AppContext,
  caller: Caller,
  kind: DeviceKind,
  q: Omit<DeviceListQuery, 'page' | 'page_size'>,
): Promise<Omit<repo.DeviceFilter, 'limit' | 'offset'>> {
  const scope = await scopeOf(ctx, caller);
  let ownerScope: string | undefined;
  if (q.owner_id !== undefined) {
    await assertCanManage(ctx, caller, q.owner_id);
    const owner = await findUser(ctx.db, q.owner_id);
    if (!owner || owner.is_delete) throw notFound('用户不存在');
    ownerScope = owner.path;
  }
  return {
    kind,
    scope,
    offlineMs: DEVICE_KINDS[kind].offline,
    keywords: q.keywords || undefined,
    online: onlineFilter(q.status),
    type: q.type,
    industrialType: q.industrial_type || undefined,
    ownerScope,
    gatewayId: q.gateway_id,
  };
}

export async function list(ctx: AppContext, caller: Caller, kind: DeviceKind, q: DeviceListQuery) {
  const f = await filterOf(ctx, caller, kind, q);
  const r = await repo.listDevices(ctx.db, {
    ...f,
    limit: q.page_size,
    offset: offset(q.page, q.page_size),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

async function load(ctx: AppContext, caller: Caller, kind: DeviceKind, id: number) {
  const scope = await scopeOf(ctx, caller);
  const d = await repo.findDevice(ctx.db, kind, id, scope, DEVICE_KINDS[kind].offline);
  if (!d || d.is_delete) throw notFound(`${DEVICE_KINDS[kind].label}不存在`);
  return d;
}

export const get = load;

function duplicateSerNum(err: unknown) {
  const e = err as { code?: string };
  return e?.code === '23505' ? conflict('序列号已存在') : err;
}

/**
 * The row of a newly registered device: a server-generated token, the kind's fixed type
 * (gateways default to 40) and, for dispensers, the default parameter set 2.
 */
export function insertRegistered(tx: Queryable, kind: DeviceKind, b: AddDeviceBody) {
  return repo.insertDevice(tx, {
    kind,
    ser_num: b.ser_num,
    desc: b.desc,
    lng: b.lng,
    lat: b.lat,
    location: b.location,
    version: b.version,
    url: b.url,
    token: newDeviceToken(),
    type: DEVICE_KINDS[kind].type ?? (kind === 'gateway' ? (b.type ?? 40) : null),
    industrial_type: b.industrial_type,
    parameter_num: kind === 'jwb' ? 2 : undefined,
  });
}

/** Registers a device bound to its registrant, with a server-generated token. */
export async function add(ctx: AppContext, caller: Caller, kind: DeviceKind, b: AddDeviceBody, ip: string) {
  if (!has(caller.permission, PERMISSION.user)) throw forbidden('只有用户及以上角色可以登记设备');
  if (kind === 'gateway' && b.type !== undefined && b.type !== 40 && b.type !== 43) {
    throw badRequest('网关类型只能是 40（智慧网关精简版）或 43（控制中心多媒体版）');
  }
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const id = await insertRegistered(tx, kind, b);
      await repo.bindDevices(tx, caller.id, [id]);
      await audit(tx, {
        actorId: caller.id,
        targetUserId: caller.id,
        action: 'device.add',
        entity: kind,
        entityId: id,
        before: null,
        after: { ser_num: b.ser_num, desc: b.desc },
        ip,
      });
      return id;
    });
    return load(ctx, caller, kind, id);
  } catch (err) {
    throw duplicateSerNum(err);
  }
}

export async function update(
  ctx: AppContext,
  caller: Caller,
  kind: DeviceKind,
  b: UpdateDeviceBody,
  ip: string,
) {
  const d = await load(ctx, caller, kind, b.id);
  if (kind === 'gateway' && b.type !== undefined && b.type !== 40 && b.type !== 43) {
    throw badRequest('网关类型只能是 40（智慧网关精简版）或 43（控制中心多媒体版）');
  }
  const change = {
    is_delete: b.is_delete,
    desc: b.desc,
    lng: b.lng,
    lat: b.lat,
    location: b.location,
    version: b.version,
    url: b.url,
    type: DEVICE_KINDS[kind].type === null ? b.type : undefined,
    industrial_type: b.industrial_type,
  };
  const c = diff(d, change);
  if (c.changed) {
    await ctx.db.transaction(async (tx) => {
      await repo.updateDevice(tx, d.id, c.after);
      await audit(tx, {
        actorId: caller.id,
        targetUserId: null,
        action: b.is_delete ? 'device.delete' : 'device.update',
        entity: kind,
        entityId: d.id,
        before: c.before,
        after: c.after,
        ip,
      });
    });
  }
  if (b.is_delete) {
    ctx.directory.forget(d.ser_num);
    return { ...d, is_delete: true };
  }
  return load(ctx, caller, kind, d.id);
}

export async function bindList(
  ctx: AppContext,
  caller: Caller,
  kind: DeviceKind,
  q: { target_user_id: number; keywords?: string; only_bound: boolean; page: number; page_size: number },
) {
  await assertCanManage(ctx, caller, q.target_user_id);
  const scope = await scopeOf(ctx, caller);
  const r = await repo.listForBinding(ctx.db, {
    kind,
    scope,
    targetUserId: q.target_user_id,
    keywords: q.keywords || undefined,
    onlyBound: q.only_bound,
    limit: q.page_size,
    offset: offset(q.page, q.page_size),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export function bind(ctx: AppContext, caller: Caller, kind: DeviceKind, b: BindBody, ip: string) {
  return applyBinding(
    ctx,
    caller,
    {
      label: DEVICE_KINDS[kind].label,
      entity: kind,
      visible: (tx, ids, scope) => repo.visibleIds(tx, kind, ids, scope),
      bind: repo.bindDevices,
      unbind: repo.unbindDevices,
    },
    b,
    ip,
  );
}
