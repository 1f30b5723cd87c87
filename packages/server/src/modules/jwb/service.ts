import {
  COMMAND_TIMEOUT_MS,
  DEFAULT_END,
  DEFAULT_START,
  DEVICE_KINDS,
  PARAMETER_DEFAULTS,
  PERMISSION,
  WEEKDAYS,
  has,
  type DeviceRow,
  type JwbConfig,
  type UpdateConfigBody,
} from '@se/core';
import type { z } from 'zod';
import type { addParameterBody, updateParameterBody } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { offset, pageWindow } from '../../db/sql.ts';
import { forbidden, notFound } from '../../errors.ts';
import { audit } from '../audit/service.ts';
import { mutate } from '../audit/mutate.ts';
import { findDevice } from '../devices/repo.ts';
import { assertDeviceRight } from '../access/devices.ts';
import * as repo from './repo.ts';
import { assertCanManage, scopeOf } from '../access/users.ts';

async function dispenser(ctx: AppContext, caller: Caller, id: number): Promise<DeviceRow> {
  const d = await findDevice(ctx.db, 'jwb', id, await scopeOf(ctx, caller), DEVICE_KINDS.jwb.offline);
  if (!d || d.is_delete) throw notFound('除臭机不存在');
  return d;
}

/** Commands, schedules and parameter sets operate a dispenser (modules/access/devices.ts). */
const operate = (ctx: AppContext, caller: Caller, id: number, what: string) =>
  assertDeviceRight(ctx, caller, 'jwb', id, 'operate', { what });

/** The stored config, or the defaults (05:30–22:00 every day) before the first save. */
export async function getConfig(ctx: AppContext, caller: Caller, id: number): Promise<JwbConfig> {
  await dispenser(ctx, caller, id);
  const c = await repo.getConfig(ctx.db, id);
  if (c) return c;
  return {
    id: 0,
    device_id: id,
    is_delete: false,
    config_name: '推荐',
    ...(Object.fromEntries(
      WEEKDAYS.flatMap((d) => [
        [`${d}_start`, DEFAULT_START],
        [`${d}_end`, DEFAULT_END],
      ]),
    ) as Record<`${(typeof WEEKDAYS)[number]}_${'start' | 'end'}`, string>),
    work_mode: 0,
    work_fre: 0,
    all_fre: 0,
    ip_address: '',
    work_limit: 0,
    config_date: '',
  };
}

async function enqueue(
  ctx: AppContext,
  tx: Parameters<Parameters<AppContext['db']['transaction']>[0]>[0],
  caller: Caller,
  deviceId: number,
  type: string,
  op: number | null,
  payload: unknown,
) {
  return repo.insertCommand(tx, {
    deviceId,
    type,
    op,
    payload,
    createdBy: caller.id,
    timeoutMs: COMMAND_TIMEOUT_MS,
  });
}

/** Saves the config and queues it for the device in the same transaction. */
export async function updateConfig(ctx: AppContext, caller: Caller, b: UpdateConfigBody, ip: string) {
  await operate(ctx, caller, b.id, '修改工作时间');
  const before = await getConfig(ctx, caller, b.id);
  const { id, ...values } = b;
  // Every save is queued for the device, changed or not, and audited with it.
  await mutate(ctx, caller, ip, {
    row: before,
    patch: values,
    always: true,
    write: async (tx) => {
      await repo.saveConfig(tx, id, values);
      await enqueue(ctx, tx, caller, id, 'config', null, await repo.getConfig(tx, id));
    },
    audit: { action: 'device.update', entity: 'device_config', entityId: id, targetUserId: null },
  });
  void ctx.commands.deliver(id);
  return getConfig(ctx, caller, id);
}

