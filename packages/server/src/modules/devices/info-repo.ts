import type { z } from 'zod';
import type { deviceInfo } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { localTime } from '../../db/sql.ts';

// Device information (hardware identity) SQL.

export type Info = z.infer<typeof deviceInfo>;
export const COLS = ['com_num', 'hard_num', 'soft_num', 'imei_num', 'sim_num', 'mac_address'] as const;
type Col = (typeof COLS)[number];

export function findInfo(q: Queryable, deviceId: number) {
  return first<Info>(
    q,
    `SELECT id, ${COLS.join(', ')}, ${localTime('create_time')} AS create_time, ${localTime('update_time')} AS update_time
       FROM device_info WHERE device_id = $1`,
    [deviceId],
  );
}

/** Sets `cols` (names from COLS only) to `values`, in order. */
export async function updateInfo(q: Queryable, deviceId: number, cols: readonly Col[], values: unknown[]) {
  await q.query(
    `UPDATE device_info SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')}, update_time = now() WHERE device_id = $1`,
    [deviceId, ...values],
  );
}
