import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE, SENSOR_API, STATUS_FILTER, TOILET_API, TOILET_STATUS } from '@se/core';
import { addDevice, adminApp, dealers, type Account, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: string;
let dealer: Account;
let other: Account;
let customer: Account;
let gw: number;
let otherGw: number;

const addGateway = async (token: string, ser: string) =>
  (await addDevice(t, 'gateway', ser, token, { type: 43 })).id;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  ({ dealer, other, customer } = await dealers(t, 'wc'));
  gw = await addGateway(dealer.token, 'GW-1');
  otherGw = await addGateway(other.token, 'GW-2');
});
afterAll(() => t.close());

describe('toilets', () => {
  it('registers a toilet with its AMap address and gateway, and lists it', async () => {
    const r = await t.post<{ id: number; gateway_ser_num: string; star_sum: number }>(
      TOILET_API.add,
      {
        name: '西湖公厕',
        pname: '浙江省',
        cityname: '杭州市',
        adname: '西湖区',
        address: '北山街 1 号',
        lat: 30.25,
        lng: 120.14,
        gateway_id: gw,
      },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    expect(r.data).toMatchObject({ gateway_ser_num: 'GW-1', star_sum: 0 });
    const list = await t.get<{ list: { name: string }[] }>(
      TOILET_API.list,
      { keywords: '杭州' },
      { token: dealer.token },
    );
    expect(list.data.list.map((x) => x.name)).toEqual(['西湖公厕']);
  });

  it('refuses a gateway the caller cannot see (no id leak through the link)', async () => {
    const r = await t.post(
      TOILET_API.add,
      { name: '偷接网关', gateway_id: otherGw },
      { token: dealer.token },
    );
    expect(r).toMatchObject({ code: CODE.notFound, message: '网关不存在' });
    const mine = await t.post<{ id: number }>(TOILET_API.add, { name: '我的厕所' }, { token: dealer.token });
    const u = await t.post(
      TOILET_API.update,
      { id: mine.data.id, gateway_id: otherGw },
      { token: dealer.token },
    );
    expect(u.code).toBe(CODE.notFound);
  });

  it('sets and clears status flags, and filters by them', async () => {
    const x = await t.post<{ id: number }>(TOILET_API.add, { name: '状态厕所' }, { token: dealer.token });
    const flags = TOILET_STATUS.cleaning | TOILET_STATUS.repair;
    const r = await t.post<{ status: number }>(
      TOILET_API.update,
      { id: x.data.id, status: flags },
      { token: dealer.token },
    );
    expect(r.data.status).toBe(3);
    const repairing = await t.get<{ list: { id: number }[] }>(
      TOILET_API.list,
      { status: TOILET_STATUS.repair },
      { token: dealer.token },
    );
    expect(repairing.data.list.map((y) => y.id)).toEqual([x.data.id]);
    const cleared = await t.post<{ status: number }>(
      TOILET_API.update,
      { id: x.data.id, status: 0 },
      { token: dealer.token },
    );
    expect(cleared.data.status).toBe(0);
    expect(
      (await t.post(TOILET_API.update, { id: x.data.id, status: 8 }, { token: dealer.token })).code,
    ).toBe(CODE.badRequest);
  });

  it('binds toilets to a customer through get-user-st / bind-user-st', async () => {
    const list = await t.get<{ list: { id: number; is_bind: boolean }[] }>(
      TOILET_API.bindList,
      { target_user_id: customer.id },
      { token: dealer.token },
    );
    const ids = list.data.list.map((x) => x.id);
    expect(list.data.list.every((x) => !x.is_bind)).toBe(true);
    expect(
      (
        await t.post(
          TOILET_API.bind,
          { user_id: customer.id, add_ids: ids.join(',') },
          { token: dealer.token },
        )
      ).code,
    ).toBe(200);
    const seen = await t.get<{ total: number }>(TOILET_API.list, undefined, { token: customer.token });
    expect(seen.data.total).toBe(ids.length);
    const theirs = await t.post<{ id: number }>(TOILET_API.add, { name: '别人的' }, { token: other.token });
    const bad = await t.post(
      TOILET_API.bind,
      { user_id: customer.id, add_ids: `${theirs.data.id}` },
      { token: dealer.token },
    );
    expect(bad.code).toBe(CODE.notFound);
    expect((await t.get(TOILET_API.get, { id: theirs.data.id }, { token: dealer.token })).code).toBe(
      CODE.notFound,
    );
  });

  it('develop sees every toilet', async () => {
    const r = await t.get<{ total: number }>(TOILET_API.list, undefined, { token: admin });
    expect(r.data.total).toBeGreaterThanOrEqual(4);
  });
});

describe('sensors', () => {
  it('belong to a gateway and are visible only through it', async () => {
    const s = await t.post<{ id: number; gateway_id: number }>(
      SENSOR_API.add,
      { gateway_id: gw, ser_num: 'SN-NH3-1', desc: '男厕氨气' },
      { token: dealer.token },
    );
    expect(s.code, s.message).toBe(200);
    expect(s.data.gateway_id).toBe(gw);
    const list = await t.get<{ list: { id: number }[] }>(
      SENSOR_API.list,
      { gateway_id: gw },
      { token: dealer.token },
    );
    expect(list.data.list.map((x) => x.id)).toEqual([s.data.id]);
    expect((await t.get(SENSOR_API.list, { gateway_id: gw }, { token: other.token })).code).toBe(
      CODE.notFound,
    );
    expect((await t.get(SENSOR_API.get, { id: s.data.id }, { token: other.token })).code).toBe(CODE.notFound);
    expect(
      (await t.post(SENSOR_API.add, { gateway_id: gw, ser_num: 'X' }, { token: other.token })).code,
    ).toBe(CODE.notFound);
    expect((await t.post(SENSOR_API.update, { id: s.data.id, desc: 'x' }, { token: other.token })).code).toBe(
      CODE.notFound,
    );
  });

  it('go offline after 1 hour', async () => {
    const s = await t.post<{ id: number }>(
      SENSOR_API.add,
      { gateway_id: gw, ser_num: 'SN-1H' },
      { token: dealer.token },
    );
    /** The sensor last reported `minutes` ago: the ids the list gives for `status`. */
    const listedAfter = async (minutes: number, status: number) => {
      await t.ctx.db.query(`UPDATE devices SET time = now() - make_interval(mins => $2) WHERE id = $1`, [
        s.data.id,
        minutes,
      ]);
      const r = await t.get<{ list: { id: number }[] }>(
        SENSOR_API.list,
        { gateway_id: gw, status },
        { token: dealer.token },
      );
      return r.data.list.map((x) => x.id);
    };
    expect(await listedAfter(59, STATUS_FILTER.online)).toContain(s.data.id);
    expect(await listedAfter(61, STATUS_FILTER.offline)).toContain(s.data.id);
  });
});
