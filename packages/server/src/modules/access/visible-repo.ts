/**
 * What a scope sees, as SQL conditions: the one door every list, count, point check and push
 * filter goes through (issue 14). A scope is the caller's user path ('/1/5/9/'), '/' for
 * develop, which sees everything.
 *
 * Devices and toilets are seen through the closure tables of migration 0019: a row per
 * (object, account that sees it), kept exact by triggers on bindings, deletes, sensor
 * attachment and user paths. A scope's objects are one index range scan on
 * (user_id, kind, id); whether one object is seen is one primary-key probe on (id, user_id).
 * Accounts are seen by path prefix (`users.path`, an index range scan of its own).
 */
import type { Params } from '../../db/sql.ts';

/** The account whose subtree a scope is, or null for '/' (everything). */
export function scopeUser(scope: string): number | null {
  if (scope === '/') return null;
  const m = /\/(\d+)\/$/.exec(scope);
  if (!m) throw new Error(`not an account path: ${scope}`);
  return Number(m[1]);
}

export interface SeenOpts {
  /** Only devices of this kind (sensors: 'sensor'); lets the index serve the kind too. */
  kind?: string;
  /** Only objects not deleted (lists); point checks that may restore leave it out. */
  live?: boolean;
}

function accessCond(w: Params, user: number, opts: SeenOpts) {
  const cond = [`va.user_id = ${w.p(user)}::int`];
  if (opts.kind) cond.push(`va.kind = ${w.p(opts.kind)}`);
  if (opts.live) cond.push('va.live');
  return cond.join(' AND ');
}

/**
 * `col` (a device id) is a device the scope sees: bound to the scope's account or to one of
 * its subtree; a sensor through its gateway.
 */
export function deviceSeen(w: Params, scope: string, col = 'd.id', opts: SeenOpts = {}) {
  const user = scopeUser(scope);
  if (user === null) return 'true';
  return `${col} IN (SELECT va.device_id FROM device_access va WHERE ${accessCond(w, user, opts)})`;
}

/**
 * As deviceSeen, as a probe of the closure's primary key for each row tested: a scalar
 * sub-select, which the planner cannot turn into a hash of the scope's whole range (a
 * dealer's 100k closure rows read to test a keyword's 100 matches). For rows that come off
 * another index, tested against a large scope.
 */
export function deviceProbed(w: Params, scope: string, col = 'd.id', opts: SeenOpts = {}) {
  const user = scopeUser(scope);
  if (user === null) return 'true';
  return `coalesce((SELECT true FROM device_access va WHERE va.device_id = ${col} AND ${accessCond(w, user, opts)}), false)`;
}

/** As deviceProbed for toilets: `col` (a toilet id) probed against the closure's primary key. */
export function toiletProbed(w: Params, scope: string, col = 't.id', opts: Pick<SeenOpts, 'live'> = {}) {
  const user = scopeUser(scope);
  if (user === null) return 'true';
  return `coalesce((SELECT true FROM toilet_access va WHERE va.toilet_id = ${col} AND ${accessCond(w, user, opts)}), false)`;
}

/** `col` (a toilet id) is a toilet the scope sees. */
export function toiletSeen(w: Params, scope: string, col = 't.id', opts: Pick<SeenOpts, 'live'> = {}) {
  const user = scopeUser(scope);
  if (user === null) return 'true';
  return `${col} IN (SELECT va.toilet_id FROM toilet_access va WHERE ${accessCond(w, user, opts)})`;
}

/**
 * The scope's devices of a kind as a relation of their own (`va.device_id`, newest first by
 * the index): a list with no filter beyond kind and deletion pages over the index alone and
 * reads only the rows of its page. `search` is the device's searched text, lower-cased, kept
 * on the row (migration 0062): a keyword walk tests it without reading the device. Null for
 * '/', which lists the devices table itself.
 */
export function deviceAccessRows(w: Params, scope: string, kind: string) {
  const user = scopeUser(scope);
  if (user === null) return null;
  return {
    from: 'device_access va',
    where: accessCond(w, user, { kind, live: true }),
    id: 'va.device_id',
    search: 'va.search',
  };
}

