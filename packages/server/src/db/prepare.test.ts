import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase, usingPostgres } from '../test/harness.ts';
import { openDb, type Db, type Queryable } from './index.ts';

// Statements asked with `prepare` run as named statements (PostgreSQL's, or the PGlite
// worker's own through the extended protocol): the same rows as unnamed, the same errors,
// inside a transaction as outside.
describe(`prepared statements (${usingPostgres() ? 'PostgreSQL' : 'PGlite'})`, () => {
  let db: Db;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (usingPostgres()) ({ url: databaseUrl, drop } = await scratchDatabase());
    db = await openDb({ databaseUrl, dataDir: null });
    await db.query(
      `CREATE TABLE items (id int PRIMARY KEY, name text, big bigint, at timestamptz, tags jsonb, pair int[], note text)`,
    );
    await db.query(
      `INSERT INTO items SELECT g, '西湖' || g, g::bigint * 10000000000, timestamptz '2026-01-01 00:00:00+08' + g * interval '1 hour',
              jsonb_build_object('n', g), ARRAY[g, g + 1], CASE WHEN g % 2 = 0 THEN NULL ELSE 'odd' END
         FROM generate_series(1, 500) g`,
    );
  });
  afterAll(async () => {
    await db.close();
    await drop?.();
  });

  const LIST = `SELECT id, name, big, at, tags, pair, note FROM items
                 WHERE id = ANY($1::int[]) AND name LIKE $2 || '%' AND ($3::text IS NULL OR note = $3) ORDER BY id`;

  it('answers the rows an unnamed statement answers, run after run, whatever the values', async () => {
    // More runs than the five after which the server may keep one generic plan.
    for (let i = 0; i < 12; i++) {
      const values = [[i + 1, i + 2, 400 + i], i % 3 === 0 ? '西湖1' : '西湖', i % 2 ? 'odd' : null];
      const prepared = await db.query(LIST, values, { prepare: true });
      expect(prepared).toEqual(await db.query(LIST, values));
    }
    const [row] = await db.query(LIST, [[3], '西湖', 'odd'], { prepare: true });
    expect(row).toEqual({
      id: 3,
      name: '西湖3',
      big: 30000000000,
      at: new Date('2026-01-01T03:00:00+08:00'),
      tags: { n: 3 },
      pair: [3, 4],
      note: 'odd',
    });
    expect(await db.query(LIST, [[2], '东湖', null], { prepare: true })).toEqual([]);
  });

  it('fails as PostgreSQL fails, and the next statements, named or not, still run', async () => {
    const SHARE = 'SELECT 100 / $1::int AS share';
    expect(await db.query(SHARE, [4], { prepare: true })).toEqual([{ share: 25 }]);
    await expect(db.query(SHARE, [0], { prepare: true })).rejects.toMatchObject({ code: '22012' });
    await expect(db.query(SHARE, ['四'], { prepare: true })).rejects.toMatchObject({ code: '22P02' });
    await expect(
      db.query('SELECT nothing FROM items WHERE id = $1', [1], { prepare: true }),
    ).rejects.toMatchObject({
      code: '42703',
    });
    expect(await db.query(SHARE, [5], { prepare: true })).toEqual([{ share: 20 }]);
    expect(await db.query('SELECT count(*)::int AS n FROM items')).toEqual([{ n: 500 }]);
  });

  it('sees its transaction’s own writes, and a failure rolls the transaction back', async () => {
    const NAME = 'SELECT name FROM items WHERE id = $1';
    const seen = await db.transaction(async (tx) => {
      await tx.query(`UPDATE items SET name = '断桥' WHERE id = $1`, [7]);
      return tx.query(NAME, [7], { prepare: true });
    });
    expect(seen).toEqual([{ name: '断桥' }]);
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`UPDATE items SET name = '孤山' WHERE id = $1`, [8]);
        await tx.query('SELECT 1 / $1::int', [0], { prepare: true });
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect(await db.query(NAME, [8], { prepare: true })).toEqual([{ name: '西湖8' }]);
    expect(await db.query(NAME, [7], { prepare: true })).toEqual([{ name: '断桥' }]);
  });

  it('runs a statement asked to on its generic plan, and the others planned as the server chooses', async () => {
    // A small scope's page was planned on every call when the server chose: its custom plans
    // cost less than the generic plan, sized for the average account (db/index.ts QueryOptions).
    const MODE = `SELECT current_setting('plan_cache_mode') AS mode, $1::int AS n`;
    const modeOf = async (opts: { prepare?: boolean; generic?: boolean }, n: number, q: Queryable = db) =>
      (await q.query<{ mode: string }>(MODE, [n], opts))[0]!.mode;
    const modes = async () => ({
      generic: await modeOf({ prepare: true, generic: true }, 1),
      prepared: await modeOf({ prepare: true }, 2),
      unnamed: await modeOf({}, 3),
    });
    const expected = { generic: 'force_generic_plan', prepared: 'auto', unnamed: 'auto' };
    for (let i = 0; i < 3; i++) expect(await modes()).toEqual(expected);
    // A rolled-back transaction that ran each kind leaves each as it was.
    await expect(
      db.transaction(async (tx) => {
        await modeOf({ prepare: true, generic: true }, 4, tx);
        await modeOf({}, 5, tx);
        await modeOf({ prepare: true, generic: true }, 6, tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await modes()).toEqual(expected);
    expect(await modeOf({}, 7)).toBe('auto');
  });
});
