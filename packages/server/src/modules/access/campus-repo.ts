import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { deviceSeenByAccount } from './visible-repo.ts';

/** Device `id` (live) is one the account sees: bound to it or its subtree, a sensor through its gateway. */
export async function accountSeesDevice(q: Queryable, userId: number, deviceId: number) {
  const r = await first(
    q,
    `SELECT 1 FROM devices d WHERE d.id = $1 AND NOT d.is_delete AND ${deviceSeenByAccount('d.id', '$2')}`,
    [deviceId, userId],
  );
  return r !== undefined;
}