/** The same for toilets (`va.toilet_id`). */
export function toiletAccessRows(w: Params, scope: string) {
  const user = scopeUser(scope);
  if (user === null) return null;
  return { from: 'toilet_access va', where: accessCond(w, user, { live: true }), id: 'va.toilet_id' };
}

/** Device `col` is seen by the account `userCol` (a column: push recipients, rule owners). */
export const deviceSeenByAccount = (col: string, userCol: string) =>
  `EXISTS (SELECT 1 FROM device_access va WHERE va.device_id = ${col} AND va.user_id = ${userCol})`;

/** Toilet `col` is seen by the account `userCol`. */
export const toiletSeenByAccount = (col: string, userCol: string) =>
  `EXISTS (SELECT 1 FROM toilet_access va WHERE va.toilet_id = ${col} AND va.user_id = ${userCol})`;

/** Account `alias` is in the scope's subtree (itself included); '/' sees every account. */
export function accountSeen(w: Params, scope: string, alias = 'u') {
  if (scope === '/') return 'true';
  return `${alias}.path LIKE ${w.p(scope)} || '%'`;
}

/** As accountSeen, the scope given as a column (another account's path) rather than a value. */
export const accountUnder = (alias: string, scopeCol: string) => `${alias}.path LIKE ${scopeCol} || '%'`;

/** The device kind whose reports are reviews (ingest/handlers/ratings.ts): `comments.equipment_id`. */
const REVIEW_TERMINAL = 'evaluate';

/**
 * A review (`alias`: comments) is seen with its toilet or with the terminal that sent it.
 * The id sets are built once (ARRAY(...)), so the condition is on the comment's own columns
 * and their indexes serve a caller with few toilets and terminals. Only rating terminals
 * send reviews, so the terminal set is the scope's rating terminals alone (one range of the
 * closure's (user_id, kind) index): a dealer with 100k gateways does not build and compare
 * against a 100k-id array for every review.
 */
export function commentSeen(w: Params, scope: string, alias = 'c', opts: Pick<SeenOpts, 'live'> = {}) {
  const user = scopeUser(scope);
  if (user === null) return 'true';
  const u = w.p(user);
  const live = opts.live ? ' AND va.live' : '';
  return `(${alias}.toilet_id = ANY(ARRAY(SELECT va.toilet_id FROM toilet_access va WHERE va.user_id = ${u}::int${live}))
        OR ${alias}.equipment_id = ANY(ARRAY(SELECT va.device_id FROM device_access va
                                              WHERE va.user_id = ${u}::int AND va.kind = ${w.p(REVIEW_TERMINAL)}${live})))`;
}

/**
 * As commentSeen, as primary-key probes of the closure tables for each review tested: for
 * reviews read off the table newest first (a walk), tested against a large scope, where the
 * id arrays of commentSeen would be compared element by element on every row (a dealer's
 * 2,000 toilets).
 */
export function commentProbed(w: Params, scope: string, alias = 'c', opts: Pick<SeenOpts, 'live'> = {}) {
  const user = scopeUser(scope);
  if (user === null) return 'true';
  const u = w.p(user);
  const live = opts.live ? ' AND va.live' : '';
  return `coalesce((SELECT true FROM toilet_access va WHERE va.toilet_id = ${alias}.toilet_id AND va.user_id = ${u}::int${live})
          OR (SELECT true FROM device_access va WHERE va.device_id = ${alias}.equipment_id AND va.user_id = ${u}::int${live}
                 AND va.kind = ${w.p(REVIEW_TERMINAL)}), false)`;
}

/**
 * Whether the scope sees more than `limit` toilets and rating terminals: a dealer's reviews
 * are found reading the newest reviews of every scope, a customer's few through its toilets.
 */
export const reviewScopeOver = (w: Params, scope: string, limit: number) => {
  const user = scopeUser(scope);
  if (user === null) return 'true';
  const u = w.p(user);
  return `((SELECT count(*) FROM (SELECT 1 FROM toilet_access va WHERE va.user_id = ${u}::int AND va.live
      UNION ALL SELECT 1 FROM device_access va WHERE va.user_id = ${u}::int AND va.kind = ${w.p(REVIEW_TERMINAL)} AND va.live
      LIMIT ${limit + 1}) x) > ${limit})`;
};

