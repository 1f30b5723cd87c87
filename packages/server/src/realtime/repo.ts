import type { Queryable } from '../db/index.ts';
import { Params } from '../db/sql.ts';
import { deviceSeen, toiletSeen } from '../modules/access/visible-repo.ts';

// The hub's SQL: what a subscriber's scope lets through.

/** Live devices (of `kind` when given) visible in `scope` (a user path, not '/'). */
export async function visibleDeviceIds(q: Queryable, scope: string, kind?: string) {
  const w = new Params();
  const kindCond = kind ? `d.kind = ${w.p(kind)} AND` : '';
  const rows = await q.query<{ id: number }>(
    `SELECT d.id FROM devices d WHERE ${kindCond} NOT d.is_delete AND ${deviceSeen(w, scope, 'd.id', { kind, live: true })}`,
    w.values,
  );
  return rows.map((r) => r.id);
}

/** Live toilets bound in `scope`'s subtree. */
export async function visibleToiletIds(q: Queryable, scope: string) {
  const w = new Params();
  const rows = await q.query<{ id: number }>(
    `SELECT t.id FROM toilets t WHERE NOT t.is_delete AND ${toiletSeen(w, scope, 't.id', { live: true })}`,
    w.values,
  );
  return rows.map((r) => r.id);
}

/** Devices placed in an organisation's buildings and rooms, and the sensors of placed gateways. */
export async function placedDeviceIds(q: Queryable, orgId: number) {
  const rows = await q.query<{ id: number }>(
    `SELECT p.device_id AS id FROM placements p WHERE p.org_id = $1
     UNION SELECT s.id FROM placements p JOIN devices s ON s.gateway_id = p.device_id WHERE p.org_id = $1`,
    [orgId],
  );
  return rows.map((r) => r.id);
}
