import crypto from 'node:crypto';
import {
  DEVICE_KINDS,
  OFFLINE_MS,
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
import { WALK_ROWS, pageWindow } from '../../db/sql.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { create, mutate } from '../audit/mutate.ts';
import * as repo from './repo.ts';
import { applyBinding } from '../bindings/service.ts';
import { assertDeviceRight, roleDevice, idsWithRight, rightOf } from '../access/devices.ts';
import { assertCanManage, managedUser, scopeOf } from '../access/users.ts';
import { seesFewDevices } from '../access/repo.ts';

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
    ownerScope = (await managedUser(ctx, caller, q.owner_id)).path;
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

export async function list(
  ctx: AppContext,
  caller: Caller,
  kind: DeviceKind,
  q: DeviceListQuery,
  opts: { exact?: boolean } = {},
) {
  const f = await filterOf(ctx, caller, kind, q);
  const r = await repo.listDevices(ctx.db, {
    ...f,
    few: await seesFewDevices(ctx.db, f.scope, kind, WALK_ROWS),
    ...pageWindow(q),
    exact: opts.exact,
    json: true,
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

const offlineOf = (kind: DeviceKind | 'sensor') =>
  kind === 'sensor' ? OFFLINE_MS.sensor : DEVICE_KINDS[kind].offline;
const labelOf = (kind: DeviceKind | 'sensor') => (kind === 'sensor' ? '传感器' : DEVICE_KINDS[kind].label);

/** A device the caller sees; `deleted` also finds a deleted one (restoring). */
async function load(
  ctx: AppContext,
  caller: Caller,
  kind: DeviceKind | 'sensor',
  id: number,
  deleted = false,
) {
  const scope = await scopeOf(ctx, caller);
  const d = await repo.findDevice(ctx.db, kind, id, scope, offlineOf(kind));
  if (!d || (d.is_delete && !deleted)) throw notFound(`${labelOf(kind)}不存在`);
  return d;
}

/**
 * One device for its drawer: its token only to those who manage it (issue 12), and where it
 * is (its toilet, its campus room) for the drawer's links; no list, export or push carries them.
 */
export async function get(ctx: AppContext, caller: Caller, kind: DeviceKind | 'sensor', id: number) {
  const scope = await scopeOf(ctx, caller);
  const d = await repo.findDeviceWithFacts(ctx.db, kind, id, scope, offlineOf(kind));
  const right = d ? rightOf(caller, scope, d) : 'none';
  if (!d || right === 'none' || d.is_delete) throw notFound(`${labelOf(kind)}不存在`);
  const { visible: _v, registrant_path: _p, token, ...row } = d;
  return right === 'manage' ? { ...row, token } : row;
}

/** Said of a serial number someone else registered: nothing about whose it is. */
export const SER_NUM_UNAVAILABLE = '该序列号无法登记，请核对序列号或联系设备供应商';
/** Said of a serial number of a device the caller itself sees. */
export const SER_NUM_EXISTS = '序列号已存在';

/**
 * The message for each taken serial number: "exists" when the device is one the caller
 * sees (its own), a neutral refusal otherwise, so a 409 tells no tenant what another owns.
 */
export async function takenSerNumMessages(ctx: AppContext, caller: Caller, sers: string[]) {
  const mine = await repo.visibleSerNums(ctx.db, sers, await scopeOf(ctx, caller));
  return (ser: string) => (mine.has(ser) ? SER_NUM_EXISTS : SER_NUM_UNAVAILABLE);
}

export async function duplicateSerNum(ctx: AppContext, caller: Caller, ser: string, err: unknown) {
  if ((err as { code?: string })?.code !== '23505') return err;
  return conflict((await takenSerNumMessages(ctx, caller, [ser]))(ser));
}

/**
 * The row of a newly registered device: a server-generated token, the kind's fixed type
 * (gateways default to 40) and, for dispensers, the default parameter set 2.
 */
export function registeredRow(kind: DeviceKind, b: AddDeviceBody): repo.NewDevice {
  return {
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
  };
}

export function insertRegistered(tx: Queryable, kind: DeviceKind, b: AddDeviceBody) {
  return repo.insertDevice(tx, registeredRow(kind, b));
}

/** Registers a device bound to its registrant, with a server-generated token. */
export async function add(ctx: AppContext, caller: Caller, kind: DeviceKind, b: AddDeviceBody, ip: string) {
  if (!has(caller.permission, PERMISSION.user) && !roleDevice(caller, kind)) {
    throw forbidden('只有用户及以上角色可以登记设备');
  }
  if (kind === 'gateway' && b.type !== undefined && b.type !== 40 && b.type !== 43) {
    throw badRequest('网关类型只能是 40（智慧网关精简版）或 43（控制中心多媒体版）');
  }
  try {
    const id = await create(ctx, caller, ip, {
      insert: async (tx) => {
        const id = await insertRegistered(tx, kind, b);
        await repo.bindDevices(tx, caller.id, [id]);
        return id;
      },
      audit: { action: 'device.add', entity: kind, targetUserId: caller.id },
      after: { ser_num: b.ser_num, desc: b.desc },
    });
    return get(ctx, caller, kind, id);
  } catch (err) {
    throw await duplicateSerNum(ctx, caller, b.ser_num, err);
  }
}

/**
 * Edits, deletes (is_delete true) or restores (is_delete false on a deleted one) a device:
 * all three are the manager's (modules/access/devices.ts), so an account the device is merely
 * bound to cannot remove it from the one who registered it, and that one can undo a delete.
 */
export async function update(
  ctx: AppContext,
  caller: Caller,
  kind: DeviceKind | 'sensor',
  b: UpdateDeviceBody,
  ip: string,
) {
  const restoring = b.is_delete === false;
  const what = restoring ? '恢复' : b.is_delete ? '删除' : '修改';
  await assertDeviceRight(ctx, caller, kind, b.id, 'manage', {
    what: `${what}${labelOf(kind)}`,
    deleted: restoring,
  });
  const d = await load(ctx, caller, kind, b.id, restoring);
  if (kind === 'gateway' && b.type !== undefined && b.type !== 40 && b.type !== 43) {
    throw badRequest('网关类型只能是 40（智慧网关精简版）或 43（控制中心多媒体版）');
  }
  try {
    await mutate(ctx, caller, ip, {
      row: d,
      // Sensors take only these four; a kind with a fixed type keeps it.
      patch:
        kind === 'sensor'
          ? { is_delete: b.is_delete, desc: b.desc, location: b.location, version: b.version }
          : { ...b, id: undefined, type: DEVICE_KINDS[kind].type === null ? b.type : undefined },
      table: repo.DEVICES,
      audit: {
        action: b.is_delete ? 'device.delete' : d.is_delete ? 'device.restore' : 'device.update',
        entity: kind,
        entityId: d.id,
        targetUserId: null,
      },
    });
  } catch (err) {
    // Restoring a device whose serial number was registered again meanwhile.
    if ((err as { code?: string })?.code === '23505') throw conflict('该序列号已重新登记，无法恢复');
    throw err;
  }
  // Deleted or restored: the device's sign-in (and a cached miss) changes at once.
  if (b.is_delete !== undefined) ctx.directory.forget(d.ser_num);
  // Ingest judges an industrial monitor's gases by exposure only: it follows the new type at once.
  if (b.industrial_type !== undefined && b.industrial_type !== d.industrial_type) {
    ctx.directory.retype(d.ser_num, b.industrial_type);
  }
  if (b.is_delete) return { ...d, is_delete: true };
  return get(ctx, caller, kind, d.id);
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
    ...pageWindow(q),
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
      // Sharing a device with the caller's own accounts is operating it (docs/permissions.md).
      visible: (tx, ids, scope) => idsWithRight(tx, caller, scope, kind, ids, 'operate'),
      bind: repo.bindDevices,
      unbind: repo.unbindDevices,
    },
    b,
    ip,
  );
}
