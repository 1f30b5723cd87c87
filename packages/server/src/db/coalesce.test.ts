import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase, usingPostgres } from '../test/harness.ts';
import { coalesced, isSharedRead, openDb, type Db, type Queryable, type Row } from './index.ts';

/**
 * The real database with a gate in front of shareable reads: while closed, reads that reach
 * the database wait there (so a read stays "in flight" as long as a test needs) while writes
 * pass, and every statement that reaches the database is counted.
 */
function gated(db: Db) {
  let open = true;
  let waiting: (() => void)[] = [];
  const gate = {
    executed: 0,
    close() {
      open = false;
    },
    release() {
      open = true;
      for (const go of waiting) go();
      waiting = [];
    },
    /** Resolves once `n` statements wait at the closed gate. */
    async held(n: number) {
      while (waiting.length < n) await new Promise((r) => setTimeout(r, 2));
    },
  };
  const inner: Db = {
    kind: db.kind,
    async query<T>(sql: string, params?: readonly unknown[]) {
      gate.executed++;
      if (!open && isSharedRead(sql)) await new Promise<void>((go) => waiting.push(go));
      return db.query<T>(sql, params);
    },
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn),
    close: () => db.close(),
    ping: () => db.ping(),
  };
  return { gate, inner };
}

describe(`coalesced reads (${usingPostgres() ? 'PostgreSQL' : 'PGlite'})`, () => {
  let raw: Db;
  let drop: (() => Promise<void>) | undefined;
  let gate: ReturnType<typeof gated>['gate'];
  let db: Db;
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (usingPostgres()) ({ url: databaseUrl, drop } = await scratchDatabase());
    raw = await openDb({ databaseUrl, dataDir: null, coalesce: false });
    const g = gated(raw);
    gate = g.gate;
    db = coalesced(g.inner);
    await db.query('CREATE TABLE items (id int PRIMARY KEY, name text, tags jsonb)');
    await db.query(`INSERT INTO items VALUES (1, '西湖', '["a"]')`);
    await db.query('CREATE SEQUENCE numbers');
  });
  afterAll(async () => {
    gate.release();
    await raw.close();
    await drop?.();
  });

  const LIST = 'SELECT id, name, tags FROM items WHERE id < $1 ORDER BY id';

  it('runs fifty identical reads asked at once as one statement, each caller with its own rows', async () => {
    gate.close();
    const before = gate.executed;
    const reads = Array.from({ length: 50 }, () => db.query<Row>(LIST, [100]));
    // A different parameter is a different statement.
    const other = db.query(LIST, [1]);
    await gate.held(2);
    gate.release();
    const answers = await Promise.all(reads);
    expect(gate.executed - before).toBe(2);
    expect(await other).toEqual([]);
    for (const rows of answers) expect(rows).toEqual([{ id: 1, name: '西湖', tags: ['a'] }]);
    // One caller changing its rows (or a nested value) changes nobody else's.
    answers[0]![0]!.name = 'changed';
    (answers[1]![0]!.tags as string[]).push('b');
    expect(answers[2]).toEqual([{ id: 1, name: '西湖', tags: ['a'] }]);
    expect(answers[0]).not.toBe(answers[3]);
  });

  it('never lets a read asked after a committed write take rows from before it', async () => {
    gate.close();
    const inFlight = db.query(LIST, [100]);
    await gate.held(1);
    // The write is answered while the identical read is still in flight…
    await db.transaction((tx) => tx.query(`INSERT INTO items VALUES (2, '断桥', '[]')`));
    // …so the same read asked now runs again and sees it.
    const after = db.query<Row>(LIST, [100]);
    await gate.held(2);
    gate.release();
    expect((await after).map((r) => r.id)).toEqual([1, 2]);
    await inFlight;
  });

  it('treats a plain write statement like a transaction', async () => {
    gate.close();
    const inFlight = db.query(LIST, [100]);
    await gate.held(1);
    await db.query(`UPDATE items SET name = '孤山' WHERE id = 1`);
    const after = db.query<Row>(LIST, [100]);
    await gate.held(2);
    gate.release();
    expect((await after)[0]!.name).toBe('孤山');
    await inFlight;
  });

  it('does not share reads inside a transaction or statements with effects', async () => {
    gate.close();
    const before = gate.executed;
    const inFlight = db.query(LIST, [100]);
    await gate.held(1);
    // The transaction's own connection: it does not wait for the read at the gate.
    const inTx = await db.transaction((tx) => tx.query<Row>(LIST, [100]));
    expect(inTx).toHaveLength(2);
    const [[a], [b]] = await Promise.all([
      db.query<{ n: number }>(`SELECT nextval('numbers') AS n`),
      db.query<{ n: number }>(`SELECT nextval('numbers') AS n`),
    ]);
    gate.release();
    expect(a!.n).not.toBe(b!.n);
    expect(gate.executed - before).toBe(3);
    await inFlight;
  });

  it('hands an error to every caller that joined', async () => {
    gate.close();
    const bad = 'SELECT id FROM items WHERE id = $1::int';
    const reads = Array.from({ length: 3 }, () => db.query(bad, ['x']));
    await gate.held(1);
    gate.release();
    for (const r of reads) await expect(r).rejects.toMatchObject({ code: '22P02' });
  });
});

describe('what counts as a shared read', () => {
  it('takes plain selects and refuses writes, locks and volatile calls', () => {
    expect(isSharedRead('SELECT d.id, d.is_delete, d.updated_at FROM devices d')).toBe(true);
    expect(isSharedRead('  WITH p AS (SELECT 1) SELECT * FROM p')).toBe(true);
    for (const sql of [
      'INSERT INTO t VALUES (1)',
      'WITH x AS (DELETE FROM t RETURNING id) SELECT * FROM x',
      'SELECT id FROM jobs FOR UPDATE SKIP LOCKED',
      `SELECT nextval(pg_get_serial_sequence('users', 'id'))`,
      'SELECT pg_try_advisory_lock(1)',
      'SELECT gen_random_uuid()',
    ]) {
      expect(isSharedRead(sql), sql).toBe(false);
    }
  });
});
