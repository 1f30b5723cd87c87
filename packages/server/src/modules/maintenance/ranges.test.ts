import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_COUNT_LIMIT } from '@se/core';
import { dealers, scopeOfAccount, testApp, type TestApp } from '../../test/harness.ts';
import { countRecords, exportRecords, listRecords, type RecordFilter } from './repo.ts';

/**
 * Issue 18: a small scope's records list is built off the index range of each of its toilets
 * and devices (toiletOrDeviceRanges), not one `OR` over the whole table. Whatever the page and
 * the filter, its page and its total are the plain filter's (the export's statement: the
 * scope's id sets tested row by row), a record both in a seen toilet and of a seen device once.
 */
let t: TestApp;
let customer: string;
let dealer: string;
let ids: { toilet: number; otherToilet: number; gatewayType: number; seen: number[]; unseen: number[] };

beforeAll(async () => {
  t = await testApp();
  const a = await dealers(t, 'rng');
  dealer = await scopeOfAccount(t, a.dealer.id);
  customer = await scopeOfAccount(t, a.customer.id);
  // Ten gateways of the dealer's, the first four also the customer's; a toilet of the
  // customer's (holding records of seen and unseen devices, and of no device) and one not.
  const devices = await t.ctx.db.query<{ id: number }>(
    `INSERT INTO devices (kind, ser_num, "desc", location, token)
     SELECT 'gateway', 'RG-' || lpad(g::text, 4, '0'), '范围' || g, '', 'rng-tok-' || g
       FROM generate_series(1, 10) g ORDER BY g RETURNING id`,
  );
  const all = devices.map((d) => d.id);
  await t.ctx.db.query(
    `INSERT INTO device_bindings (device_id, user_id)
     SELECT d, $2::int FROM unnest($1::int[]) d UNION ALL SELECT d, $3::int FROM unnest($1::int[]) WITH ORDINALITY o(d, n) WHERE n <= 4`,
    [all, a.dealer.id, a.customer.id],
  );
  const toilets = await t.ctx.db.query<{ id: number }>(
    `INSERT INTO toilets (name, address, cityname, adname)
     SELECT '范围公厕' || g, '某路', '杭州市', '西湖区' FROM generate_series(1, 2) g ORDER BY g RETURNING id`,
  );
  const [toilet, otherToilet] = toilets.map((r) => r.id) as [number, number];
  await t.ctx.db.query(
    'INSERT INTO toilet_bindings (toilet_id, user_id) VALUES ($1, $3), ($1, $4), ($2, $3)',
    [toilet, otherToilet, a.dealer.id, a.customer.id],
  );
  const gatewayType = (
    await t.ctx.db.query<{ id: number }>(
      "SELECT id FROM equipment_types WHERE code = 'gateway' AND user_id IS NULL",
    )
  )[0]!.id;
  // 3,000 records: every device by turns; half of them in the customer's toilet, a fifth in
  // the other, the rest in none; every 13th deleted; statuses and deadlines varied.
  await t.ctx.db.query(
    `INSERT INTO maintenance_records (kind, status, device_id, ser_num, toilet_id, equipment_type_id,
        description, reporter_id, created_at, due_at, is_delete)
     SELECT 'repair', g % 5, CASE WHEN g % 11 = 0 THEN NULL ELSE ($1::int[])[1 + g % 10] END,
            CASE WHEN g % 11 = 0 THEN '' ELSE 'RG-' || lpad((1 + g % 10)::text, 4, '0') END,
            CASE WHEN g % 2 = 0 THEN $2::int WHEN g % 5 = 1 THEN $3::int END, $4::int,
            CASE WHEN g % 17 = 0 THEN '漏水' ELSE '报修' END || g, $5::int,
            now() - (3000 - g) * interval '1 minute', now() + (g % 3 - 1) * interval '1 day', g % 13 = 0
       FROM generate_series(1, 3000) g ORDER BY g`,
    [all, toilet, otherToilet, gatewayType, a.dealer.id],
  );
  await t.ctx.db.query('ANALYZE maintenance_records');
  ids = { toilet, otherToilet, gatewayType, seen: all.slice(0, 4), unseen: all.slice(4) };
});
afterAll(() => t.close());

type Filter = Omit<RecordFilter, 'scope'>;

