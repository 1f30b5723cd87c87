import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';

export interface OrgFacts {
  id: number;
  is_delete: boolean;
  /** The organisation's manager: the account whose devices it may place. */
  user_id: number | null;
  /** The manager's account path (users.path), null without a manager. */
  manager_path: string | null;
}

/** The organisation an account belongs to (users.org_id), or null. */
export async function accountOrg(q: Queryable, userId: number): Promise<number | null> {
  const r = await first<{ org_id: number | null }>(q, 'SELECT org_id FROM users WHERE id = $1', [userId]);
  return r?.org_id ?? null;
}

export function orgFacts(q: Queryable, orgId: number) {
  return first<OrgFacts>(
    q,
    `SELECT o.id, o.is_delete, o.user_id, u.path AS manager_path
       FROM organisations o LEFT JOIN users u ON u.id = o.user_id
      WHERE o.id = $1`,
    [orgId],
  );
}

/** Device `id` (live) is one the account sees: bound to it or its subtree, a sensor through its gateway. */
export async function accountSeesDevice(q: Queryable, userId: number, deviceId: number) {
  const r = await first(
    q,
    `SELECT 1 FROM devices d
      WHERE d.id = $1 AND NOT d.is_delete
        AND EXISTS (SELECT 1 FROM device_access va WHERE va.device_id = d.id AND va.user_id = $2)`,
    [deviceId, userId],
  );
  return r !== undefined;
}
