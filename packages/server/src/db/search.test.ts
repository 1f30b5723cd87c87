import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMENT_API,
  TOILET_API,
  type CommentRow,
  type DeviceRow,
  type ToiletRow,
  type UserRow,
} from '@se/core';
import {
  addDevice,
  addToilet,
  adminApp,
  dealers,
  kindUrl,
  scopeOfAccount,
  type Account,
  type TestApp,
} from '../test/harness.ts';
import { listComments } from '../modules/comments/repo.ts';
import { listDevices } from '../modules/devices/repo.ts';
import { listToilets } from '../modules/toilets/repo.ts';
import type { Queryable } from './index.ts';

let t: TestApp;
let admin: string;
let dealer: Account;
let customer: Account;
let westLake: number;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  ({ dealer, customer } = await dealers(t, 'kw'));
  await addDevice(t, 'gateway', 'KW-GW-1', dealer.token, { desc: '西湖公厕男卫', location: '杭州市西湖区' });
  await addDevice(t, 'gateway', 'KW-GW-2', dealer.token, { desc: '东门女卫 B1层', location: '满100%覆盖' });
  westLake = await addToilet(t, dealer.token, {
    name: '西湖公厕',
    address: '北山街 1 号',
    cityname: '杭州市',
  });
  await addToilet(t, dealer.token, { name: '断桥公厕', address: '白堤 2 号', cityname: '杭州市' });
  const pub = await t.ctx.db.query<{ public_id: string }>('SELECT public_id FROM toilets WHERE id = $1', [
    westLake,
  ]);
  for (const content of ['男厕很干净', '女厕有异味']) {
    const r = await t.post(COMMENT_API.add, {
      toilet_id: pub[0]!.public_id,
      visitor_id: `visitor-kw-${content.length}${content.charCodeAt(0)}`,
      star_level: 4,
      content,
    });
    expect(r.code, r.message).toBe(200);
  }
  await t.post('/api/v1/user/update-info', { company_name: '西湖保洁有限公司' }, { token: customer.token });
  await t.account('断桥管理员', 0, dealer.id);
});
afterAll(() => t.close());

const found = async <T>(url: string, keywords: string, token: string, pick: (r: T) => string) => {
  const r = await t.get<{ list: T[] }>(url, { keywords, page_size: 100 }, { token });
  expect(r.code, r.message).toBe(200);
  return r.data.list.map(pick).sort();
};

describe('keyword search', () => {
  it('finds devices by a 2-character Chinese word, one character, a Latin word in any case, and % literally', async () => {
    const sers = (kw: string, token = dealer.token) =>
      found<DeviceRow>(kindUrl('gateway', 'list'), kw, token, (d) => d.ser_num);
    expect(await sers('西湖')).toEqual(['KW-GW-1']);
    expect(await sers('男卫')).toEqual(['KW-GW-1']);
    expect(await sers('东')).toEqual(['KW-GW-2']);
    expect(await sers('kw-gw-2')).toEqual(['KW-GW-2']);
    expect(await sers('kw-gw')).toEqual(['KW-GW-1', 'KW-GW-2']);
    expect(await sers('100%')).toEqual(['KW-GW-2']);
    expect(await sers('%')).toEqual(['KW-GW-2']);
    // The pairs are all there (湖公, 公厕…) but not in this order.
    expect(await sers('厕公')).toEqual([]);
    // Letters then a digit, but too short for a serial-number prefix: a floor in the text.
    expect(await sers('b1')).toEqual(['KW-GW-2']);
    expect(await sers('西湖', admin)).toEqual(['KW-GW-1']);
  });

  it('finds toilets by name and address', async () => {
    const names = (kw: string) => found<ToiletRow>(TOILET_API.list, kw, dealer.token, (x) => x.name);
    expect(await names('断桥')).toEqual(['断桥公厕']);
    expect(await names('白堤')).toEqual(['断桥公厕']);
    expect(await names('公厕')).toEqual(['断桥公厕', '西湖公厕']);
    expect(await names('杭州')).toEqual(['断桥公厕', '西湖公厕']);
  });

  it('finds users by a Chinese user name or company name', async () => {
    const names = (kw: string) => found<UserRow>('/api/v1/user/users', kw, dealer.token, (u) => u.user_name);
    expect(await names('断桥')).toEqual(['断桥管理员']);
    expect(await names('西湖')).toEqual(['kw_customer']);
    expect(await names('保洁')).toEqual(['kw_customer']);
  });

  it('finds reviews by their text', async () => {
    const texts = (kw: string) => found<CommentRow>(COMMENT_API.list, kw, dealer.token, (c) => c.content);
    expect(await texts('男厕')).toEqual(['男厕很干净']);
    expect(await texts('异味')).toEqual(['女厕有异味']);
    expect(await texts('厕')).toEqual(['女厕有异味', '男厕很干净']);
  });
});

/** Runs each query a repository sends as EXPLAIN and keeps the plans. */
function explaining(q: Queryable) {
  const plans: string[] = [];
  const db: Queryable = {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const rows = await q.query<Record<string, string>>(`EXPLAIN ${sql}`, params);
      plans.push(rows.map((r) => Object.values(r)[0]).join('\n'));
      return [{ n: 0, __total: 0, __rn: null, ids: [] }] as T[]; // what a count, or a page (its rows or ids) with its count, expects
    },
  };
  return { db, plans };
}

