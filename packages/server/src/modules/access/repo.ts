import type { Queryable } from '../../db/index.ts';
import { Params } from '../../db/sql.ts';
import { SharedAnswers } from '../../shared-answers.ts';
import { deviceProbed, reviewScopeOver, scopeObjectsOver, scopeUser, toiletProbed } from './visible-repo.ts';

/** What a right is decided from: whether the scope sees the object, and who registered it. */
export interface AccessFacts {
  id: number;
  kind: string;
  is_delete: boolean;
  visible: boolean;
  /** The registrant's user path; a sensor has its gateway's. Null when nobody is recorded. */
  registrant_path: string | null;
}

/**
 * The facts' columns (`visible`, `registrant_path`) and the joins they need over `devices d`,
 * for a query that reads a device row with them in the same statement. `visible` is a probe
 * of the closure's primary key per device (deviceProbed): as `IN (sub-select)` in a select
 * list the planner hashed the scope's whole range for it, a dealer's 100k closure rows read
 * for every device drawer and every id a mutation checks (29 ms against 0.1 ms).
 */
export function deviceFactsSql(w: Params, scope: string) {
  return {
    columns: `${deviceProbed(w, scope)} AS visible, coalesce(fu.path, fgu.path) AS registrant_path`,
    joins: `LEFT JOIN devices fg ON fg.id = d.gateway_id
       LEFT JOIN users fu ON fu.id = d.registered_by
       LEFT JOIN users fgu ON fgu.id = fg.registered_by`,
  };
}

/** Facts of devices by id (of one kind when given), deleted ones included. */
export function deviceFacts(q: Queryable, ids: number[], scope: string, kind?: string) {
  const w = new Params();
  const facts = deviceFactsSql(w, scope);
  const cond = [`d.id = ANY(${w.p(ids)}::int[])`];
  if (kind) cond.push(`d.kind = ${w.p(kind)}`);
  return q.query<AccessFacts>(
    `SELECT d.id, d.kind, d.is_delete, ${facts.columns} FROM devices d ${facts.joins} WHERE ${cond.join(' AND ')}`,
    w.values,
  );
}

/** Facts of one toilet, deleted or not. */
export async function toiletFacts(q: Queryable, id: number, scope: string) {
  const w = new Params();
  const rows = await q.query<AccessFacts>(
    `SELECT t.id, 'toilet' AS kind, t.is_delete, ${toiletProbed(w, scope)} AS visible, u.path AS registrant_path
       FROM toilets t LEFT JOIN users u ON u.id = t.registered_by
      WHERE t.id = ${w.p(id)}`,
    w.values,
  );
  return rows[0];
}

/**
 * Whether the scope sees at most `limit` live devices of `kind` (a customer's 50 gateways):
 * its filtered lists then read its own closure rows and test each (one small statement),
 * instead of the statement that chooses between a walk and the filter's index for a scope
 * of any size, which cost 3.5 ms to plan to run 1 ms. '/' (develop) never sees few.
 */
export function seesFewDevices(q: Queryable, scope: string, kind: string, limit: number) {
  return keptSize(q, `few ${kind} ${limit} ${scope}`, scope, async (user) => {
    const rows = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM device_access va
        WHERE va.user_id = $1::int AND va.kind = $2 AND va.live LIMIT $3::int + 1) x`,
      [user, kind, limit],
    );
    return rows[0]!.n <= limit;
  });
}

/**
 * Whether the scope sees more than `limit` devices and toilets together (a dealer's): its
 * work orders are then tested by closure probes, a small scope's read off its objects'
 * ranges (maintenance/repo.ts). '/' sees the tables themselves: false.
 */
export function seesManyObjects(q: Queryable, scope: string, limit: number) {
  return keptSize(q, `many ${limit} ${scope}`, scope, async (user) => {
    const rows = await q.query<{ many: boolean }>(`SELECT ${scopeObjectsOver('$1', limit)} AS many`, [user]);
    return rows[0]!.many;
  });
}

/**
 * Whether the scope sees at most `limit` live toilets and rating terminals together (a
 * customer's): its reviews are then read off the review indexes of those few, in one small
 * statement, instead of the statement that chooses between walking the newest reviews and
 * those indexes for a scope of any size (comments/repo.ts). '/' never sees few.
 */
export function seesFewReviewPlaces(q: Queryable, scope: string, limit: number) {
  return keptSize(q, `reviews ${limit} ${scope}`, scope, async () => {
    const w = new Params();
    const rows = await q.query<{ over: boolean }>(
      `SELECT ${reviewScopeOver(w, scope, limit)} AS over`,
      w.values,
    );
    return !rows[0]!.over;
  });
}

/**
 * A fact about a scope's size, kept SIZE_MS per database and key (SharedAnswers: callers
 * asking at once share one statement). Such facts only pick how a list's statement reads its
 * rows (both ways list the same rows), so an answer a minute old costs at most a slower plan,
 * while asking every time was a second statement on every list request (one turn more of
 * PGlite's single worker).
 */
function keptSize(q: Queryable, key: string, scope: string, ask: (user: number) => Promise<boolean>) {
  const user = scopeUser(scope);
  if (user === null) return Promise.resolve(false);
  let kept = sizeKept.get(q);
  if (!kept) sizeKept.set(q, (kept = new SharedAnswers<boolean>(SIZE_MS, SIZE_MS)));
  return kept.get(key, () => ask(user));
}
const SIZE_MS = 60_000;
const sizeKept = new WeakMap<Queryable, SharedAnswers<boolean>>();