/** The live devices account `userCol` sees, as a sub-select of `device_id` (one range scan). */
export const devicesOfAccount = (userCol: string) =>
  `SELECT va.device_id FROM device_access va WHERE va.user_id = ${userCol} AND va.live`;

/** The accounts that see device `col` (itself bound to them or to their subtree), as a sub-select of `user_id`. */
export const accountsSeeingDevice = (col: string) =>
  `SELECT va.user_id FROM device_access va WHERE va.device_id = ${col}`;

/**
 * A maintenance record (`alias`: its toilet_id and device_id) is seen with its device or its
 * toilet, as a review is (issue 18).
 */
export function toiletOrDeviceSeen(w: Params, scope: string, alias: string, many = false) {
  const user = scopeUser(scope);
  if (user === null) return 'true';
  const u = w.p(user);
  // A scope with many objects: a primary-key probe of the closure tables per row tested, as
  // scalar sub-selects (as deviceProbed): the planner cannot turn them into a hash of the
  // scope's whole set, which an EXISTS became (a dealer's 10k closure rows read and hashed by
  // every list statement, twice with its count, to show 20 records), so a page read along an
  // index tests its own rows only; with few, the id sets as arrays, so the record indexes on
  // toilet_id and device_id serve them.
  if (many)
    return `(coalesce((SELECT va.live FROM toilet_access va WHERE va.toilet_id = ${alias}.toilet_id AND va.user_id = ${u}::int), false)
        OR coalesce((SELECT va.live FROM device_access va WHERE va.device_id = ${alias}.device_id AND va.user_id = ${u}::int), false))`;
  return `(${alias}.toilet_id = ANY(ARRAY(SELECT va.toilet_id FROM toilet_access va WHERE va.user_id = ${u}::int AND va.live))
        OR ${alias}.device_id = ANY(ARRAY(SELECT va.device_id FROM device_access va WHERE va.user_id = ${u}::int AND va.live)))`;
}

/** The toilets account `u` (a parameter) sees, as an array. */
const seenToiletIds = (u: string) =>
  `ARRAY(SELECT st.toilet_id FROM toilet_access st WHERE st.user_id = ${u}::int AND st.live)`;

/**
 * The records of a small scope (a customer's) as ranges of the records' own indexes, one per
 * toilet and per device the scope sees: `range(col, id, also)` is the sub-select of the records
 * `alias` whose `col` (toilet_id or device_id) is the object `id` and which meet `also` (a
 * condition on `alias`), answering `id`; the ranges together are the records
 * toiletOrDeviceSeen admits, each once: a device's range leaves out its records in a toilet
 * the scope sees (they are in that toilet's range), so the ranges are appended, not de-
 * duplicated (a customer's devices are in its toilets: their ranges held every record a second
 * time, hashed away on every page). The planner cannot tell how many ids the scope's arrays
 * hold and, one toilet holding thousands of records, reads the table in order; ranges cost
 * what the scope's objects hold, whatever the table holds. `places` names the table of the
 * (device_id, toilet_id) pairs the records hold (toilet 0: none), kept by trigger: a device is
 * read only when some of its records lie outside the scope's toilets (a customer's devices
 * in its own toilet were each read whole to find none). Answers the relation's builder (one
 * statement may hold several, each bounded its own way), or null for '/' (the table itself).
 */
export function toiletOrDeviceRanges(w: Params, scope: string, alias: string, places: string) {
  const user = scopeUser(scope);
  if (user === null) return null;
  const u = w.p(user);
  const seenToilets = seenToiletIds(u);
  // A scalar sub-select, probed per device: as EXISTS the planner may hash the whole table
  // (a generic plan, sized for the average account, did: 10k pairs read for 50 devices).
  const elsewhere = `coalesce((SELECT true FROM ${places} dt WHERE dt.device_id = va.device_id
                       AND (dt.toilet_id = 0 OR dt.toilet_id <> ALL(${seenToilets})) LIMIT 1), false)`;
  return (range: (col: 'toilet_id' | 'device_id', id: string, also: string) => string) =>
    `(SELECT o.id FROM toilet_access va CROSS JOIN LATERAL (${range('toilet_id', 'va.toilet_id', 'true')}) o
       WHERE va.user_id = ${u}::int AND va.live
      UNION ALL
      SELECT o.id FROM device_access va
       CROSS JOIN LATERAL (${range('device_id', 'va.device_id', `(${alias}.toilet_id IS NULL OR ${alias}.toilet_id <> ALL(${seenToilets}))`)}) o
       WHERE va.user_id = ${u}::int AND va.live AND ${elsewhere})`;
}