/** Like explaining, but each query's generic plan: the one a prepared statement may keep. */
async function genericPlans(run: (db: Queryable) => Promise<unknown>) {
  const plans: string[] = [];
  const literal = (v: unknown) =>
    typeof v === 'number' ? String(v) : v === null ? 'NULL' : `'${String(v).replace(/'/g, "''")}'`;
  await t.ctx.db.transaction(async (tx) => {
    await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
    const db: Queryable = {
      async query<T>(sql: string, params?: readonly unknown[]) {
        const name = `generic_${plans.length}`;
        await tx.query(`PREPARE ${name} AS ${sql}`);
        const rows = await tx.query<Record<string, string>>(
          `EXPLAIN EXECUTE ${name}${params?.length ? `(${params.map(literal).join(', ')})` : ''}`,
        );
        await tx.query(`DEALLOCATE ${name}`);
        plans.push(rows.map((r) => Object.values(r)[0]).join('\n'));
        return [{ n: 0, __total: 0, __rn: null, ids: [] }] as T[];
      },
    };
    await run(db);
  });
  return plans;
}

describe('a Chinese keyword on a large table', () => {
  beforeAll(async () => {
    const db = t.ctx.db;
    await db.query(
      `INSERT INTO devices (kind, ser_num, "desc", location, token)
       SELECT 'gateway', 'BULK-' || i, '大楼' || i || '号公厕', '杭州市上城区' || (i % 50) || '号', md5(i::text)
         FROM generate_series(1, 6000) i`,
    );
    await db.query(
      `INSERT INTO toilets (name, address, cityname)
       SELECT '大楼' || i || '号公厕', '延安路' || i || '号', '杭州市' FROM generate_series(1, 6000) i`,
    );
    await db.query(
      `INSERT INTO comments (content, toilet_id, source)
       SELECT '第' || i || '次来，还行', $1, 'qr' FROM generate_series(1, 6000) i`,
      [westLake],
    );
    await db.query('ANALYZE');
  });

  it('reads devices, toilets and reviews through their token indexes', async () => {
    const { db, plans } = explaining(t.ctx.db);
    const page = { limit: 20, offset: 0 };
    await listDevices(db, { kind: 'gateway', scope: '/', offlineMs: 60_000, keywords: '西湖', ...page });
    await listToilets(db, { scope: '/', keywords: '断桥', ...page });
    await listComments(db, { scope: '/', keywords: '男厕', sort: 'time', show_hidden: false, ...page });
    // One statement a list: the page and its count together; before the devices' page, the
    // question whether the keyword is rare (db/sql.ts fewMatches, kept a minute per database).
    expect(plans).toHaveLength(4);
    const [rare, devices, toilets, comments] = plans;
    expect(rare).toMatch(/Bitmap Index Scan on devices_search_tokens/);
    expect(devices).toMatch(/Bitmap Index Scan on devices_search_tokens/);
    expect(toilets).toMatch(/Bitmap Index Scan on toilets_search_tokens/);
    expect(comments).toMatch(/Bitmap Index Scan on comments_search_tokens/);
    // Still right on the large table.
    const r = await listDevices(t.ctx.db, {
      kind: 'gateway',
      scope: '/',
      offlineMs: 60_000,
      keywords: '西湖',
      ...page,
    });
    expect(r.list.map((d) => d.ser_num)).toEqual(['KW-GW-1']);
  });

  it('looks a serial-number keyword up as the start of the serial number, in any case, through its index', async () => {
    const { db, plans } = explaining(t.ctx.db);
    const page = { limit: 20, offset: 0 };
    await listDevices(db, { kind: 'gateway', scope: '/', offlineMs: 60_000, keywords: 'bulk-599', ...page });
    expect(plans[0]).toMatch(/devices_ser_num_prefix/);
    const r = await listDevices(t.ctx.db, {
      kind: 'gateway',
      scope: '/',
      offlineMs: 60_000,
      keywords: 'bulk-599',
      ...page,
    });
    expect(r.total).toBe(11);
    expect(r.list.map((d) => d.ser_num).sort()).toEqual([
      'BULK-599',
      ...Array.from({ length: 10 }, (_, i) => `BULK-599${i}`),
    ]);
  });

  it("keeps a serial-number prefix on its index in the plan made without the values (a dealer's page, kept prepared)", async () => {
    const scope = await scopeOfAccount(t, dealer.id);
    const plans = await genericPlans((db) =>
      listDevices(db, {
        kind: 'gateway',
        scope,
        offlineMs: 60_000,
        keywords: 'bulk-599',
        limit: 20,
        offset: 0,
      }),
    );
    expect(plans[0]).toMatch(/devices_ser_num_prefix/);
    expect(plans[0]).not.toMatch(/Seq Scan on devices/);
  });

  it('ends a serial-number prefix exactly where the next one starts', async () => {
    const total = async (keywords: string) =>
      (
        await listDevices(t.ctx.db, {
          kind: 'gateway',
          scope: '/',
          offlineMs: 60_000,
          keywords,
          limit: 20,
          offset: 0,
        })
      ).total;
    // The range ends at the prefix with its last character raised ('9' → ':'): BULK-59, BULK-590…599
    // and BULK-5900…5999, and nothing of BULK-6….
    expect(await total('bulk-59')).toBe(111);
    expect(await total('BULK-5999')).toBe(1);
    expect(await total('bulk-600')).toBe(2);
    expect(await total('bulk-60000')).toBe(0);
  });
});
