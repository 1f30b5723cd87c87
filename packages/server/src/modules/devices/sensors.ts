import { OFFLINE_MS, STATUS_FILTER, type DeviceRow } from '@se/core';
import type { z } from 'zod';
import type { addSensorBody, sensorListQuery, UpdateDeviceBody } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { offset } from '../../db/sql.ts';
import { conflict, notFound } from '../../errors.ts';
import { audit, diff, scopeOf } from '../audit/service.ts';
import * as repo from './repo.ts';
import { newDeviceToken } from './service.ts';

/** Sensors hang off a gateway: whoever sees the gateway sees its sensors, nobody else. */
async function gatewayOf(ctx: AppContext, caller: Caller, gatewayId: number) {
  const scope = await scopeOf(ctx, caller);
  const g = await repo.findDevice(ctx.db, 'gateway', gatewayId, scope, OFFLINE_MS.default);
  if (!g || g.is_delete) throw notFound('网关不存在');
  return { gateway: g, scope };
}

export async function list(ctx: AppContext, caller: Caller, q: z.output<typeof sensorListQuery>) {
  const { scope } = await gatewayOf(ctx, caller, q.gateway_id);
  const on = q.status ? (q.status & STATUS_FILTER.online) !== 0 : false;
  const off = q.status ? (q.status & STATUS_FILTER.offline) !== 0 : false;
  const r = await repo.listDevices(ctx.db, {
    kind: 'sensor',
    scope,
    offlineMs: OFFLINE_MS.sensor,
    keywords: q.keywords || undefined,
    online: on === off ? undefined : on,
    gatewayId: q.gateway_id,
    limit: q.page_size,
    offset: offset(q.page, q.page_size),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function get(ctx: AppContext, caller: Caller, id: number): Promise<DeviceRow> {
  const scope = await scopeOf(ctx, caller);
  const s = await repo.findDevice(ctx.db, 'sensor', id, scope, OFFLINE_MS.sensor);
  if (!s || s.is_delete) throw notFound('传感器不存在');
  return s;
}

export async function add(ctx: AppContext, caller: Caller, b: z.output<typeof addSensorBody>, ip: string) {
  await gatewayOf(ctx, caller, b.gateway_id);
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const id = await repo.insertDevice(tx, {
        kind: 'sensor',
        ser_num: b.ser_num,
        desc: b.desc,
        location: b.location,
        version: '',
        url: '',
        token: newDeviceToken(),
        gateway_id: b.gateway_id,
      });
      await audit(tx, {
        actorId: caller.id,
        targetUserId: null,
        action: 'device.add',
        entity: 'sensor',
        entityId: id,
        before: null,
        after: { ser_num: b.ser_num, gateway_id: b.gateway_id },
        ip,
      });
      return id;
    });
    return get(ctx, caller, id);
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict('序列号已存在');
    throw err;
  }
}

export async function update(ctx: AppContext, caller: Caller, b: UpdateDeviceBody, ip: string) {
  const s = await get(ctx, caller, b.id);
  const c = diff(s, { is_delete: b.is_delete, desc: b.desc, location: b.location, version: b.version });
  if (c.changed) {
    await ctx.db.transaction(async (tx) => {
      await repo.updateDevice(tx, s.id, c.after);
      await audit(tx, {
        actorId: caller.id,
        targetUserId: null,
        action: b.is_delete ? 'device.delete' : 'device.update',
        entity: 'sensor',
        entityId: s.id,
        before: c.before,
        after: c.after,
        ip,
      });
    });
  }
  return b.is_delete ? { ...s, is_delete: true } : get(ctx, caller, s.id);
}
