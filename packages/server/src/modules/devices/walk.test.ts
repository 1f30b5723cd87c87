import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_COUNT_LIMIT, TZ_OFFSET_SQL } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { WALK_FAR, WALK_NEED, WALK_ROWS } from '../../db/sql.ts';
import { dealers, scopeOfAccount, testApp, type TestApp } from '../../test/harness.ts';
import { WALK_SCOPE, listComments } from '../comments/repo.ts';
import { listToilets } from '../toilets/repo.ts';
import { listDevices, type DeviceFilter } from './repo.ts';
import { seesFewDevices, seesFewReviewPlaces } from '../access/repo.ts';

/**
 * Issue 14: a filtered device (or toilet, or review) list near its top reads the caller's
 * rows newest first and tests them row by row, goes on up to WALK_FAR rows when the first
 * WALK_ROWS promise the page, or turns to the filter's index when they hold too few matches
 * or the index holds few (db/sql.ts walkFirst). Whichever way a page is found, it and its
 * total are the ones the plain filter gives (`exact`, every match counted through the index).
 */
let t: TestApp;
let dealer: string;
let customer: string;
let toiletIds: number[];
const SCOPE = WALK_ROWS + 600;
const FILLER = WALK_FAR - SCOPE;
const PLACES = ['西湖', '断桥', '北山', '湖滨', '武林', '延安', '钱塘', '孤山', '灵隐', '龙井'];

beforeAll(async () => {
  t = await testApp();
  const a = await dealers(t, 'walk');
  dealer = await scopeOfAccount(t, a.dealer.id);
  customer = await scopeOfAccount(t, a.customer.id);
  // Older than all of them, unbound gateways enough for develop's walk to pass WALK_FAR; the
  // oldest says 稀疏, a word otherwise only in a third of the newest WALK_ROWS gateways.
  await t.ctx.db.query(
    `INSERT INTO devices (kind, ser_num, "desc", location, token)
     SELECT 'gateway', 'FL-' || lpad(g::text, 6, '0'), '填充' || CASE WHEN g = 1 THEN '稀疏' ELSE '' END || g,
            '某地', 'fill-tok-' || g
       FROM generate_series(1, $1::int) g ORDER BY g`,
    [FILLER],
  );
  // The dealer's devices, then as many of another dealer's (matches the dealer must not see),
  // one in three reporting now; one rare word among the dealer's oldest.
  await t.ctx.db.query(
    `WITH d AS (
       INSERT INTO devices (kind, ser_num, "desc", location, token, time)
       SELECT 'gateway', 'WK-' || lpad(g::text, 6, '0'),
              (ARRAY[${PLACES.map((p) => `'${p}'`).join(',')}])[1 + g % 10] || '公厕' || g || '号'
                || CASE WHEN g = 7 THEN '稀有' ELSE '' END
                || CASE WHEN g > $2 - $5 AND g % 3 = 0 THEN '稀疏' ELSE '' END,
              '杭州市', 'walk-tok-' || g, CASE WHEN g % 3 = 0 THEN now() END
         FROM generate_series(1, $2::int) g ORDER BY g RETURNING id, ser_num)
     INSERT INTO device_bindings (device_id, user_id)
     SELECT id, CASE WHEN substr(ser_num, 4)::int <= $3 THEN $1::int ELSE $4::int END FROM d`,
    [a.dealer.id, SCOPE * 2, SCOPE, a.other.id, WALK_ROWS],
  );
  // The customer holds 30 of the dealer's devices, the newest but one.
  await t.ctx.db.query(
    `INSERT INTO device_bindings (device_id, user_id)
     SELECT id, $1 FROM devices WHERE ser_num BETWEEN 'WK-' || lpad(($2 - 30)::text, 6, '0') AND 'WK-' || lpad(($2 - 1)::text, 6, '0')`,
    [a.customer.id, SCOPE],
  );
  // Reviews: four toilets, three the dealer's (one of them also the customer's), one the
  // other dealer's; a fifth of the reviews say 干净, one old one a rare word.
  const toilets = await t.ctx.db.query<{ id: number }>(
    `INSERT INTO toilets (name, address, cityname, adname)
     SELECT '走查公厕' || g, '某路', '杭州市', '西湖区' FROM generate_series(1, 4) g ORDER BY g RETURNING id`,
  );
  toiletIds = toilets.map((r) => r.id);
  // The toilet list's own: SCOPE toilets the dealer's, as many the other dealer's, named after
  // the places in turn; one rare word among the dealer's oldest.
  await t.ctx.db.query(
    `WITH t AS (
       INSERT INTO toilets (name, address, cityname, adname)
       SELECT (ARRAY[${PLACES.map((p) => `'${p}'`).join(',')}])[1 + g % 10] || '厕' || g || '号'
                || CASE WHEN g = 5 THEN '稀有' ELSE '' END, '某路' || g || '号', '杭州市', '上城区'
         FROM generate_series(1, $2::int) g ORDER BY g RETURNING id, name)
     INSERT INTO toilet_bindings (toilet_id, user_id)
     SELECT id, CASE WHEN substring(name from '厕([0-9]+)号')::int <= $3 THEN $1::int ELSE $4::int END FROM t`,
    [a.dealer.id, SCOPE * 2, SCOPE, a.other.id],
  );
  await t.ctx.db.query(
    `INSERT INTO toilet_bindings (toilet_id, user_id)
     VALUES ($1, $5), ($2, $5), ($3, $5), ($3, $6), ($4, $7)`,
    [...toiletIds, a.dealer.id, a.customer.id, a.other.id],
  );
  await t.ctx.db.query(
    `INSERT INTO comments (content, star_level, toilet_id, source, created_at)
     SELECT CASE WHEN g % 5 = 0 THEN '男厕很干净' WHEN g = 4 THEN '稀有评价' ELSE '一般' END || g,
            1 + g % 5, ($1::int[])[1 + g % 4], 'qr', now() - g * interval '1 minute'
       FROM generate_series(1, $2::int) g`,
    [toiletIds, SCOPE],
  );
  await t.ctx.db.query('ANALYZE comments');
  await t.ctx.db.query('ANALYZE devices');
  await t.ctx.db.query('ANALYZE device_access');
});
afterAll(() => t.close());

