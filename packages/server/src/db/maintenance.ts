import type { Db, Queryable } from './index.ts';

/** One trivial round trip: is the database there? (Db.ping: PGlite's worker answers between statements.) */
export async function ping(db: Db) {
  await db.ping();
}

/** Fresh planner statistics (PGlite has no autovacuum to do it). */
export async function analyze(q: Queryable) {
  await q.query('ANALYZE');
}

/**
 * Marks the pages of the tables lists read by index alone all-visible: the access closure and
 * the bindings, and the work orders (a small scope's records off its objects' ranges,
 * maintenance/repo.ts). PGlite runs no autovacuum: without this, every index entry a list
 * page reads or skips is also checked against its table row (a dealer's page 500 visits
 * 10,000 rows instead of reading the index only). Cheap after the first time: only pages
 * changed since (bindings, deletes, steps of a record) are read again.
 */
export async function vacuumListTables(q: Queryable) {
  await q.query(
    'VACUUM device_access, toilet_access, device_bindings, toilet_bindings, maintenance_records, maintenance_device_toilets',
  );
}