/**
 * The records of a small scope held by the devices that meet `deviceTest` (a condition on a
 * device `d`), as ranges of the records' device index: toiletOrDeviceRanges for a filter that
 * names a few devices by their own columns (a serial-number prefix). The devices are the
 * scope's own and those with records in the scope's toilets (`places`, its (device_id,
 * toilet_id) pairs); each device is tested once, by its key, and a device not the scope's
 * gives only its records in the scope's toilets. `range(col, id, also)` as there (col is
 * always device_id). Null for '/'.
 */
export function deviceRanges(
  w: Params,
  scope: string,
  alias: string,
  places: string,
  deviceTest: (d: string) => string,
) {
  const user = scopeUser(scope);
  if (user === null) return null;
  const u = w.p(user);
  const seenToilets = seenToiletIds(u);
  const test = deviceTest('d');
  // The test as a scalar sub-select per candidate: joined, the planner read every device to
  // hash them (10k for a customer's 50).
  return (range: (col: 'device_id', id: string, also: string) => string) =>
    `(SELECT o.id FROM (SELECT c.id, bool_or(c.own) AS own FROM (
         SELECT va.device_id AS id, true AS own FROM device_access va WHERE va.user_id = ${u}::int AND va.live
         UNION ALL
         SELECT dt.device_id, false FROM ${places} dt WHERE dt.toilet_id = ANY(${seenToilets})) c GROUP BY c.id) c
       CROSS JOIN LATERAL (${range('device_id', 'c.id', `(c.own OR ${alias}.toilet_id = ANY(${seenToilets}))`)}) o
       WHERE coalesce((SELECT ${test} FROM devices d WHERE d.id = c.id), false))`;
}

/**
 * A catalogue row an account keeps (`col`: its owner, null for the console's own) is seen by
 * the owner's subtree and by its ancestors, so a dealer's types serve its customers' technicians.
 */
export function sharedCatalogueSeen(w: Params, scope: string, col: string) {
  if (scope === '/') return 'true';
  const s = w.p(scope);
  return `(${col} IS NULL OR ${col} IN (SELECT o.id FROM users o WHERE o.path LIKE ${s} || '%' OR ${s} LIKE o.path || '%'))`;
}

/** Whether the scope sees more than `limit` devices and toilets (a dealer's) or fewer (a customer's). */
export const scopeObjectsOver = (userParam: string, limit: number) =>
  `(SELECT count(*) FROM (SELECT 1 FROM device_access va WHERE va.user_id = ${userParam}::int AND va.live
      UNION ALL SELECT 1 FROM toilet_access va WHERE va.user_id = ${userParam}::int AND va.live LIMIT ${limit + 1}) x) > ${limit}`;

/** The accounts that see toilet `toilet` or device `device` (parameters), as a sub-select of `user_id`. */
export const accountsSeeingToiletOrDevice = (toilet: string, device: string) =>
  `SELECT va.user_id FROM toilet_access va WHERE va.toilet_id = ${toilet} AND va.live
   UNION SELECT va.user_id FROM device_access va WHERE va.device_id = ${device} AND va.live`;

/**
 * Organisation `alias` (organisations) is seen by the scope: the scope's account works inside
 * it (`orgId`, its users.org_id), or the organisation's manager (`user_id`) is the scope's
 * account or below it (the ssSuperSaled or dealer who created the manager); '/' sees all.
 */
export function orgSeen(w: Params, scope: string, orgId: number | null, alias = 'o') {
  if (scope === '/') return 'true';
  const own = orgId === null ? '' : `${alias}.id = ${w.p(orgId)}::int OR `;
  return `(${own}EXISTS (SELECT 1 FROM users m WHERE m.id = ${alias}.user_id AND ${accountUnder('m', `${w.p(scope)}`)}))`;
}
