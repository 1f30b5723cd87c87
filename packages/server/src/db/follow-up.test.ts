import { afterAll, beforeAll, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/harness.ts';

/**
 * A follow-up statement (QueryOptions.followUp: a list page's rows after its ids) waits only
 * behind other follow-ups, not behind every request's first statement: with a queue of
 * requests in front, a page of two statements is answered after one wait, not two. PGlite
 * runs one statement at a time (its worker's queue); PostgreSQL ten at once (the pool's
 * slots, db/index.ts POOL_SIZE), so sixteen fill them and leave six waiting.
 */
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const SLOW = `SELECT (extract(epoch FROM now()) * 1e6)::float8 AS started, count(*)::int AS n
                FROM generate_series(1, 400000) g WHERE g % 7 = $1`;

it('starts a follow-up on the database before the statements that were waiting ahead of it', async () => {
  const db = t.ctx.db;
  const queued = db.kind === 'pglite' ? 6 : 16;
  const running = db.kind === 'pglite' ? 1 : 10;
  type Started = { started: number }[];
  // Distinct parameters: identical reads in flight would share one execution.
  const firsts = Array.from({ length: queued }, (_, i) => db.query<Started[number]>(SLOW, [i]));
  await new Promise((r) => setImmediate(r));
  const followUp = db.query<Started[number]>(SLOW, [queued], { followUp: true });
  const starts = (await Promise.all(firsts)).map(([r]) => r!.started);
  const [mine] = await followUp;
  // Those that had the database when it came ran first; it started before every one waiting.
  const waited = starts.slice(running);
  expect(waited).toHaveLength(queued - running);
  for (const s of waited) expect(mine!.started).toBeLessThanOrEqual(s);
});
