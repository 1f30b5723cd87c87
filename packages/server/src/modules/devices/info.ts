import type { z } from 'zod';
import type { updateDeviceInfoBody } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { assertDeviceRight } from '../access/devices.ts';
import { findInfo, updateInfo, type Info } from './info-repo.ts';

export async function get(ctx: AppContext, caller: Caller, id: number): Promise<Info> {
  await assertDeviceRight(ctx, caller, 'device', id, 'read', { what: '查看设备信息' });
  const r = await findInfo(ctx.db, id);
  if (!r) throw notFound('设备信息不存在');
  return r;
}

export async function update(ctx: AppContext, caller: Caller, b: z.output<typeof updateDeviceInfoBody>) {
  // Hardware identity (IMEI, SIM, MAC) is part of what the device is: its managers' to edit.
  await assertDeviceRight(ctx, caller, 'device', b.id, 'manage', { what: '修改设备信息' });
  await updateInfo(ctx.db, b.id, b);
  return get(ctx, caller, b.id);
}
