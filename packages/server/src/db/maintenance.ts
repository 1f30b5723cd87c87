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
 * Marks the pages of the tables lists read by index alone (the access closure and the
 * bindings) all-visible. PGlite runs no autovacuum: without this, every closure entry a
 * list page reads or skips is also checked against its table row (a dealer's page 500
 * visits 10,000 rows instead of reading the index only). Cheap after the first time: only
 * pages changed since (bindings, deletes) are read again.
 */
export async function vacuumAccess(q: Queryable) {
  await q.query('VACUUM device_access, toilet_access, device_bindings, toilet_bindings');
}
