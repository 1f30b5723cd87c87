import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/harness.ts';
import type { Queryable } from './index.ts';
import { PageAnchors } from './page-anchors.ts';
import type { JsonRows } from './json-rows.ts';
import { Params, rowsByIdsSql, selectPage, type PageStatement } from './sql.ts';

/**
 * A deep page starts below the last id of a page read before it (PageAnchors), instead of
 * walking every row from the top again; its rows are the plain list's, and what the owner
 * changes drops the anchors.
 */
let t: TestApp;

beforeAll(async () => {
  t = await testApp();
  await t.ctx.db.query(
    'CREATE TABLE anchor_rows AS SELECT g AS id, g % 3 AS mod FROM generate_series(1, 500) g',
  );
});
afterAll(() => t.close());

/** The database, and the list statements sent through it (their parameters). */
function watched() {
  const sent: unknown[][] = [];
  const q: Queryable = {
    query(sql, params, opts) {
      if (/\banchor_rows\b/.test(sql)) sent.push([...(params ?? [])]);
      return t.ctx.db.query(sql, params, opts);
    },
  };
  return { q, sent };
}

/** The rows of anchor_rows meeting `where`, newest first: ids first, paged below `anchors`. */
const rowsWhere = (where: string, anchors: PageAnchors): PageStatement => ({
  list: (window, _need, below) =>
    `SELECT id FROM anchor_rows WHERE ${where}${below ? ` AND id < ${below}` : ''} ORDER BY id DESC ${window}`,
  rows: rowsByIdsSql('a.id', 'anchor_rows', 'a'),
  anchors,
  where,
  countFrom: 'anchor_rows',
});

async function pageOf(q: Queryable, anchors: PageAnchors, mod: number, offset: number, limit = 10) {
  const w = new Params();
  const r = await selectPage<{ id: number }>(
    q,
    w,
    { limit, offset },
    rowsWhere(`mod = ${w.p(mod)}`, anchors),
  );
  return { ids: (r.list as { id: number }[]).map((x) => x.id), total: r.total };
}

/** A page of every row (500, newest first), as JSON rows with `s`'s options. */
async function everyRow(q: Queryable, anchors: PageAnchors, offset: number, s: Partial<PageStatement> = {}) {
  const w = new Params();
  const r = await selectPage<{ id: number }>(
    q,
    w,
    { limit: 10, offset },
    { ...rowsWhere(`id > ${w.p(0)}`, anchors), json: true, ...s },
  );
  return (r.list as JsonRows<{ id: number }>).parse().map((x) => x.id);
}

/** The rows with `mod`, newest first, from `offset`: what any page must hold. */
const plain = (mod: number, offset: number, limit = 10) =>
  Array.from({ length: 500 }, (_, i) => 500 - i)
    .filter((id) => id % 3 === mod)
    .slice(offset, offset + limit);

