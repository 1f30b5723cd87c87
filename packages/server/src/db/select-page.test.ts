import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_COUNT_LIMIT } from '@se/core';
import { testApp, type TestApp } from '../test/harness.ts';
import type { Queryable } from './index.ts';
import { JsonRows } from './json-rows.ts';
import { Params, rowsByIdsSql, selectPage } from './sql.ts';

/**
 * selectPage's count: a list past EXACT_COUNT_LIMIT is counted (capped) and estimated once,
 * and callers asking for pages of it meanwhile share that count instead of each taking it.
 */
let t: TestApp;
const ROWS = EXACT_COUNT_LIMIT * 3;

beforeAll(async () => {
  t = await testApp();
  await t.ctx.db.query(
    `CREATE TABLE page_rows AS SELECT g AS id, g % 7 AS mod FROM generate_series(1, $1::int) g`,
    [ROWS],
  );
  await t.ctx.db.query('ANALYZE page_rows');
});
afterAll(() => t.close());

/** The database, and the statements sent through it that count rows. */
function counted(db: Queryable) {
  const counts: string[] = [];
  const q: Queryable = {
    query(sql, params, opts) {
      if (/count\(\*\)|EXPLAIN/.test(sql)) counts.push(sql);
      return db.query(sql, params, opts);
    },
  };
  return { q, counts };
}

const pageOf = (q: Queryable, mod: number | null, offset: number) => {
  const w = new Params();
  const where = mod === null ? 'true' : `mod = ${w.p(mod)}`;
  return selectPage<{ id: number }>(
    q,
    w,
    { limit: 10, offset },
    {
      list: (window) => `SELECT id FROM page_rows WHERE ${where} ORDER BY id DESC ${window}`,
      where,
      countFrom: 'page_rows',
    },
  );
};

/** The first five of the rows up to `most`: a list of `most` rows, counted exactly. */
const firstFive = (q: Queryable, most: number) => {
  const w = new Params();
  const where = `id <= ${w.p(most)}`;
  return selectPage<{ id: number }>(
    q,
    w,
    { limit: 5, offset: 0 },
    {
      list: (window) => `SELECT id FROM page_rows WHERE ${where} ORDER BY id DESC ${window}`,
      where,
      countFrom: 'page_rows',
    },
  );
};

