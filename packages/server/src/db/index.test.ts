import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from './index.ts';

// The embedded database, in its worker thread (the default) and on the caller's thread (the
// event-loop benchmark's baseline): the same answers, errors and transaction guarantees.
describe.each([
  ['in a worker thread', false],
  ['on the calling thread', true],
])('embedded PGlite %s', (_name, pgliteInProcess) => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ dataDir: null, pgliteInProcess });
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await db.query('CREATE TABLE t (id int8 PRIMARY KEY, name text UNIQUE, price numeric)');
  });
  afterAll(() => db.close());

  it('answers int8 and numeric as numbers, and has pg_trgm', async () => {
    await db.query('INSERT INTO t VALUES ($1, $2, $3)', [9_007_199_254, 'west lake', '12.5']);
    const [row] = await db.query<{ id: unknown; price: unknown; n: unknown; sim: number }>(
      `SELECT id, price, count(*) OVER () AS n, similarity(name, 'west lak') AS sim FROM t`,
    );
    expect(row).toMatchObject({ id: 9_007_199_254, price: 12.5, n: 1 });
    expect(row!.sim).toBeGreaterThan(0.5);
    expect(db.kind).toBe('pglite');
  });

  it('hands a unique violation to the caller with its code and constraint', async () => {
    await db.query(`INSERT INTO t (id, name) VALUES (1, 'taken')`);
    await expect(db.query(`INSERT INTO t (id, name) VALUES (2, 'taken')`)).rejects.toMatchObject({
      code: '23505',
      constraint: 't_name_key',
    });
    await expect(
      db.transaction((tx) => tx.query(`INSERT INTO t (id, name) VALUES (3, 'taken')`)),
    ).rejects.toMatchObject({ code: '23505' });
    // The failed transaction was rolled back: the connection takes the next statement.
    expect(await db.query(`SELECT id FROM t WHERE name = 'taken'`)).toEqual([{ id: 1 }]);
  });

  it('keeps other statements out of a transaction until it ends', async () => {
    let inserted!: () => void;
    const insertedP = new Promise<void>((r) => (inserted = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (q) => {
      await q.query(`INSERT INTO t (id, name) VALUES (10, 'uncommitted')`);
      inserted();
      await held;
      await q.query(`INSERT INTO t (id, name) VALUES (11, 'uncommitted too')`);
      throw new Error('changed my mind');
    });
    await insertedP;
    // Issued while the transaction is open: it must neither see its rows nor land inside it.
    const outside = db.query<{ n: number }>(`SELECT count(*) AS n FROM t WHERE name LIKE 'uncommitted%'`);
    const other = db.transaction((q) => q.query(`INSERT INTO t (id, name) VALUES (12, 'later')`));
    release();
    await expect(tx).rejects.toThrow('changed my mind');
    expect(await outside).toEqual([{ n: 0 }]);
    await other;
    expect(await db.query(`SELECT id FROM t WHERE id BETWEEN 10 AND 99 ORDER BY id`)).toEqual([{ id: 12 }]);
  });
});

describe('embedded PGlite on disk, in its worker thread', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-db-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps committed rows across close and reopen', async () => {
    const first = await openDb({ dataDir });
    await first.transaction(async (tx) => {
      await tx.query('CREATE TABLE kept (v text)');
      await tx.query(`INSERT INTO kept VALUES ('西湖')`);
    });
    await first.close();
    const again = await openDb({ dataDir });
    expect(await again.query('SELECT v FROM kept')).toEqual([{ v: '西湖' }]);
    await again.close();
  });
});

describe('embedded PGlite ping', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ dataDir: null });
  });
  afterAll(() => db.close());

  it('answers a ping before the statements queued ahead of it have all run', async () => {
    const order: string[] = [];
    const work = Array.from({ length: 5 }, (_, i) =>
      // Five different statements: identical ones would share one execution (coalesced).
      db
        .query('SELECT count(*) FROM generate_series(1, 300000 + $1)', [i])
        .then(() => order.push(`query ${i}`)),
    );
    const pinged = db.ping().then(() => order.push('ping'));
    await Promise.all([...work, pinged]);
    expect(order.indexOf('ping')).toBeLessThan(order.indexOf('query 4'));
  });
});

describe('the embedded database after close', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ dataDir: null });
    await db.close();
  });
  it('refuses statements instead of hanging', async () => {
    await expect(db.query('SELECT 1')).rejects.toThrow(/embedded database stopped/);
  });
});
