import type { Queryable } from '../../db/index.ts';
import { Params } from '../../db/sql.ts';
import { deviceSeen, toiletSeen } from './visible-repo.ts';

/** What a right is decided from: whether the scope sees the object, and who registered it. */
export interface AccessFacts {
  id: number;
  kind: string;
  is_delete: boolean;
  visible: boolean;
  /** The registrant's user path; a sensor has its gateway's. Null when nobody is recorded. */
  registrant_path: string | null;
}

/** Facts of devices by id (of one kind when given), deleted ones included. */
export function deviceFacts(q: Queryable, ids: number[], scope: string, kind?: string) {
  const w = new Params();
  const cond = [`d.id = ANY(${w.p(ids)}::int[])`];
  if (kind) cond.push(`d.kind = ${w.p(kind)}`);
  return q.query<AccessFacts>(
    `SELECT d.id, d.kind, d.is_delete, ${deviceSeen(w, scope)} AS visible,
            coalesce(u.path, gu.path) AS registrant_path
       FROM devices d
       LEFT JOIN devices g ON g.id = d.gateway_id
       LEFT JOIN users u ON u.id = d.registered_by
       LEFT JOIN users gu ON gu.id = g.registered_by
      WHERE ${cond.join(' AND ')}`,
    w.values,
  );
}

/** Facts of one toilet, deleted or not. */
export async function toiletFacts(q: Queryable, id: number, scope: string) {
  const w = new Params();
  const rows = await q.query<AccessFacts>(
    `SELECT t.id, 'toilet' AS kind, t.is_delete, ${toiletSeen(w, scope)} AS visible, u.path AS registrant_path
       FROM toilets t LEFT JOIN users u ON u.id = t.registered_by
      WHERE t.id = ${w.p(id)}`,
    w.values,
  );
  return rows[0];
}