describe('a page and its count', () => {
  it('counts and estimates a large list once for callers paging it at the same time', async () => {
    const { q, counts } = counted(t.ctx.db);
    const pages = await Promise.all(Array.from({ length: 20 }, (_, i) => pageOf(q, null, i * 10)));
    // Each caller has its own page, every one the same estimated total.
    expect(pages.map((p) => p.list[0]!.id)).toEqual(Array.from({ length: 20 }, (_, i) => ROWS - i * 10));
    for (const p of pages) {
      expect(p.estimated).toBe(true);
      expect(p.total).toBe(pages[0]!.total);
      expect(p.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    }
    // One capped count (riding in the first caller's page) and one EXPLAIN, not twenty of each.
    expect(counts).toHaveLength(2);
    // Then the estimate is known: pages without counts.
    counts.length = 0;
    await Promise.all([pageOf(q, null, 500), pageOf(q, null, 510)]);
    expect(counts).toEqual([]);
    // Another database asking the same statement with the same values counts its own rows:
    // estimates are kept per database (two test suites' databases in one worker shared them).
    const other = counted(t.ctx.db);
    await pageOf(other.q, null, 0);
    expect(other.counts).toHaveLength(2);
  });

  it('shares an exact count too, and each filter has its own', async () => {
    const { q, counts } = counted(t.ctx.db);
    const small = () => firstFive(q, 12);
    const [a, b, c] = await Promise.all([small(), small(), small()]);
    for (const p of [a, b, c]) {
      expect(p.total).toBe(12);
      expect(p.estimated).toBeUndefined();
      expect(p.list.map((r) => r.id)).toEqual([12, 11, 10, 9, 8]);
    }
    expect(counts).toHaveLength(1);
    // An exact count is not kept: asked again later, it is counted again.
    await small();
    expect(counts).toHaveLength(2);
    // Two filters at once: a count each.
    counts.length = 0;
    const [m1, m2] = await Promise.all([pageOf(q, 1, 0), pageOf(q, 2, 0)]);
    expect(m1.list[0]!.id % 7).toBe(1);
    expect(m2.list[0]!.id % 7).toBe(2);
    expect(counts.filter((s) => s.includes('count(*)'))).toHaveLength(2);
  });

  it('gives a count that failed to every caller sharing it, and counts again afterwards', async () => {
    let fail = true;
    const q: Queryable = {
      query(sql, params, opts) {
        if (fail && sql.includes('count(*)')) return Promise.reject(new Error('count failed'));
        return t.ctx.db.query(sql, params, opts);
      },
    };
    const failing = () => firstFive(q, 40);
    const all = await Promise.allSettled([failing(), failing()]);
    expect(all.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect((await failing()).total).toBe(40);
  });
});

describe('rows by their ids', () => {
  /** A page of `page_rows` whose filter selects ids and whose rows come from a second statement. */
  const byIds = (q: Queryable, most: number, offset: number, json = false, countFrom = 'page_rows') => {
    const w = new Params();
    const where = `id <= ${w.p(most)}`;
    return selectPage<{ id: number; label: string }>(
      q,
      w,
      { limit: 5, offset },
      {
        list: (window) => `SELECT id FROM page_rows WHERE ${where} ORDER BY mod, id DESC ${window}`,
        rows: rowsByIdsSql(`p.id, 'row ' || p.id || ' mod ' || p.mod AS label`, 'page_rows', 'p'),
        where,
        countFrom,
        json,
      },
    );
  };

  type Row = { id: number; label: string };
  const rowsOf = (list: Row[] | JsonRows<Row>) => (list instanceof JsonRows ? list.parse() : list);

  it("builds the page's rows in the list's order by a statement kept prepared", async () => {
    const sent: { sql: string; prepare?: boolean }[] = [];
    const q: Queryable = {
      query(sql, params, opts) {
        sent.push({ sql, prepare: opts?.prepare });
        return t.ctx.db.query(sql, params, opts);
      },
    };
    // Rows 1–40 by mod, then newest first: mod 0 holds 35, 28, 21, 14, 7, then mod 1 40, 36…
    const first = await byIds(q, 40, 0);
    expect(first.total).toBe(40);
    expect(rowsOf(first.list).map((r) => r.id)).toEqual([35, 28, 21, 14, 7]);
    expect(rowsOf(first.list)[0]!.label).toBe('row 35 mod 0');
    const next = await byIds(q, 40, 5);
    expect(rowsOf(next.list).map((r) => r.id)).toEqual([36, 29, 22, 15, 8]);
    // The ids (with the count), then the rows by the kept statement.
    expect(sent).toHaveLength(4);
    expect(sent.filter((s) => s.sql.includes('unnest($1::int[])')).map((s) => s.prepare)).toEqual([
      true,
      true,
    ]);
    // As JSON text, in the same order.
    const json = await byIds(q, 40, 5, true);
    expect(rowsOf(json.list).map((r) => r.id)).toEqual([36, 29, 22, 15, 8]);
  });

  it('asks for no rows past the last page', async () => {
    const sent: string[] = [];
    const q: Queryable = {
      query(sql, params, opts) {
        sent.push(sql);
        return t.ctx.db.query(sql, params, opts);
      },
    };
    const past = await byIds(q, 12, 20);
    expect(rowsOf(past.list)).toEqual([]);
    expect(past.total).toBe(12);
    expect(sent).toHaveLength(1);
    const json = await byIds(q, 12, 20, true);
    expect(json.list).toBeInstanceOf(JsonRows);
    expect((json.list as JsonRows<unknown>).text).toBe('[]');
  });

  it.each([false, true])(
    'runs no count for a list that ends on its page, and counts one that goes on (JSON: %s)',
    async (json) => {
      // A count of this fails as soon as it reads a row: it shows whether the count ran.
      const failing = '(SELECT id FROM page_rows WHERE 1 / (id - id) = 1) z';
      const page = (most: number, offset: number) => byIds(t.ctx.db, most, offset, json, failing);
      // The last page of 12 rows, a list of 3 and one of none: their totals from the page alone.
      const last = await page(12, 10);
      expect(rowsOf(last.list).map((r) => r.id)).toEqual([5, 6]);
      expect(last.total).toBe(12);
      expect((await page(3, 0)).total).toBe(3);
      const none = await page(0, 0);
      expect(rowsOf(none.list)).toEqual([]);
      expect(none.total).toBe(0);
      // A full page, and a page past the end, need the count.
      await expect(page(12, 0)).rejects.toThrow(/division by zero/);
      await expect(page(12, 20)).rejects.toThrow(/division by zero/);
    },
  );
});
