import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  DEVICE_KINDS,
  DOWNLOAD_API,
  PERMISSION,
  SENSOR_API,
  TOILET_API,
  TOILET_DETAIL_API,
  type DeviceKind,
} from '@se/core';
import { adminApp, dealers, kindUrl, type Account, type TestApp } from '../../test/harness.ts';
import { runnerOf } from '../downloads/runner.ts';

/**
 * Issue 12, point 13 (a device's secret token is shown in its own drawer to its managers,
 * nowhere else) and point 14b (a taken serial number does not say whose it is).
 */
let t: TestApp;
let admin: string;
let dealer: Account;
let customer: Account;
let other: Account;
const KINDS = Object.keys(DEVICE_KINDS) as DeviceKind[];
const secrets: string[] = [];
const ids = {} as Record<DeviceKind, number>;
let sensor: number;
let toilet: number;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  await runnerOf(t.ctx).start({ pollMs: 50, progressMs: 20 });
  // Every kind: terminals and players need the attendance and media bits besides a dealer's.
  ({ dealer, other, customer } = await dealers(t, 'sec', PERMISSION.attendance | PERMISSION.media));
  for (const kind of KINDS) {
    const r = await t.post<{ id: number; token: string }>(
      kindUrl(kind, 'add'),
      { ser_num: `SEC-${kind}`, desc: '密钥测试' },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    // The registrant manages the device: its answer carries the new token.
    expect(r.data.token.length).toBeGreaterThanOrEqual(20);
    secrets.push(r.data.token);
    ids[kind] = r.data.id;
    const b = await t.post(
      DEVICE_KINDS[kind].bind,
      { user_id: customer.id, add_ids: `${r.data.id}` },
      {
        token: dealer.token,
      },
    );
    expect(b.code, b.message).toBe(200);
  }
  const s = await t.post<{ id: number; token: string }>(
    SENSOR_API.add,
    { gateway_id: ids.gateway, ser_num: 'SEC-SENSOR' },
    { token: dealer.token },
  );
  expect(s.code, s.message).toBe(200);
  sensor = s.data.id;
  secrets.push(s.data.token);
  const tl = await t.post<{ id: number }>(
    TOILET_API.add,
    { name: '密钥公厕', gateway_id: ids.gateway },
    { token: dealer.token },
  );
  toilet = tl.data.id;
  await t.post(TOILET_API.bind, { user_id: customer.id, add_ids: `${toilet}` }, { token: dealer.token });
  const placed = await t.post(
    TOILET_DETAIL_API.place,
    { toilet_id: toilet, add_ids: `${ids.jwb}` },
    { token: dealer.token },
  );
  expect(placed.code, placed.message).toBe(200);
});
afterAll(() => t.close());

const noSecret = (value: unknown) => {
  const text = JSON.stringify(value);
  for (const s of secrets) expect(text).not.toContain(s);
};

