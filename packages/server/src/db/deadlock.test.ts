import { afterAll, beforeAll, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/harness.ts';

// Two transactions that take the same two rows in opposite order: on PostgreSQL one of them
// is chosen as the deadlock victim and aborted; Db.transaction runs it again, so both callers
// get their answer instead of a server error. (On PGlite transactions never overlap.)
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  await t.ctx.db.query('CREATE TABLE deadlock_probe (id int PRIMARY KEY, n int NOT NULL)');
  await t.ctx.db.query('INSERT INTO deadlock_probe VALUES (1, 0), (2, 0)');
});
afterAll(() => t.close());

it('runs a transaction again when the database aborts it as a deadlock victim', async () => {
  let bothHoldOne!: () => void;
  const held = new Promise<void>((r) => (bothHoldOne = r));
  let holding = 0;
  const crosswise = (first: number, second: number) =>
    t.ctx.db.transaction(async (tx) => {
      await tx.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = $1', [first]);
      // The first attempts wait for each other, so they really cross; reruns go straight on.
      if (++holding === 2) bothHoldOne();
      if (holding <= 2) await Promise.race([held, new Promise((r) => setTimeout(r, 2000))]);
      await tx.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = $1', [second]);
      return first;
    });
  await expect(Promise.all([crosswise(1, 2), crosswise(2, 1)])).resolves.toEqual([1, 2]);
  const rows = await t.ctx.db.query<{ id: number; n: number }>(
    'SELECT id, n FROM deadlock_probe ORDER BY id',
  );
  expect(rows).toEqual([
    { id: 1, n: 2 },
    { id: 2, n: 2 },
  ]);
});
