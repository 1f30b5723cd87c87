import type { Queryable } from './index.ts';

/** One trivial round trip: is the database there? */
export async function ping(q: Queryable) {
  await q.query('SELECT 1');
}

/** Fresh planner statistics (PGlite has no autovacuum to do it). */
export async function analyze(q: Queryable) {
  await q.query('ANALYZE');
}