type Filter = Partial<DeviceFilter>;
const list = (scope: string, f: Filter, exact = false) =>
  listDevices(t.ctx.db, { kind: 'gateway', scope, offlineMs: 60_000, limit: 20, offset: 0, ...f, exact });

/** The page and total through the walk equal those of the plain filter; answers the page. */
async function same(scope: string, f: Filter) {
  const walked = await list(scope, f);
  const plain = await list(scope, f, true);
  expect(walked.list.map((d) => d.ser_num)).toEqual(plain.list.map((d) => d.ser_num));
  if (plain.total > EXACT_COUNT_LIMIT) {
    expect(walked.estimated).toBe(true);
    expect(walked.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
  } else {
    expect(walked.total).toBe(plain.total);
    expect(walked.estimated).toBeUndefined();
  }
  return { ...walked, exactTotal: plain.total };
}

describe('device lists near the top (walk, then index)', () => {
  it('finds a keyword in a tenth of a large scope on its newest devices, with the same page and count', async () => {
    const r = await same(dealer, { keywords: '断桥' });
    expect(r.list).toHaveLength(20);
    expect(r.list.every((d) => d.desc.includes('断桥'))).toBe(true);
    expect(r.list[0]!.ser_num).toBe(`WK-${String(SCOPE - 9).padStart(6, '0')}`);
    expect(r.exactTotal).toBe(SCOPE / 10);
    // Further pages near the top, and the last one.
    await same(dealer, { keywords: '断桥', offset: 20 });
    await same(dealer, { keywords: '断桥', offset: 80 });
    await same(dealer, { keywords: '断桥', offset: SCOPE / 10 - 5 });
  });

  it('pages past the first rows it walks, going on while the matches it found promise the page', async () => {
    // 断桥 is in a tenth of the dealer's devices: pages 6 to 8 of 20 lie past the first
    // WALK_ROWS devices (100 matches there), and the last page is short.
    for (const offset of [100, 120, 140, SCOPE / 10 - 10]) {
      const r = await same(dealer, { keywords: '断桥', offset });
      expect(r.list.every((d) => d.desc.includes('断桥'))).toBe(true);
    }
    expect((await same(dealer, { keywords: '断桥', offset: 140 })).list).toHaveLength(20);
    expect((await same(dealer, { keywords: '断桥', offset: SCOPE / 10 - 10 })).list).toHaveLength(10);
    expect((await same(dealer, { keywords: '断桥', offset: SCOPE / 10 })).list).toEqual([]);
    // Dense filters deep down, and bigger pages.
    await same(dealer, { online: true, offset: 400 });
    await same(dealer, { online: false, offset: 600, limit: 100 });
    await same(dealer, { keywords: '西湖', limit: 100, offset: 100 });
    await same('/', { keywords: '断桥', offset: 280 });
  });

  it('pages a filtered list forward from where the last page ended, with the pages a fresh read gives', async () => {
    // Its own anchors (PageAnchors are kept per Queryable), and the statements it was sent.
    const sent: unknown[][] = [];
    const db: Queryable = {
      query: (sql, params, opts) => {
        sent.push([...(params ?? [])]);
        return t.ctx.db.query(sql, params, opts);
      },
    };
    for (const f of [{ online: true }, { online: false, limit: 50 }, { keywords: '断桥' }] as Filter[]) {
      const limit = f.limit ?? 20;
      let last: number | undefined;
      // Online: a third of the dealer's devices, so page 30 of 20 lies past WALK_ROWS of them;
      // offline, page 21 of 50 past WALK_NEED.
      for (let page = 0; page < 30; page++) {
        const offset = page * limit;
        sent.length = 0;
        const r = await listDevices(db, {
          kind: 'gateway',
          scope: dealer,
          offlineMs: 60_000,
          limit,
          offset,
          ...f,
        });
        const exact = await list(dealer, { ...f, limit, offset }, true);
        expect(
          r.list.map((d) => d.ser_num),
          `${JSON.stringify(f)} page ${page + 1}`,
        ).toEqual(exact.list.map((d) => d.ser_num));
        // From page 2 on, a page near the top (one a walk finds) is found below the previous
        // page's last id; pages further down go to the filter's index.
        if (last !== undefined && offset + limit <= WALK_NEED)
          expect(
            sent.map((v) => v.at(-1)),
            JSON.stringify(sent),
          ).toContain(last);
        if (!r.list.length) break;
        last = r.list.at(-1)!.id;
      }
    }
  });

  it('turns to the index when the rows past the first hold too few, though the first promised them', async () => {
    // A third of develop's newest WALK_ROWS gateways say 稀疏, then none of the next
    // WALK_FAR - WALK_ROWS; the last match is the oldest gateway of all, past WALK_FAR.
    const r = await same('/', { keywords: '稀疏', offset: 320 });
    expect(r.exactTotal).toBe(Math.floor(WALK_ROWS / 3) + 1);
    expect(r.list.at(-1)!.ser_num).toBe('FL-000001');
    expect(r.list).toHaveLength(r.exactTotal - 320);
  });

  it('finds a word only the oldest device holds through the index, and not another dealer’s', async () => {
    const r = await same(dealer, { keywords: '稀有' });
    expect(r.list.map((d) => d.ser_num)).toEqual(['WK-000007']);
    expect(r.total).toBe(1);
    // Matches only among devices the dealer does not see.
    const other = await same(dealer, { keywords: `公厕${SCOPE + 3}号` });
    expect(other.list).toEqual([]);
    expect(other.total).toBe(0);
  });

  it('counts past the exact limit as an estimate when the walk fills the page', async () => {
    const r = await same(dealer, { online: false });
    expect(r.exactTotal).toBeGreaterThan(EXACT_COUNT_LIMIT);
    await same(dealer, { online: true });
    await same(dealer, { online: true, keywords: '西湖' });
  });

  it('reads a small scope whole at any page', async () => {
    expect((await same(customer, { keywords: '断桥', offset: 2 })).list).toHaveLength(1);
    expect((await same(customer, { keywords: '公厕', offset: 200 })).list).toEqual([]);
    await same(customer, { online: false, offset: 10 });
  });

  it('reads a small scope whole and counts it exactly', async () => {
    const r = await same(customer, { keywords: '断桥' });
    expect(r.list.map((d) => d.ser_num)).toEqual([
      `WK-${String(SCOPE - 9).padStart(6, '0')}`,
      `WK-${String(SCOPE - 19).padStart(6, '0')}`,
      `WK-${String(SCOPE - 29).padStart(6, '0')}`,
    ]);
    expect(r.total).toBe(3);
    await same(customer, { online: true });
    await same(customer, { keywords: '稀有' });
  });

  it('reads the closure rows of a scope known to see few devices, same pages and totals', async () => {
    expect(await seesFewDevices(t.ctx.db, customer, 'gateway', WALK_ROWS)).toBe(true);
    expect(await seesFewDevices(t.ctx.db, dealer, 'gateway', WALK_ROWS)).toBe(false);
    expect(await seesFewDevices(t.ctx.db, '/', 'gateway', WALK_ROWS)).toBe(false);
    const cases: Filter[] = [
      { keywords: '断桥' },
      { keywords: '断桥', offset: 2, limit: 1 },
      { keywords: '公厕', offset: 20 },
      { keywords: 'WK-0001' },
      { online: true },
      { online: false, offset: 10 },
      { keywords: '稀有' },
    ];
    // A scope's answer a minute old may be wrong either way: the rows are the same.
    for (const scope of [customer, dealer])
      for (const f of cases) {
        const few = await list(scope, { ...f, few: true }, true);
        const plain = await list(scope, f, true);
        expect(few.list.map((d) => d.ser_num)).toEqual(plain.list.map((d) => d.ser_num));
        expect(few.total).toBe(plain.total);
      }
    const r = await list(customer, { keywords: '断桥', few: true });
    expect(r.total).toBe(3);
  });

  it('tests a small scope’s serial-number prefix on its closure rows, as the start of the serial number only', async () => {
    const newest = `WK-${String(SCOPE - 1).padStart(6, '0')}`;
    // A serial-shaped word in one description is no prefix of a serial number.
    await t.ctx.db.query(`UPDATE devices SET "desc" = "desc" || ' ZZ-0042' WHERE ser_num = $1`, [newest]);
    try {
      const few = (keywords: string) => list(customer, { keywords, few: true }, true);
      expect((await few('ZZ-0042')).total).toBe(0);
      expect((await few(newest.toLowerCase())).list.map((d) => d.ser_num)).toEqual([newest]);
      // The customer's 30: WK-(SCOPE-30) … WK-(SCOPE-1), all starting WK-00.
      expect((await few('wk-00')).total).toBe(30);
      expect(
        (
          await few(
            `WK-${String(SCOPE - 1)
              .padStart(6, '0')
              .slice(0, 5)}`,
          )
        ).total,
      ).toBeGreaterThan(0);
      // The page's statement tests the closure rows' text, not each device's serial number
      // (the page's 20 rows are then read for their columns).
      const plans: string[] = [];
      await listDevices(
        {
          async query<T>(sql: string, params?: readonly unknown[]) {
            const rows = await t.ctx.db.query<Record<string, string>>(`EXPLAIN ${sql}`, params);
            plans.push(rows.map((r) => Object.values(r)[0]).join('\n'));
            return [{ ids: [], __total: 0 }] as T[];
          },
        },
        {
          kind: 'gateway',
          scope: customer,
          offlineMs: 60_000,
          limit: 20,
          offset: 0,
          keywords: 'WK-0001',
          few: true,
        },
      );
      expect(plans[0]).toMatch(/search ~>=~ 'wk-0001'/);
      expect(plans[0]).not.toMatch(/lower\([^)]*ser_num/);
    } finally {
      await t.ctx.db.query(`UPDATE devices SET "desc" = replace("desc", ' ZZ-0042', '') WHERE ser_num = $1`, [
        newest,
      ]);
    }
  });

  it('tests a keyword on the text the closure rows keep, which follows an edit, ignoring case, wildcards literal', async () => {
    // The dealer's newest 200 gateways (the customer's 30 among them) are described anew.
    const edited = `ser_num > 'WK-' || lpad(($1::int - 200)::text, 6, '0') AND ser_num <= 'WK-' || lpad($1::text, 6, '0')`;
    await t.ctx.db.query(`UPDATE devices SET "desc" = "desc" || ' Mixed Case 100%_' WHERE ${edited}`, [
      SCOPE,
    ]);
    try {
      for (const keywords of ['mixed case', 'MIXED CASE 100%_', 'Case 100']) {
        const r = await same(dealer, { keywords });
        expect(r.total).toBe(200);
        expect(r.list[0]!.ser_num).toBe(`WK-${String(SCOPE).padStart(6, '0')}`);
        await same(dealer, { keywords, offset: 180 });
        // A small scope's own rows, tested the same way.
        const few = await list(customer, { keywords, few: true });
        expect(few.total).toBe(30);
      }
      // '%' and '_' are characters, not wildcards: '1%_' is not in '100%_'.
      expect((await list(customer, { keywords: '1%_', few: true })).total).toBe(0);
      expect((await list(customer, { keywords: '0%_', few: true })).total).toBe(30);
      expect((await list(dealer, { keywords: '100_%' })).total).toBe(0);
    } finally {
      await t.ctx.db.query(
        `UPDATE devices SET "desc" = replace("desc", ' Mixed Case 100%_', '') WHERE ${edited}`,
        [SCOPE],
      );
    }
    // The old text is gone from the closure rows with the edit.
    expect((await same(dealer, { keywords: 'mixed case' })).total).toBe(0);
    expect((await list(customer, { keywords: 'mixed case', few: true })).total).toBe(0);
  });

  it('looks a serial-number prefix up through its index for a large scope, probing each match', async () => {
    const r = await same(dealer, { keywords: 'WK-0001' });
    expect(r.total).toBe(100);
    expect(r.list[0]!.ser_num).toBe('WK-000199');
    expect((await same(dealer, { keywords: `WK-00${SCOPE + 10}` })).total).toBe(0);
    await same('/', { keywords: '断桥' });
    await same('/', { keywords: '稀有' });
  });
});

describe('review lists near the top (walk, then index)', () => {
  /** The caller's reviews holding the word, newest first, straight from the table. */
  async function expected(toilets: number[], word: string) {
    const rows = await t.ctx.db.query<{ id: number }>(
      `SELECT id FROM comments WHERE toilet_id = ANY($1::int[]) AND content LIKE '%' || $2 || '%'
        ORDER BY created_at DESC, id DESC`,
      [toilets, word],
    );
    return rows.map((r) => r.id);
  }
  const reviews = (scope: string, keywords: string, offset = 0) =>
    listComments(t.ctx.db, {
      scope,
      keywords: keywords || undefined,
      sort: 'time',
      show_hidden: false,
      limit: 20,
      offset,
    });

  it('pages a word in a fifth of the reviews off the newest ones, and a rare one off its index', async () => {
    const mine = toiletIds.slice(0, 3);
    const all = await expected(mine, '干净');
    for (const offset of [0, 20, 80]) {
      const r = await reviews(dealer, '干净', offset);
      expect(r.list.map((c) => c.id)).toEqual(all.slice(offset, offset + 20));
      expect(r.total).toBe(all.length);
    }
    const rare = await reviews(dealer, '稀有');
    expect(rare.list.map((c) => c.id)).toEqual(await expected(mine, '稀有'));
    expect(rare.total).toBe(1);
  });

  it('pages the plain list of a scope seeing many toilets off the newest reviews', async () => {
    const mine = toiletIds.slice(0, 3);
    const all = await expected(mine, '');
    expect(all.length).toBeGreaterThan(EXACT_COUNT_LIMIT);
    for (const offset of [0, 20, 500, 980]) {
      const r = await reviews(dealer, '', offset);
      expect(r.list.map((c) => c.id)).toEqual(all.slice(offset, offset + 20));
      expect(r.estimated).toBe(true);
      expect(r.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    }
    // The customer's one toilet: its reviews off their index, counted exactly.
    const its = await expected([toiletIds[2]!], '');
    for (const offset of [0, 100, its.length - 10]) {
      const r = await reviews(customer, '', offset);
      expect(r.list.map((c) => c.id)).toEqual(its.slice(offset, offset + 20));
      expect(r.total).toBe(its.length);
    }
    // Develop sees every review, the other dealer's too.
    const every = await expected(toiletIds, '');
    expect((await reviews('/', '', 40)).list.map((c) => c.id)).toEqual(every.slice(40, 60));
  });

  it('walks a time range from its end, and a range older than the newest reviews', async () => {
    const mine = toiletIds.slice(0, 3);
    const [at] = await t.ctx.db.query<{ end: string }>(
      `SELECT to_char((now() - interval '1500 minutes') AT TIME ZONE 'UTC' + ${TZ_OFFSET_SQL}, 'YYYY-MM-DD HH24:MI:SS') AS end`,
    );
    const rows = await t.ctx.db.query<{ id: number }>(
      `SELECT id FROM comments WHERE toilet_id = ANY($1::int[])
          AND created_at <= ($2::timestamp - ${TZ_OFFSET_SQL}) AT TIME ZONE 'UTC'
        ORDER BY created_at DESC, id DESC`,
      [mine, at!.end],
    );
    expect(rows.length).toBeGreaterThan(0);
    const end = at!.end;
    for (const offset of [0, 60]) {
      const r = await listComments(t.ctx.db, {
        scope: dealer,
        end,
        sort: 'time',
        show_hidden: false,
        limit: 20,
        offset,
      });
      expect(r.list.map((c) => c.id)).toEqual(rows.map((x) => x.id).slice(offset, offset + 20));
      expect(r.total).toBe(rows.length);
    }
  });

  it('finds a customer’s few reviews through the index, counted exactly', async () => {
    const all = await expected([toiletIds[2]!], '干净');
    const r = await reviews(customer, '干净');
    expect(r.list.map((c) => c.id)).toEqual(all.slice(0, 20));
    expect(r.total).toBe(all.length);
    expect(r.estimated).toBeUndefined();
    expect((await reviews(customer, '稀有')).total).toBe(0);
  });

  it('reads a scope known to see few toilets and terminals off their indexes, same pages and totals', async () => {
    expect(await seesFewReviewPlaces(t.ctx.db, customer, WALK_SCOPE)).toBe(true);
    expect(await seesFewReviewPlaces(t.ctx.db, dealer, WALK_SCOPE)).toBe(false);
    expect(await seesFewReviewPlaces(t.ctx.db, '/', WALK_SCOPE)).toBe(false);
    const all = await expected([toiletIds[2]!], '');
    // A scope's answer a minute old may be wrong either way: the rows are the same.
    for (const scope of [customer, dealer])
      for (const [keywords, offset] of [
        ['', 0],
        ['', 20],
        ['干净', 0],
        ['干净', 40],
        ['稀有', 0],
      ] as const) {
        const f = {
          scope,
          keywords: keywords || undefined,
          sort: 'time' as const,
          show_hidden: false,
          limit: 20,
        };
        const few = await listComments(t.ctx.db, { ...f, offset, few: true });
        const plain = await listComments(t.ctx.db, { ...f, offset });
        expect(few.list.map((c) => c.id)).toEqual(plain.list.map((c) => c.id));
        expect(few.total).toBe(plain.total);
      }
    const page2 = await listComments(t.ctx.db, {
      scope: customer,
      sort: 'time',
      show_hidden: false,
      limit: 20,
      offset: 20,
      few: true,
    });
    expect(page2.list.map((c) => c.id)).toEqual(all.slice(20, 40));
    expect(page2.total).toBe(all.length);
  });
});

describe('toilet lists (the page’s ids first)', () => {
  type ToiletFilter = Partial<Parameters<typeof listToilets>[1]>;
  const toilets = (scope: string, f: ToiletFilter, exact = false) =>
    listToilets(t.ctx.db, { scope, limit: 20, offset: 0, ...f, exact });
  /** The page and total equal those of an export's exact count. */
  async function sameToilets(scope: string, f: ToiletFilter) {
    const walked = await toilets(scope, f);
    const plain = await toilets(scope, f, true);
    expect(walked.list.map((r) => r.name)).toEqual(plain.list.map((r) => r.name));
    if (plain.total > EXACT_COUNT_LIMIT) expect(walked.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    else expect(walked.total).toBe(plain.total);
    return walked;
  }

  it('finds a keyword among the dealer’s toilets newest first, on every page', async () => {
    const r = await sameToilets(dealer, { keywords: '断桥' });
    expect(r.list[0]!.name).toBe(`断桥厕${SCOPE - 9}号`);
    expect(r.total).toBe(SCOPE / 10);
    for (const offset of [20, 100, 140, SCOPE / 10 - 5])
      await sameToilets(dealer, { keywords: '断桥', offset });
    await sameToilets(dealer, { keywords: '厕', offset: 900 });
  });

  it('finds a rare word, and not one only another dealer’s toilets hold', async () => {
    const rare = await sameToilets(dealer, { keywords: '稀有' });
    expect(rare.list.map((r) => r.name)).toEqual(['延安厕5号稀有']);
    expect((await sameToilets(dealer, { keywords: `厕${SCOPE + 3}号` })).total).toBe(0);
    expect((await sameToilets('/', { keywords: `厕${SCOPE + 3}号` })).total).toBe(1);
  });

  it('pages the plain list off the closure, for develop off the table', async () => {
    const r = await toilets(dealer, { offset: 40 });
    expect(r.list.map((x) => x.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => {
        const g = SCOPE - 40 - i;
        return `${PLACES[g % 10]}厕${g}号${g === 5 ? '稀有' : ''}`;
      }),
    );
    expect(r.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect((await toilets('/', {})).list[0]!.name).toBe(`${PLACES[(SCOPE * 2) % 10]}厕${SCOPE * 2}号`);
    const small = await sameToilets(customer, { keywords: '走查' });
    expect(small.list.map((x) => x.name)).toEqual(['走查公厕3']);
  });
});