describe('device tokens (point 13)', () => {
  it.each(KINDS)('no %s list row carries a token, not even for develop or the registrant', async (kind) => {
    for (const token of [admin, dealer.token, customer.token]) {
      const r = await t.get<{ list: Record<string, unknown>[] }>(kindUrl(kind, 'list'), {}, { token });
      expect(r.data.list.length).toBeGreaterThan(0);
      for (const row of r.data.list) expect(row).not.toHaveProperty('token');
      noSecret(r.data);
    }
  });

  it('no sensor, bind-list or toilet-detail row carries one', async () => {
    const sensors = await t.get<{ list: object[] }>(
      SENSOR_API.list,
      { gateway_id: ids.gateway },
      { token: admin },
    );
    expect(sensors.data.list).toHaveLength(1);
    expect(sensors.data.list[0]).not.toHaveProperty('token');
    const bind = await t.get(
      DEVICE_KINDS.jwb.bindList,
      { target_user_id: customer.id },
      { token: dealer.token },
    );
    expect(bind.code).toBe(200);
    noSecret(bind.data);
    const detail = await t.get(TOILET_DETAIL_API.detail, { id: toilet }, { token: dealer.token });
    expect(detail.code).toBe(200);
    noSecret(detail.data);
  });

  it("the drawer shows it to the device's managers only", async () => {
    for (const kind of KINDS) {
      const mine = await t.get<{ token?: string }>(
        kindUrl(kind, 'get'),
        { id: ids[kind] },
        { token: dealer.token },
      );
      expect(mine.data.token, kind).toBe(secrets[KINDS.indexOf(kind)]);
      const dev = await t.get<{ token?: string }>(kindUrl(kind, 'get'), { id: ids[kind] }, { token: admin });
      expect(dev.data.token, kind).toBe(secrets[KINDS.indexOf(kind)]);
      // Bound to the customer, who uses it but did not register it.
      const theirs = await t.get(kindUrl(kind, 'get'), { id: ids[kind] }, { token: customer.token });
      expect(theirs.code).toBe(200);
      expect(theirs.data, kind).not.toHaveProperty('token');
    }
    const s = await t.get<{ token?: string }>(SENSOR_API.get, { id: sensor }, { token: customer.token });
    expect(s.code).toBe(200);
    expect(s.data).not.toHaveProperty('token');
    expect(
      (await t.get<{ token?: string }>(SENSOR_API.get, { id: sensor }, { token: dealer.token })).data.token,
    ).toBe(secrets.at(-1));
  });

  it.each(KINDS)('the %s .xlsx export has no token column and no token', async (kind) => {
    const k = DEVICE_KINDS[kind];
    const res = await t.app.inject({ url: `${k.base}/export-${k.plural}`, headers: { 'x-token': admin } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const cells: string[] = [];
    ws.eachRow((row) => row.eachCell((c) => cells.push(c.text)));
    expect(cells).toContain(`SEC-${kind}`);
    expect(cells.filter((c) => /令牌|token/i.test(c))).toEqual([]);
    noSecret(cells);
  });

  it('the download-centre export of devices has none either', async () => {
    const r = await t.post<{ id: number }>(
      DOWNLOAD_API.create,
      { name: 'devices', params: JSON.stringify({ kind: 'gateway' }) },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    for (let i = 0; ; i++) {
      const j = await t.get<{ status: string }>(DOWNLOAD_API.get, { id: r.data.id }, { token: dealer.token });
      if (j.data.status === 'done') break;
      expect(j.data.status).not.toBe('failed');
      expect(i).toBeLessThan(1200);
      await new Promise((res) => setTimeout(res, 25));
    }
    const link = await t.get<{ url: string }>(DOWNLOAD_API.sign, { id: r.data.id }, { token: dealer.token });
    const file = await t.app.inject({ method: 'GET', url: link.data.url });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    wb.worksheets[0]!.eachRow((row) => row.eachCell((c) => cells.push(c.text)));
    expect(cells).toContain('SEC-gateway');
    expect(cells.filter((c) => /令牌|token/i.test(c))).toEqual([]);
    noSecret(cells);
  });
});

describe('a taken serial number (point 14b)', () => {
  const NEUTRAL = '该序列号无法登记，请核对序列号或联系设备供应商';

  it('is said to exist to its own tenant, and neutrally to another one', async () => {
    const own = await t.post(kindUrl('jwb', 'add'), { ser_num: 'SEC-jwb' }, { token: dealer.token });
    expect(own).toMatchObject({ code: CODE.conflict, message: '序列号已存在' });
    // The customer sees the device too: it is told the same.
    const cust = await t.post(kindUrl('gateway', 'add'), { ser_num: 'SEC-jwb' }, { token: customer.token });
    expect(cust).toMatchObject({ code: CODE.conflict, message: '序列号已存在' });
    for (const kind of ['jwb', 'evaluate'] as const) {
      const r = await t.post(kindUrl(kind, 'add'), { ser_num: 'SEC-jwb' }, { token: other.token });
      expect(r).toMatchObject({ code: CODE.conflict, message: NEUTRAL });
    }
  });

  it('the same for a sensor', async () => {
    const gw = await t.post<{ id: number }>(
      kindUrl('gateway', 'add'),
      { ser_num: 'SEC-OTHER-GW' },
      { token: other.token },
    );
    const theirs = await t.post(
      SENSOR_API.add,
      { gateway_id: gw.data.id, ser_num: 'SEC-SENSOR' },
      { token: other.token },
    );
    expect(theirs).toMatchObject({ code: CODE.conflict, message: NEUTRAL });
    const mine = await t.post(
      SENSOR_API.add,
      { gateway_id: ids.gateway, ser_num: 'SEC-SENSOR' },
      { token: dealer.token },
    );
    expect(mine).toMatchObject({ code: CODE.conflict, message: '序列号已存在' });
  });

  it('and in an import, row by row', async () => {
    const k = DEVICE_KINDS.jwb;
    const upload = (token: string) =>
      t.app
        .inject({
          method: 'POST',
          url: `${k.base}/import-${k.plural}?mode=valid`,
          headers: { 'x-token': token, 'content-type': 'text/csv' },
          payload: '序列号\nSEC-jwb\nSEC-NEW-1\n',
        })
        .then(
          (r) =>
            r.json() as {
              code: number;
              data: { imported: number; errors: { row: number; message: string }[] };
            },
        );
    const theirs = await upload(other.token);
    expect(theirs.code).toBe(200);
    expect(theirs.data.imported).toBe(1);
    expect(theirs.data.errors).toEqual([{ row: 2, field: 'ser_num', message: NEUTRAL }]);
    const mine = await upload(dealer.token);
    expect(mine.data.errors).toEqual([
      { row: 2, field: 'ser_num', message: '序列号已存在' },
      { row: 3, field: 'ser_num', message: NEUTRAL },
    ]);
  });
});
