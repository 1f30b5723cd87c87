import { OFFLINE_MS } from '@se/core';
import type { z } from 'zod';
import type { deviceInfo, updateDeviceInfoBody } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { first } from '../../db/index.ts';
import { localTime } from '../../db/sql.ts';
import { notFound } from '../../errors.ts';
import { scopeOf } from '../audit/service.ts';
import { findDevice, kindOf } from './repo.ts';

type Info = z.infer<typeof deviceInfo>;
const COLS = ['com_num', 'hard_num', 'soft_num', 'imei_num', 'sim_num', 'mac_address'] as const;

async function assertVisible(ctx: AppContext, caller: Caller, id: number) {
  const kind = await kindOf(ctx.db, id);
  const d = kind
    ? await findDevice(ctx.db, kind, id, await scopeOf(ctx, caller), OFFLINE_MS.default)
    : undefined;
  if (!d || d.is_delete) throw notFound('设备不存在');
}

export async function get(ctx: AppContext, caller: Caller, id: number): Promise<Info> {
  await assertVisible(ctx, caller, id);
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
  await assertVisible(ctx, caller, b.id);
  const cols = COLS.filter((c) => b[c] !== undefined);
  if (cols.length) {
    await ctx.db.query(
      `UPDATE device_info SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')}, update_time = now() WHERE device_id = $1`,
      [b.id, ...cols.map((c) => b[c])],
    );
  }
  return get(ctx, caller, b.id);
}
