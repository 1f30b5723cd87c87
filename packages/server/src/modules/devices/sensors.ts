import { OFFLINE_MS, STATUS_FILTER } from '@se/core';
import type { z } from 'zod';
import type { addSensorBody, sensorListQuery, UpdateDeviceBody } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { notFound } from '../../errors.ts';
import { assertDeviceRight } from '../access/devices.ts';
import { create } from '../audit/mutate.ts';
import * as repo from './repo.ts';
import * as devices from './service.ts';
import { scopeOf } from '../access/users.ts';

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
    ...pageWindow(q),
    json: true,
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

/** One sensor for its drawer (its token to those who manage its gateway). */
export function get(ctx: AppContext, caller: Caller, id: number) {
  return devices.get(ctx, caller, 'sensor', id);
}

/** Adding a sensor changes what the gateway is: the gateway's managers do it. */
export async function add(ctx: AppContext, caller: Caller, b: z.output<typeof addSensorBody>, ip: string) {
  await assertDeviceRight(ctx, caller, 'gateway', b.gateway_id, 'manage', { what: '为网关添加传感器' });
  try {
    const id = await create(ctx, caller, ip, {
      insert: (tx) =>
        repo.insertDevice(tx, {
          kind: 'sensor',
          ser_num: b.ser_num,
          desc: b.desc,
          location: b.location,
          version: '',
          url: '',
          token: devices.newDeviceToken(),
          gateway_id: b.gateway_id,
        }),
      audit: { action: 'device.add', entity: 'sensor', targetUserId: null },
      after: { ser_num: b.ser_num, gateway_id: b.gateway_id },
    });
    return get(ctx, caller, id);
  } catch (err) {
    throw await devices.duplicateSerNum(ctx, caller, b.ser_num, err);
  }
}

/** Edits, deletes or restores a sensor: as for devices, its gateway's managers only. */
export function update(ctx: AppContext, caller: Caller, b: UpdateDeviceBody, ip: string) {
  return devices.update(ctx, caller, 'sensor', b, ip);
}
