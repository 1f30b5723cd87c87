import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  DEVICE_KINDS,
  PERMISSION,
  STATUS_FILTER,
  TOILET_API,
  TOILET_DETAIL_API,
  type DeviceKind,
  type DevicePlace,
  type DeviceRow,
} from '@se/core';
import { addDevice, addToilet, adminApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: string;

const KINDS = Object.keys(DEVICE_KINDS) as DeviceKind[];
const url = (kind: DeviceKind, what: 'list' | 'get' | 'add' | 'update') => {
  const k = DEVICE_KINDS[kind];
  return what === 'list' ? `${k.base}/${k.plural}` : `${k.base}/${what}-${k.one}`;
};

beforeAll(async () => ({ t, admin } = await adminApp()));
afterAll(() => t.close());

describe.each(KINDS)('%s registry', (kind) => {
  it('adds with a server token, gets, lists, edits and soft-deletes', async () => {
    const ser = `SN-${kind}-001`;
    const added = await t.post<{
      id: number;
      token: string;
      type: number | null;
      online: boolean;
      time: null;
    }>(
      url(kind, 'add'),
      { ser_num: ser, desc: '一号公厕', location: '西湖边', lng: '120.15', lat: '30.28' },
      { token: admin },
    );
    expect(added.code, added.message).toBe(200);
    expect(added.data.token.length).toBeGreaterThanOrEqual(20);
    expect(added.data).toMatchObject({ online: false, time: null });
    expect(added.data.type).toBe(DEVICE_KINDS[kind].type ?? (kind === 'gateway' ? 40 : null));
    const got = await t.get<{ ser_num: string }>(url(kind, 'get'), { id: added.data.id }, { token: admin });
    expect(got.data.ser_num).toBe(ser);
    const list = await t.get<{ list: { id: number }[]; total: number }>(
      url(kind, 'list'),
      { keywords: '一号' },
      { token: admin },
    );
    expect(list.data.list.map((d) => d.id)).toContain(added.data.id);
    const edited = await t.post<{ desc: string }>(
      url(kind, 'update'),
      { id: added.data.id, desc: '二号公厕' },
      { token: admin },
    );
    expect(edited.data.desc).toBe('二号公厕');
    const dup = await t.post(url(kind, 'add'), { ser_num: ser }, { token: admin });
    expect(dup).toMatchObject({ code: CODE.conflict, message: '序列号已存在' });
    await t.post(url(kind, 'update'), { id: added.data.id, is_delete: true }, { token: admin });
    expect((await t.get(url(kind, 'get'), { id: added.data.id }, { token: admin })).code).toBe(CODE.notFound);
    // The serial number is free again once the device is deleted.
    expect((await t.post(url(kind, 'add'), { ser_num: ser }, { token: admin })).code).toBe(200);
  });

  it('does not mix kinds: an id of another kind is not found', async () => {
    const other = KINDS.find((k) => k !== kind)!;
    const d = await t.post<{ id: number }>(
      url(other, 'add'),
      { ser_num: `X-${kind}-${other}` },
      { token: admin },
    );
    expect((await t.get(url(kind, 'get'), { id: d.data.id }, { token: admin })).code).toBe(CODE.notFound);
  });

  it('rejects bad input in Chinese', async () => {
    for (const body of [
      {},
      { ser_num: 'has space' },
      { ser_num: 'ok1', lng: 'east' },
      { ser_num: 'ok2', lat: 91 },
    ]) {
      const r = await t.post(url(kind, 'add'), body, { token: admin });
      expect(r.code, JSON.stringify(body)).toBe(CODE.badRequest);
      expect(r.message).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});

describe('online and offline (SPEC §4 thresholds, computed in SQL)', () => {
  async function deviceReportedAgo(kind: DeviceKind, ser: string, sql: string) {
    const d = await t.post<{ id: number }>(url(kind, 'add'), { ser_num: ser }, { token: admin });
    await t.ctx.db.query(`UPDATE devices SET time = now() - (${sql}) WHERE id = $1`, [d.data.id]);
    return d.data.id;
  }
  const onlineIds = async (kind: DeviceKind, status: number) =>
    (
      await t.get<{ list: { id: number }[] }>(url(kind, 'list'), { status, page_size: 100 }, { token: admin })
    ).data.list.map((d) => d.id);

  it('a dispenser is online up to exactly 5 hours and offline after', async () => {
    const at = await deviceReportedAgo('jwb', 'B-5H', `interval '5 hours' + interval '-2 seconds'`);
    const past = await deviceReportedAgo('jwb', 'B-5H1', `interval '5 hours 2 seconds'`);
    expect(await onlineIds('jwb', STATUS_FILTER.online)).toContain(at);
    expect(await onlineIds('jwb', STATUS_FILTER.online)).not.toContain(past);
    expect(await onlineIds('jwb', STATUS_FILTER.offline)).toContain(past);
    expect(await onlineIds('jwb', STATUS_FILTER.offline)).not.toContain(at);
    const both = await onlineIds('jwb', STATUS_FILTER.online | STATUS_FILTER.offline);
    expect(both).toEqual(expect.arrayContaining([at, past]));
  });

  it('a meter stays online for 7 days', async () => {
    const six = await deviceReportedAgo('water_meter', 'B-6D', `interval '6 days 23 hours'`);
    const eight = await deviceReportedAgo('water_meter', 'B-7D1', `interval '7 days 2 seconds'`);
    expect(await onlineIds('water_meter', STATUS_FILTER.online)).toContain(six);
    expect(await onlineIds('water_meter', STATUS_FILTER.offline)).toContain(eight);
  });

  it('never-reporting devices are offline', async () => {
    const d = await t.post<{ id: number }>(url('gateway', 'add'), { ser_num: 'B-NEVER' }, { token: admin });
    expect(await onlineIds('gateway', STATUS_FILTER.offline)).toContain(d.data.id);
  });
});

describe('binding (SPEC §7) and ownership', () => {
  let dealer: { id: number; token: string };
  let customer: { id: number; token: string };
  let stranger: { id: number; token: string };
  let mine: number[];
  let theirs: number;

  beforeAll(async () => {
    dealer = await t.account('dev_dealer', PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor, 1);
    customer = await t.account('dev_customer', PERMISSION.user | PERMISSION.visitor, dealer.id);
    stranger = await t.account('dev_stranger', PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor, 1);
    mine = [];
    for (const s of ['D-1', 'D-2', 'D-3']) {
      mine.push(
        (await t.post<{ id: number }>(url('jwb', 'add'), { ser_num: s }, { token: dealer.token })).data.id,
      );
    }
    theirs = (await t.post<{ id: number }>(url('jwb', 'add'), { ser_num: 'S-1' }, { token: stranger.token }))
      .data.id;
  });

  it('a registrant sees its own devices only', async () => {
    const r = await t.get<{ list: { ser_num: string }[] }>(
      url('jwb', 'list'),
      { page_size: 100 },
      { token: dealer.token },
    );
    expect(r.data.list.map((d) => d.ser_num).sort()).toEqual(['D-1', 'D-2', 'D-3']);
  });

  it('binds and unbinds in one call; the customer then sees exactly those', async () => {
    const r = await t.post(
      DEVICE_KINDS.jwb.bind,
      { user_id: customer.id, add_ids: `${mine[0]},${mine[1]}`, remove_ids: '' },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    const seen = await t.get<{ list: { id: number }[] }>(url('jwb', 'list'), undefined, {
      token: customer.token,
    });
    expect(seen.data.list.map((d) => d.id).sort()).toEqual([mine[0], mine[1]].sort());
    const swap = await t.post(
      DEVICE_KINDS.jwb.bind,
      { user_id: customer.id, add_ids: JSON.stringify([mine[2]]), remove_ids: [mine[0]].join(',') },
      { token: dealer.token },
    );
    expect(swap.code).toBe(200);
    const after = await t.get<{ list: { id: number }[] }>(url('jwb', 'list'), undefined, {
      token: customer.token,
    });
    expect(after.data.list.map((d) => d.id).sort()).toEqual([mine[1], mine[2]].sort());
    const bl = await t.get<{ list: { id: number; is_bind: boolean }[] }>(
      DEVICE_KINDS.jwb.bindList,
      { target_user_id: customer.id },
      { token: dealer.token },
    );
    expect(
      bl.data.list
        .filter((d) => d.is_bind)
        .map((d) => d.id)
        .sort(),
    ).toEqual([mine[1], mine[2]].sort());
  });

  it('is all or nothing: one foreign id fails the whole call', async () => {
    const before = await t.ctx.db.query(`SELECT count(*)::int AS n FROM device_bindings WHERE user_id = $1`, [
      customer.id,
    ]);
    const r = await t.post(
      DEVICE_KINDS.jwb.bind,
      { user_id: customer.id, add_ids: `${mine[0]},${theirs}`, remove_ids: `${mine[1]}` },
      { token: dealer.token },
    );
    expect(r.code).toBe(CODE.notFound);
    expect(r.message).toContain(String(theirs));
    const after = await t.ctx.db.query(`SELECT count(*)::int AS n FROM device_bindings WHERE user_id = $1`, [
      customer.id,
    ]);
    expect(after).toEqual(before);
  });

  it('binds only to users the caller manages', async () => {
    const r = await t.post(
      DEVICE_KINDS.jwb.bind,
      { user_id: stranger.id, add_ids: `${mine[0]}` },
      { token: dealer.token },
    );
    expect(r.code).toBe(CODE.forbidden);
    const list = await t.get(
      DEVICE_KINDS.jwb.bindList,
      { target_user_id: stranger.id },
      { token: dealer.token },
    );
    expect(list.code).toBe(CODE.forbidden);
  });

  it('refuses every id-taking call on another tenant device', async () => {
    for (const [method, path, body] of [
      ['GET', url('jwb', 'get'), { id: theirs }],
      ['POST', url('jwb', 'update'), { id: theirs, desc: 'x' }],
      ['POST', url('jwb', 'update'), { id: theirs, is_delete: true }],
    ] as const) {
      const r =
        method === 'GET'
          ? await t.get(path, body, { token: dealer.token })
          : await t.post(path, body, { token: dealer.token });
      expect(r.code, `${path} ${JSON.stringify(body)}`).toBe(CODE.notFound);
    }
    const owner = await t.get(url('jwb', 'list'), { owner_id: stranger.id }, { token: dealer.token });
    expect(owner.code).toBe(CODE.forbidden);
    const still = await t.get<{ desc: string }>(url('jwb', 'get'), { id: theirs }, { token: stranger.token });
    expect(still.code).toBe(200);
  });

  it('a customer, not a manager, cannot bind at all', async () => {
    const visitorOnly = await t.account('dev_visitor', PERMISSION.visitor, customer.id);
    const r = await t.post(
      DEVICE_KINDS.jwb.bind,
      { user_id: visitorOnly.id, add_ids: `${mine[1]}` },
      { token: visitorOnly.token },
    );
    expect(r.code).toBe(CODE.forbidden);
  });

  it('rejects malformed id lists and overlapping add/remove', async () => {
    const bad = await t.post(
      DEVICE_KINDS.jwb.bind,
      { user_id: customer.id, add_ids: '1,abc' },
      { token: dealer.token },
    );
    expect(bad.code).toBe(CODE.badRequest);
    const overlap = await t.post(
      DEVICE_KINDS.jwb.bind,
      { user_id: customer.id, add_ids: `${mine[0]}`, remove_ids: `${mine[0]}` },
      { token: dealer.token },
    );
    expect(overlap.code).toBe(CODE.badRequest);
  });
});

describe('device info', () => {
  it('is created with the device, editable by whoever sees it, hidden from others', async () => {
    const owner = await t.account('info_owner', PERMISSION.user | PERMISSION.visitor, 1);
    const other = await t.account('info_other', PERMISSION.user | PERMISSION.visitor, 1);
    const d = await t.post<{ id: number }>(
      url('evaluate', 'add'),
      { ser_num: 'INFO-1' },
      { token: owner.token },
    );
    const r = await t.post<{ imei_num: string; mac_address: string }>(
      '/api/v1/device/update-device-info',
      { id: d.data.id, imei_num: '860000000000001', mac_address: 'AA:BB:CC:DD:EE:FF' },
      { token: owner.token },
    );
    expect(r.data).toMatchObject({ imei_num: '860000000000001', mac_address: 'AA:BB:CC:DD:EE:FF' });
    const bad = await t.post(
      '/api/v1/device/update-device-info',
      { id: d.data.id, mac_address: 'nope' },
      { token: owner.token },
    );
    expect(bad.code).toBe(CODE.badRequest);
    expect(
      (await t.get('/api/v1/device/get-device-info', { id: d.data.id }, { token: other.token })).code,
    ).toBe(CODE.notFound);
  });
});

describe.each(KINDS)('%s binding calls', (kind) => {
  it('lists with is_bind and binds/unbinds in one call', async () => {
    // Terminals and players are the attendance and media roles' kinds: their screens need those bits.
    const roles = PERMISSION.attendance | PERMISSION.media;
    const mgr = await t.account(
      `bk_mgr_${kind}`,
      PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor | roles,
      1,
    );
    const cust = await t.account(`bk_cust_${kind}`, PERMISSION.user | PERMISSION.visitor | roles, mgr.id);
    const a = (
      await t.post<{ id: number }>(url(kind, 'add'), { ser_num: `BK-${kind}-A` }, { token: mgr.token })
    ).data.id;
    const b = (
      await t.post<{ id: number }>(url(kind, 'add'), { ser_num: `BK-${kind}-B` }, { token: mgr.token })
    ).data.id;
    const k = DEVICE_KINDS[kind];
    expect(
      (await t.post(k.bind, { user_id: cust.id, add_ids: `${a},${b}` }, { token: mgr.token })).code,
    ).toBe(200);
    expect((await t.post(k.bind, { user_id: cust.id, remove_ids: `${b}` }, { token: mgr.token })).code).toBe(
      200,
    );
    const l = await t.get<{ list: { id: number; is_bind: boolean }[] }>(
      k.bindList,
      { target_user_id: cust.id },
      { token: mgr.token },
    );
    expect(l.data.list.filter((d) => d.is_bind).map((d) => d.id)).toEqual([a]);
    const seen = await t.get<{ list: { id: number }[] }>(url(kind, 'list'), undefined, { token: cust.token });
    expect(seen.data.list.map((d) => d.id)).toEqual([a]);
  });
});

describe("a device's drawer (issue 19)", () => {
  const DEALER = PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor;
  const place = async (kind: DeviceKind, id: number, token: string) =>
    (await t.get<{ place: DevicePlace | null }>(url(kind, 'get'), { id }, { token })).data.place;

  it('says which toilet the device is in, when the caller sees that toilet', async () => {
    const dealer = await t.account('place_dealer', DEALER, 1);
    const customer = await t.account('place_customer', PERMISSION.user | PERMISSION.visitor, dealer.id);
    const gw = await addDevice(t, 'gateway', 'PLACE-GW', dealer.token);
    const jwb = await addDevice(t, 'jwb', 'PLACE-JWB', dealer.token);
    const loose = await addDevice(t, 'jwb', 'PLACE-LOOSE', dealer.token);
    const toilet = await addToilet(t, dealer.token, { name: '链接公厕', gateway_id: gw.id });
    const placed = await t.post(
      TOILET_DETAIL_API.place,
      { toilet_id: toilet, add_ids: `${jwb.id}` },
      { token: dealer.token },
    );
    expect(placed.code, placed.message).toBe(200);

    expect(await place('gateway', gw.id, dealer.token)).toMatchObject({
      toilet_id: toilet,
      toilet_name: '链接公厕',
    });
    expect(await place('jwb', jwb.id, dealer.token)).toMatchObject({
      toilet_id: toilet,
      toilet_name: '链接公厕',
    });
    expect(await place('jwb', loose.id, dealer.token)).toMatchObject({ toilet_id: null, building_id: null });

    // Bound to the dispenser but not to the toilet: the device shows, its toilet does not.
    await t.post(
      DEVICE_KINDS.jwb.bind,
      { user_id: customer.id, add_ids: `${jwb.id}` },
      { token: dealer.token },
    );
    expect(await place('jwb', jwb.id, customer.token)).toMatchObject({ toilet_id: null, toilet_name: '' });
    await t.post(TOILET_API.bind, { user_id: customer.id, add_ids: `${toilet}` }, { token: dealer.token });
    expect(await place('jwb', jwb.id, customer.token)).toMatchObject({ toilet_id: toilet });

    // The list carries no place (only the drawer's single answer does).
    const list = await t.get<{ list: Record<string, unknown>[] }>(
      url('jwb', 'list'),
      {},
      { token: dealer.token },
    );
    expect(list.data.list[0]).not.toHaveProperty('place');
  });

  it('assigns the one device to an account under the caller, and to no account outside its subtree', async () => {
    const dealer = await t.account('assign_dealer', DEALER, 1);
    const mine = await t.account('assign_customer', PERMISSION.user | PERMISSION.visitor, dealer.id);
    const below = await t.account('assign_grandchild', PERMISSION.visitor, mine.id);
    const other = await t.account('assign_other', DEALER, 1);
    const theirs = await t.account('assign_other_customer', PERMISSION.user | PERMISSION.visitor, other.id);
    const gw = await addDevice(t, 'gateway', 'ASSIGN-GW', dealer.token);
    const assign = (userId: number) =>
      t.post(DEVICE_KINDS.gateway.bind, { user_id: userId, add_ids: `${gw.id}` }, { token: dealer.token });

    for (const outside of [theirs.id, other.id, 1]) {
      const r = await assign(outside);
      expect(r.code, `user ${outside}`).toBe(CODE.forbidden);
    }
    const seen = await t.get(url('gateway', 'get'), { id: gw.id }, { token: theirs.token });
    expect(seen.code).toBe(CODE.notFound);

    expect((await assign(below.id)).code).toBe(200);
    const got = await t.get<{ ser_num: string }>(
      url('gateway', 'get'),
      { id: gw.id },
      { token: below.token },
    );
    expect(got.data.ser_num).toBe('ASSIGN-GW');
    const owners = await t.get<{ owners: string }>(
      url('gateway', 'get'),
      { id: gw.id },
      { token: dealer.token },
    );
    expect(owners.data.owners.split(',')).toContain('assign_grandchild');
  });

  it('lists the accounts it is bound to by id, saying which the caller may unbind, and unbinds one', async () => {
    const dealer = await t.account('unbind_dealer', DEALER, 1);
    const customer = await t.account('unbind_customer', PERMISSION.user | PERMISSION.visitor, dealer.id);
    const gw = await addDevice(t, 'gateway', 'UNBIND-GW', dealer.token);
    const bind = (change: Record<string, string>) =>
      t.post(DEVICE_KINDS.gateway.bind, { user_id: customer.id, ...change }, { token: dealer.token });
    const bound = async (token: string) =>
      (await t.get<DeviceRow>(url('gateway', 'get'), { id: gw.id }, { token })).data?.bound_users;

    expect((await bind({ add_ids: `${gw.id}` })).code).toBe(200);
    expect(await bound(dealer.token)).toContainEqual({
      id: customer.id,
      user_name: 'unbind_customer',
      manageable: true,
    });
    // The customer sees the binding but manages nobody above it.
    const seenByCustomer = await bound(customer.token);
    expect(seenByCustomer).toContainEqual({
      id: customer.id,
      user_name: 'unbind_customer',
      manageable: true,
    });
    expect(seenByCustomer!.filter((u) => u.id !== customer.id).every((u) => !u.manageable)).toBe(true);
    // Another customer of the same dealer holding the device is not named to this one.
    const sibling = await t.account('unbind_sibling', PERMISSION.user | PERMISSION.visitor, dealer.id);
    expect(
      (
        await t.post(
          DEVICE_KINDS.gateway.bind,
          { user_id: sibling.id, add_ids: `${gw.id}` },
          { token: dealer.token },
        )
      ).code,
    ).toBe(200);
    expect((await bound(dealer.token))!.map((u) => u.id)).toContain(sibling.id);
    expect((await bound(customer.token))!.map((u) => u.id)).not.toContain(sibling.id);

    // The list's 绑定用户 follows every binding, in account order.
    const owners = async () =>
      (await t.get<DeviceRow>(url('gateway', 'get'), { id: gw.id }, { token: dealer.token })).data.owners;
    expect(await owners()).toBe('unbind_dealer,unbind_customer,unbind_sibling');

    expect((await bind({ remove_ids: `${gw.id}` })).code).toBe(200);
    expect(await owners()).toBe('unbind_dealer,unbind_sibling');
    expect((await bound(dealer.token))!.map((u) => u.id)).not.toContain(customer.id);
    expect((await t.get(url('gateway', 'get'), { id: gw.id }, { token: customer.token })).code).toBe(
      CODE.notFound,
    );
    // The list does not carry them.
    const list = await t.get<{ list: Record<string, unknown>[] }>(
      url('gateway', 'list'),
      {},
      { token: dealer.token },
    );
    expect(list.data.list[0]).not.toHaveProperty('bound_users');
  });
});

describe('paging a plain list (page anchors)', () => {
  const ids = async (token: string, page: number) =>
    (
      await t.get<{ list: { id: number }[]; total: number }>(
        url('gateway', 'list'),
        { page, page_size: 10 },
        { token },
      )
    ).data.list.map((d) => d.id);

  it('pages forward as a fresh read would, and a device added or deleted moves the next pages at once', async () => {
    const pager = await t.account('page_dealer', PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor, 1);
    for (let i = 0; i < 35; i++) {
      const r = await t.post(url('gateway', 'add'), { ser_num: `PG-${i}` }, { token: pager.token });
      expect(r.code, r.message).toBe(200);
    }
    for (const token of [pager.token, admin]) {
      // Page by page (each page starting below the last one's end), then page 3 alone again.
      const walked = [...(await ids(token, 1)), ...(await ids(token, 2)), ...(await ids(token, 3))];
      expect(new Set(walked).size).toBe(30);
      expect(walked).toEqual([...walked].sort((a, b) => b - a));
      expect(await ids(token, 3)).toEqual(walked.slice(20, 30));
    }
    const page1 = await ids(pager.token, 1);
    const added = await t.post<{ id: number }>(
      url('gateway', 'add'),
      { ser_num: 'PG-new' },
      { token: pager.token },
    );
    // One device more above: page 1's last is now page 2's first.
    const page2 = await ids(pager.token, 2);
    expect(page2[0]).toBe(page1.at(-1));
    expect(page2).not.toContain(added.data.id);
    // Two deleted from the top: page 2 starts two further down than it did.
    for (const id of [added.data.id, page1[0]!]) {
      const r = await t.post(url('gateway', 'update'), { id, is_delete: true }, { token: pager.token });
      expect(r.code, r.message).toBe(200);
    }
    const after = await ids(pager.token, 2);
    expect(after[0]).toBe(page2[2]);
  });
});
