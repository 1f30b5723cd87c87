import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_COUNT_LIMIT } from '@se/core';
import { WALK_ROWS } from '../../db/sql.ts';
import { dealers, testApp, type TestApp } from '../../test/harness.ts';
import { listComments } from '../comments/repo.ts';
import { listDevices, type DeviceFilter } from './repo.ts';

/**
 * Issue 14: a filtered device list near its top reads the caller's devices newest first and
 * tests them row by row, or turns to the filter's index when the first WALK_ROWS of them
 * hold too few matches (db/sql.ts walkFirst). Whichever way a page is found, it and its
 * total are the ones the plain filter gives (`exact`, every match counted through the index).
 */
let t: TestApp;
let dealer: string;
let customer: string;
let toiletIds: number[];
const SCOPE = WALK_ROWS + 600;
const PLACES = ['西湖', '断桥', '北山', '湖滨', '武林', '延安', '钱塘', '孤山', '灵隐', '龙井'];

beforeAll(async () => {
  t = await testApp();
  const a = await dealers(t, 'walk');
  const paths = await t.ctx.db.query<{ id: number; path: string }>(
    'SELECT id, path FROM users WHERE id = ANY($1::int[])',
    [[a.dealer.id, a.customer.id]],
  );
  const pathOf = (id: number) => paths.find((p) => p.id === id)!.path;
  dealer = pathOf(a.dealer.id);
  customer = pathOf(a.customer.id);
  // The dealer's devices, then as many of another dealer's (matches the dealer must not see),
  // one in three reporting now; one rare word among the dealer's oldest.
  await t.ctx.db.query(
    `WITH d AS (
       INSERT INTO devices (kind, ser_num, "desc", location, token, time)
       SELECT 'gateway', 'WK-' || lpad(g::text, 6, '0'),
              (ARRAY[${PLACES.map((p) => `'${p}'`).join(',')}])[1 + g % 10] || '公厕' || g || '号'
                || CASE WHEN g = 7 THEN '稀有' ELSE '' END,
              '杭州市', 'walk-tok-' || g, CASE WHEN g % 3 = 0 THEN now() END
         FROM generate_series(1, $2::int) g ORDER BY g RETURNING id, ser_num)
     INSERT INTO device_bindings (device_id, user_id)
     SELECT id, CASE WHEN substr(ser_num, 4)::int <= $3 THEN $1::int ELSE $4::int END FROM d`,
    [a.dealer.id, SCOPE * 2, SCOPE, a.other.id],
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
    listComments(t.ctx.db, { scope, keywords, sort: 'time', show_hidden: false, limit: 20, offset });

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

  it('finds a customer’s few reviews through the index, counted exactly', async () => {
    const all = await expected([toiletIds[2]!], '干净');
    const r = await reviews(customer, '干净');
    expect(r.list.map((c) => c.id)).toEqual(all.slice(0, 20));
    expect(r.total).toBe(all.length);
    expect(r.estimated).toBeUndefined();
    expect((await reviews(customer, '稀有')).total).toBe(0);
  });
});
