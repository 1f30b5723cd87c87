import type { z } from 'zod';
import type { deviceInfo, updateDeviceInfoBody } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { first } from '../../db/index.ts';
import { localTime } from '../../db/sql.ts';
import { notFound } from '../../errors.ts';
import { assertDeviceRight } from '../access/devices.ts';

type Info = z.infer<typeof deviceInfo>;
const COLS = ['com_num', 'hard_num', 'soft_num', 'imei_num', 'sim_num', 'mac_address'] as const;

export async function get(ctx: AppContext, caller: Caller, id: number): Promise<Info> {
  await assertDeviceRight(ctx, caller, 'device', id, 'read', { what: '查看设备信息' });
  const r = await first<Info>(
    ctx.db,
    `SELECT id, ${COLS.join(', ')}, ${localTime('create_time')} AS create_time, ${localTime('update_time')} AS update_time
       FROM device_info WHERE device_id = $1`,
    [id],
  );
  if (!r) throw notFound('设备信息不存在');
  return r;
}

export async function update(ctx: AppContext, caller: Caller, b: z.output<typeof updateDeviceInfoBody>) {
  // Hardware identity (IMEI, SIM, MAC) is part of what the device is: its managers' to edit.
  await assertDeviceRight(ctx, caller, 'device', b.id, 'manage', { what: '修改设备信息' });
  const cols = COLS.filter((c) => b[c] !== undefined);
  if (cols.length) {
    await ctx.db.query(
      `UPDATE device_info SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')}, update_time = now() WHERE device_id = $1`,
      [b.id, ...cols.map((c) => b[c])],
    );
  }
  return get(ctx, caller, b.id);
}
