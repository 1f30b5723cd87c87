import type { Queryable } from '../db/index.ts';
import { Params } from '../db/sql.ts';
import { visibleSql } from '../modules/devices/repo.ts';

// The hub's SQL: what a subscriber's scope lets through.

/** Live devices (of `kind` when given) visible in `scope` (a user path, not '/'). */
export async function visibleDeviceIds(q: Queryable, scope: string, kind?: string) {
  const w = new Params();
  const kindCond = kind ? `d.kind = ${w.p(kind)} AND` : '';
  const rows = await q.query<{ id: number }>(
    `SELECT d.id FROM devices d WHERE ${kindCond} NOT d.is_delete
          AND (CASE WHEN d.kind = 'sensor' THEN ${visibleSql(w, scope, 'd', 'sensor')} ELSE ${visibleSql(w, scope, 'd')} END)`,
    w.values,
  );
  return rows.map((r) => r.id);
}

/** Live toilets bound in `scope`'s subtree. */
export async function visibleToiletIds(q: Queryable, scope: string) {
  const rows = await q.query<{ id: number }>(
    `SELECT t.id FROM toilets t WHERE NOT t.is_delete AND t.id IN (
         SELECT b.toilet_id FROM toilet_bindings b JOIN users u ON u.id = b.user_id WHERE u.path LIKE $1 || '%')`,
    [scope],
  );
  return rows.map((r) => r.id);
}