export async function listParameters(
  ctx: AppContext,
  caller: Caller,
  q: { keywords?: string; page: number; page_size: number },
) {
  const r = await repo.listParameters(ctx.db, {
    scope: await scopeOf(ctx, caller),
    keywords: q.keywords || undefined,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function getParameter(ctx: AppContext, caller: Caller, id: number) {
  const p = await repo.findParameter(ctx.db, { id }, await scopeOf(ctx, caller));
  if (!p) throw notFound('参数不存在');
  return p;
}

export async function addParameter(ctx: AppContext, caller: Caller, b: z.output<typeof addParameterBody>) {
  if (!has(caller.permission, PERMISSION.user)) throw forbidden('只有用户及以上角色可以新建参数');
  const id = await ctx.db.transaction(async (tx) => {
    // parameter_num is max + 1: serialise writers on PostgreSQL (PGlite runs one at a time).
    if (ctx.db.kind === 'postgres') await repo.lockParameterNumbers(tx);
    return repo.insertParameter(tx, caller.id, { ...PARAMETER_DEFAULTS, ...b });
  });
  return getParameter(ctx, caller, id);
}

export async function updateParameter(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof updateParameterBody>,
) {
  const p = await getParameter(ctx, caller, b.id);
  // Shared sets belong to the platform; others to their creator's managers.
  if (p.user_id === null) {
    if (!has(caller.permission, PERMISSION.develop)) throw forbidden('公共参数只能由开发者修改');
  } else {
    await assertCanManage(ctx, caller, p.user_id);
  }
  const { id, ...values } = b;
  await repo.updateParameter(ctx.db, id, values);
  return b.is_delete ? { ...p, is_delete: true } : getParameter(ctx, caller, id);
}

/** Points the dispenser at a parameter set and queues the whole set for it. */
export async function applyParameter(
  ctx: AppContext,
  caller: Caller,
  deviceId: number,
  num: number,
  ip: string,
) {
  await operate(ctx, caller, deviceId, '下发参数');
  const d = await dispenser(ctx, caller, deviceId);
  const p = await repo.findParameter(ctx.db, { num }, await scopeOf(ctx, caller));
  if (!p) throw notFound('参数不存在');
  await ctx.db.transaction(async (tx) => {
    await repo.setParameterNum(tx, deviceId, num);
    await enqueue(ctx, tx, caller, deviceId, 'parameter', null, p);
    await audit(tx, {
      actorId: caller.id,
      targetUserId: null,
      action: 'device.update',
      entity: 'jwb',
      entityId: deviceId,
      before: { parameter_num: d.parameter_num },
      after: { parameter_num: num },
      ip,
    });
  });
  void ctx.commands.deliver(deviceId);
  return dispenser(ctx, caller, deviceId);
}

export async function cacheOperation(ctx: AppContext, caller: Caller, deviceId: number, op: number) {
  await operate(ctx, caller, deviceId, '下发命令');
  const id = await ctx.db.transaction((tx) => enqueue(ctx, tx, caller, deviceId, 'cache', op, { op }));
  void ctx.commands.deliver(deviceId);
  return { command_id: id };
}

export async function sensorOperation(
  ctx: AppContext,
  caller: Caller,
  gatewayId: number,
  op: number,
  serNum?: string,
) {
  await assertDeviceRight(ctx, caller, 'gateway', gatewayId, 'operate', { what: '下发传感器命令' });
  const id = await ctx.db.transaction((tx) =>
    enqueue(ctx, tx, caller, gatewayId, 'sensor', op, { op, ser_num: serNum ?? '' }),
  );
  void ctx.commands.deliver(gatewayId);
  return { command_id: id };
}

export async function listCommands(
  ctx: AppContext,
  caller: Caller,
  q: { device_id: number; page: number; page_size: number },
) {
  await assertDeviceRight(ctx, caller, 'device', q.device_id, 'read', { what: '查看命令' });
  const r = await repo.listCommands(ctx.db, q.device_id, q.page_size, offset(q.page, q.page_size));
  return { ...r, page: q.page, page_size: q.page_size };
}