describe('page anchors', () => {
  it('starts the next page below the last id of the page before, with the same rows', async () => {
    const anchors = new PageAnchors(() => 0);
    const { q, sent } = watched();
    expect((await pageOf(q, anchors, 1, 0)).ids).toEqual(plain(1, 0));
    const first = sent.length;
    const second = await pageOf(q, anchors, 1, 10);
    expect(second.ids).toEqual(plain(1, 10));
    expect(second.total).toBe(167);
    // The page was asked below page 1's last id, skipping nothing (offset 0).
    const asked = sent[first]!;
    expect(asked.slice(-2)).toEqual([0, plain(1, 0).at(-1)]);
    // Further on: below the nearest known position before it (page 2's last row, position 19).
    sent.length = 0;
    expect((await pageOf(q, anchors, 1, 50)).ids).toEqual(plain(1, 50));
    expect(sent[0]!.slice(-2)).toEqual([30, plain(1, 10).at(-1)]);
    // Another page size reads the same positions.
    expect((await pageOf(q, anchors, 1, 20, 20)).ids).toEqual(plain(1, 20, 20));
    // Each filter has its own.
    expect((await pageOf(q, anchors, 2, 10)).ids).toEqual(plain(2, 10));
  });

  it('keeps paging on from where the reader was when rows above change elsewhere, until the owner says it changed', async () => {
    let generation = 0;
    const anchors = new PageAnchors(() => generation);
    const { q } = watched();
    const page1 = (await pageOf(q, anchors, 0, 0)).ids;
    // Another process removes a row of page 1: the next page still begins after page 1's
    // last row, so the reader misses nothing.
    await t.ctx.db.query('DELETE FROM anchor_rows WHERE id = $1', [page1[0]]);
    expect((await pageOf(q, anchors, 0, 10)).ids).toEqual(plain(0, 10));
    // The owner's own change drops the anchors: the page is counted from the top again.
    generation++;
    const fresh = (await pageOf(q, anchors, 0, 10)).ids;
    expect(fresh).toEqual(plain(0, 11));
    await t.ctx.db.query('INSERT INTO anchor_rows VALUES ($1, 0)', [page1[0]]);
  });

  it('finds deep pages nobody has read by one survey, shared by the callers asking at once', async () => {
    const anchors = new PageAnchors(() => 0);
    const { q, sent } = watched();
    // Ten readers open pages 26 to 35 of a list nobody has paged, all at once.
    const offsets = Array.from({ length: 10 }, (_, i) => 250 + i * 10);
    const pages = await Promise.all(offsets.map((o) => everyRow(q, anchors, o)));
    pages.forEach((ids, i) =>
      expect(ids).toEqual(Array.from({ length: 10 }, (_, k) => 500 - offsets[i]! - k)),
    );
    // One statement walked from the top (the survey: 1,000 rows asked from position 0); every
    // page then started below a position it found, skipping less than a page.
    const fromTop = sent.filter((p) => p.length === 3);
    expect(fromTop).toEqual([[0, 1000, 0]]);
    const anchored = sent.filter((p) => p.length === 4);
    expect(anchored).toHaveLength(10);
    for (const p of anchored) expect(p[2]).toBeLessThan(10);
    // A page close below a known one is not surveyed again.
    sent.length = 0;
    expect(await everyRow(q, anchors, 400)).toEqual(Array.from({ length: 10 }, (_, k) => 100 - k));
    expect(sent.filter((p) => p.length === 3)).toEqual([]);
    // Past the end: one survey finds where the list ends, and pages past it ask no other.
    const fresh = new PageAnchors(() => 0);
    sent.length = 0;
    expect(await everyRow(q, fresh, 700)).toEqual([]);
    expect(await everyRow(q, fresh, 800)).toEqual([]);
    expect(sent.filter((p) => p.length >= 3 && (p[1] as number) > 10)).toEqual([[0, 1000, 0]]);
  });

  it('takes a prepared page and its rows in one statement', async () => {
    const anchors = new PageAnchors(() => 0);
    const { q, sent } = watched();
    const opts = { prepare: true, generic: true };
    // The first page also counts; the next, its total known, is one statement for ids and rows.
    expect(await everyRow(q, anchors, 0, opts)).toEqual(Array.from({ length: 10 }, (_, k) => 500 - k));
    sent.length = 0;
    expect(await everyRow(q, anchors, 10, opts)).toEqual(Array.from({ length: 10 }, (_, k) => 490 - k));
    expect(sent).toHaveLength(1);
    // Planned every call, the rows come by a statement of their own.
    sent.length = 0;
    expect(await everyRow(q, anchors, 20)).toEqual(Array.from({ length: 10 }, (_, k) => 480 - k));
    expect(sent).toHaveLength(2);
  });

  it('forgets anchors after their time', async () => {
    const anchors = new PageAnchors(() => 0, 30);
    const { q, sent } = watched();
    await pageOf(q, anchors, 0, 0);
    await new Promise((r) => setTimeout(r, 60));
    sent.length = 0;
    expect((await pageOf(q, anchors, 0, 10)).ids).toEqual(plain(0, 10));
    expect(sent[0]!.slice(-2)).toEqual([10, 10]);
  });
});