/** The page and total of the list equal the plain filter's; answers the plain total. */
async function same(scope: string, f: Filter, offset = 0, limit = 20) {
  const plainAll = (await exportRecords(t.ctx.db, { scope, ...f }, null, 100_000)).map((r) => r.id);
  const total = await countRecords(t.ctx.db, { scope, ...f });
  expect(plainAll).toHaveLength(total);
  const r = await listRecords(t.ctx.db, { scope, ...f, limit, offset });
  expect(r.list.map((x) => x.id)).toEqual(plainAll.slice(offset, offset + limit));
  if (total > EXACT_COUNT_LIMIT) {
    expect(r.estimated).toBe(true);
    expect(r.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
  } else {
    expect(r.total).toBe(total);
    expect(r.estimated).toBeUndefined();
  }
  const exact = await listRecords(t.ctx.db, { scope, ...f, limit, offset, exact: true });
  expect(exact.total).toBe(total);
  return total;
}

describe('a small scope’s records list off its objects’ index ranges', () => {
  it('pages the whole scope newest first like the plain filter, deep pages and the last one too', async () => {
    const total = await same(customer, {});
    // Records of the customer's toilet (1,500 less deleted) and of its devices elsewhere.
    expect(total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    for (const offset of [20, 400, 1000, 1380, total - 7, total]) await same(customer, {}, offset);
    await same(customer, {}, 0, 100);
  });

  it('applies every filter in each range', async () => {
    for (const status of [0, 1, 2, 3, 4]) {
      expect(await same(customer, { status })).toBeGreaterThan(0);
      await same(customer, { status }, 200);
    }
    expect(await same(customer, { device_id: ids.seen[1] })).toBeGreaterThan(0);
    // A device the customer does not see, whose records in the customer's toilet it does.
    const inToilet = await same(customer, { device_id: ids.unseen[0] });
    expect(inToilet).toBeGreaterThan(0);
    expect(await same(customer, { toilet_id: ids.toilet })).toBeGreaterThan(EXACT_COUNT_LIMIT);
    // The other toilet: only the records of the customer's devices there.
    expect(await same(customer, { toilet_id: ids.otherToilet })).toBeGreaterThan(0);
    await same(customer, { equipment_type_id: ids.gatewayType }, 60);
    await same(customer, { overdue: true });
    await same(customer, { overdue: false }, 40);
    await same(customer, { keywords: '漏水' });
    await same(customer, { keywords: 'RG-0003' });
    await same(customer, { keywords: 'WX000017' });
    // A deleted record's number finds nothing.
    expect(await same(customer, { keywords: 'WX000026' })).toBe(0);
  });

  it('lists a record once when both its toilet and its device are seen, and nothing of another’s', async () => {
    const r = await listRecords(t.ctx.db, { scope: customer, limit: 100, offset: 0 });
    expect(new Set(r.list.map((x) => x.id)).size).toBe(100);
    const none = await same(customer, { toilet_id: ids.otherToilet, device_id: ids.unseen[1] });
    expect(none).toBe(0);
  });

  it('a device whose records all lie in the customer’s toilet, then one outside it, lists each record', async () => {
    // A gateway of the customer's whose records are all in its toilet: its own range is not
    // read (maintenance_device_toilets says nothing lies elsewhere) and its records come once.
    const [{ id: device }] = (await t.ctx.db.query<{ id: number }>(
      `INSERT INTO devices (kind, ser_num, "desc", location, token)
       VALUES ('gateway', 'RG-IN-1', '厕内网关', '', 'rng-in-1') RETURNING id`,
    )) as [{ id: number }];
    const [{ id: user }] = (await t.ctx.db.query<{ id: number }>(`SELECT id FROM users WHERE path = $1`, [
      customer,
    ])) as [{ id: number }];
    await t.ctx.db.query('INSERT INTO device_bindings (device_id, user_id) VALUES ($1, $2)', [device, user]);
    const add = async (toilet: number | null) =>
      (
        await t.ctx.db.query<{ id: number }>(
          `INSERT INTO maintenance_records (kind, status, device_id, ser_num, toilet_id, equipment_type_id,
              description, reporter_id, due_at)
           VALUES ('repair', 0, $1, 'RG-IN-1', $2, $3, '厕内报修', $4, now() + interval '1 day') RETURNING id`,
          [device, toilet, ids.gatewayType, user],
        )
      )[0]!.id;
    const inside = [await add(ids.toilet), await add(ids.toilet)];
    expect(
      (await listRecords(t.ctx.db, { scope: customer, limit: 2, offset: 0 })).list.map((r) => r.id),
    ).toEqual(inside.reverse());
    expect(await same(customer, { device_id: device })).toBe(2);
    // One moved to a toilet the customer does not see, then one of no toilet: both still its.
    const moved = await add(ids.toilet);
    await t.ctx.db.query('UPDATE maintenance_records SET toilet_id = $2 WHERE id = $1', [
      moved,
      ids.otherToilet,
    ]);
    expect((await same(customer, {}, 0, 1)) > 0).toBe(true);
    expect((await listRecords(t.ctx.db, { scope: customer, limit: 1, offset: 0 })).list[0]!.id).toBe(moved);
    const loose = await add(null);
    expect(
      (await listRecords(t.ctx.db, { scope: customer, limit: 2, offset: 0 })).list.map((r) => r.id),
    ).toEqual([loose, moved]);
    await same(customer, {}, 0, 40);
    expect(await same(customer, { device_id: device })).toBe(4);
  });

  it('finds a serial-number prefix off the ranges of the devices so numbered', async () => {
    // RG-0007, not the customer's, has records in the customer's toilet; now also some in
    // the other toilet and in none, which the customer must not get.
    await t.ctx.db.query(
      `INSERT INTO maintenance_records (kind, status, device_id, ser_num, toilet_id, equipment_type_id,
          description, reporter_id, due_at)
       SELECT 'repair', g % 5, $1::int, 'RG-0007', CASE WHEN g % 2 = 0 THEN $2::int END, $3::int, '外部' || g,
              (SELECT id FROM users WHERE path = $4), now() + interval '1 day'
         FROM generate_series(1, 30) g ORDER BY g`,
      [ids.unseen[2], ids.otherToilet, ids.gatewayType, dealer],
    );
    const seven = await same(customer, { keywords: 'RG-0007' });
    expect(seven).toBeGreaterThan(0);
    expect(await same(dealer, { keywords: 'RG-0007' })).toBe(seven + 30);
    await same(customer, { keywords: 'rg-0007', status: 1 }, 20);
    expect(await same(customer, { keywords: 'rg-00' })).toBeGreaterThan(EXACT_COUNT_LIMIT);
    await same(customer, { keywords: 'rg-00' }, 900);
    await same(customer, { keywords: 'RG-001', overdue: true });
    expect(await same(customer, { keywords: 'RX-0001' })).toBe(0);
  });

  it('a large scope seeing few objects (checked the same way) lists the same', async () => {
    await same(dealer, {}, 300);
    await same(dealer, { status: 2 }, 20);
  });
});
