import type { Db, Queryable } from './index.ts';

/** One trivial round trip: is the database there? (Db.ping: PGlite's worker answers between statements.) */
export async function ping(db: Db) {
  await db.ping();
}

/** Fresh planner statistics (PGlite has no autovacuum to do it). */
export async function analyze(q: Queryable) {
  await q.query('ANALYZE');
}
