import type { z } from 'zod';
import type { deviceInfo } from '@se/core';
import { updateRow } from '../../db/update.ts';
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

/** Sets the given columns (undefined = not changing). */
export function updateInfo(q: Queryable, deviceId: number, v: Partial<Record<Col, unknown>>) {
  return updateRow(
    q,
    { table: 'device_info', columns: COLS, key: 'device_id', touch: 'update_time' },
    deviceId,
    v,
  );
}
