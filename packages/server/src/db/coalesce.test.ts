import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatedDb } from '../test/gated-db.ts';
import { CODE, USER_API } from '@se/core';
import {
  addDevice,
  dealers,
  kindUrl,
  scratchDatabase,
  TEST_PASSWORD,
  testApp,
  usingPostgres,
  type Account,
  type TestApp,
} from '../test/harness.ts';
import { coalesced, isSharedRead, openDb, type Db, type Row } from './index.ts';

describe(`coalesced reads (${usingPostgres() ? 'PostgreSQL' : 'PGlite'})`, () => {
  let raw: Db;
  let drop: (() => Promise<void>) | undefined;
  let gate: ReturnType<typeof gatedDb>['gate'];
  let db: Db;
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (usingPostgres()) ({ url: databaseUrl, drop } = await scratchDatabase());
    raw = await openDb({ databaseUrl, dataDir: null, coalesce: false });
    const g = gatedDb(raw);
    gate = g.gate;
    db = coalesced(g.db);
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

  it('keeps texts apart by their whole text, also past the texts it numbers', async () => {
    // Texts built with a value in them: more than the 5,000 whose keys are their numbers.
    const text = (i: number) => `SELECT id, name FROM items WHERE id < $1 AND ${i} > 0`;
    for (let i = 1; i <= 5001; i++) await db.query(text(i), [100]);
    for (const i of [1, 6000]) {
      gate.close();
      const before = gate.executed;
      const same = [db.query(text(i), [100]), db.query(text(i), [100])];
      const other = db.query(text(i + 1), [100]);
      await gate.held(2);
      gate.release();
      expect(await Promise.all([...same, other])).toEqual([1, 2, 3].map(() => [{ id: 1, name: '西湖' }]));
      expect(gate.executed - before, `text ${i}`).toBe(2);
    }
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
    // The transaction's own connection: it does not join the read waiting at the gate.
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

/**
 * Through the whole app: a change answered to one account takes effect on the very next
 * request of another, even while identical reads of that account, asked before the change,
 * are still in flight with rows from before it.
 */
describe(`shared reads through the app (${usingPostgres() ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: TestApp;
  let gate: ReturnType<typeof gatedDb>['gate'];
  let dealer: Account;
  let customer: Account;
  let gateway: number;
  beforeAll(async () => {
    t = await testApp(
      {},
      {
        wrapDb: (raw) => {
          const g = gatedDb(raw);
          gate = g.gate;
          return coalesced(g.db);
        },
      },
    );
    ({ dealer, customer } = await dealers(t, 'sf'));
    gateway = (await addDevice(t, 'gateway', 'SF-GW', dealer.token)).id;
    const b = await t.post(
      kindUrl('gateway', 'bind'),
      { user_id: customer.id, add_ids: `${gateway}` },
      { token: dealer.token },
    );
    expect(b.code, b.message).toBe(200);
  });
  afterAll(async () => {
    gate.release();
    await t.close();
  });

  const gateways = (token: string) =>
    t.get<{ list: { id: number }[] }>(kindUrl('gateway', 'list'), { page: 1, page_size: 20 }, { token });

  it('a gateway unbound while the customer’s identical list reads are in flight is gone from its next list', async () => {
    expect((await gateways(customer.token)).data.list.map((d) => d.id)).toEqual([gateway]);
    // The page's ids statement (its capped count rides in it) of every request waits at the
    // gate with its answer; the rows of those ids are read after it.
    gate.close(/array_agg\(l\.id\)/);
    const before = [gateways(customer.token), gateways(customer.token), gateways(customer.token)];
    await gate.held(1);
    const unbind = await t.post(
      kindUrl('gateway', 'bind'),
      { user_id: customer.id, remove_ids: `${gateway}` },
      { token: dealer.token },
    );
    expect(unbind.code, unbind.message).toBe(200);
    const after = gateways(customer.token);
    // Its own execution, not the one in flight since before the unbind.
    await gate.held(2);
    gate.release();
    expect((await after).data.list).toEqual([]);
    // The three asked before the change shared one execution and its rows.
    for (const r of await Promise.all(before)) expect(r.data.list.map((d) => d.id)).toEqual([gateway]);
  });

  it('an account that lost its rights while its session was being read gets 403 on its next request', async () => {
    const token = await t.login('sf_customer', TEST_PASSWORD);
    // The new token's first request reads its session (and rights) and waits with them.
    gate.close(/FROM sessions s/);
    const early = gateways(token);
    await gate.held(1);
    const r = await t.post(USER_API.update, { id: customer.id, permissions: 0 }, { token: dealer.token });
    expect(r.code, r.message).toBe(200);
    const late = gateways(token);
    await gate.held(2);
    gate.release('newest');
    expect((await late).code).toBe(CODE.forbidden);
    // The read from before the change ends last: it must not put the old rights back in
    // the session cache.
    gate.release();
    await early;
    expect((await gateways(token)).code).toBe(CODE.forbidden);
  });
});
