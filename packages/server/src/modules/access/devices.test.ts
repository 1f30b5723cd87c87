import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  DEVICE_KINDS,
  JWB_API,
  PERMISSION,
  SENSOR_API,
  TOILET_API,
  TOILET_DETAIL_API,
  type DeviceKind,
} from '@se/core';
import { ADMIN_PASSWORD, addDevice, dealers, kindUrl, testApp, type TestApp } from '../../test/harness.ts';

/**
 * Issue 12, point 4: the rights matrix of docs/permissions.md, over the accounts around one
 * dealer's devices. The dealer registered them and bound them to its customer and to the
 * customer's visitor-only account; another dealer sees none of them; develop manages all.
 */
let t: TestApp;
type Role = 'visitor' | 'customer' | 'dealer' | 'other' | 'develop';
const ROLES: Role[] = ['visitor', 'customer', 'dealer', 'other', 'develop'];
const tok = {} as Record<Role, string>;
const uid = {} as Record<Role, number>;
/** An account of each role's own subtree to share devices with (bind). */
const helper = {} as Record<Role, number>;
let jwb: number;
let gateway: number;
let toilet: number;
let spare: number;

const OK = 200;
const { forbidden: NO, notFound: GONE } = CODE;

beforeAll(async () => {
  t = await testApp();
  tok.develop = await t.login('admin', ADMIN_PASSWORD);
  uid.develop = 1;
  const { dealer, other, customer } = await dealers(t, 'm');
  const visitor = await t.account('m_visitor', PERMISSION.visitor, customer.id);
  for (const [r, a] of [
    ['dealer', dealer],
    ['customer', customer],
    ['visitor', visitor],
    ['other', other],
  ] as const) {
    tok[r] = a.token;
    uid[r] = a.id;
  }
  // Visitors cannot create accounts: theirs is never used (bind is refused before).
  for (const r of ROLES) {
    helper[r] =
      r === 'visitor' ? visitor.id : (await t.account(`m_helper_${r}`, PERMISSION.visitor, uid[r])).id;
  }

  const add = async (kind: DeviceKind, ser: string) => (await addDevice(t, kind, ser, tok.dealer)).id;
  jwb = await add('jwb', 'M-JWB');
  gateway = await add('gateway', 'M-GW');
  spare = await add('evaluate', 'M-EV');
  const tl = await t.post<{ id: number }>(TOILET_API.add, { name: '矩阵公厕' }, { token: tok.dealer });
  toilet = tl.data.id;
  for (const user of [customer.id, visitor.id]) {
    for (const [kind, ids] of [
      ['jwb', [jwb]],
      ['gateway', [gateway]],
      ['evaluate', [spare]],
    ] as const) {
      const b = await t.post(
        DEVICE_KINDS[kind].bind,
        { user_id: user, add_ids: ids.join(',') },
        { token: tok.dealer },
      );
      expect(b.code, b.message).toBe(OK);
    }
    const b = await t.post(TOILET_API.bind, { user_id: user, add_ids: `${toilet}` }, { token: tok.dealer });
    expect(b.code, b.message).toBe(OK);
  }
});
afterAll(() => t.close());

type Act = (role: Role) => Promise<number>;
type Row = [string, Act, Record<Role, number>];

/** Every role's code for one action; a successful delete is undone for the next role. */
const expectRow = (act: Act, want: Record<Role, number>) =>
  it.each(ROLES)('%s', async (role) => {
    expect(await act(role)).toBe(want[role]);
  });

const code = (p: Promise<{ code: number }>) => p.then((r) => r.code);

/**
 * Deleting and restoring a device or toilet through its update route; a successful delete
 * is undone for the next role. Deleted, it is gone for everyone but its managers.
 */
function deleteRows(update: (role: Role, body: Record<string, unknown>) => Promise<number>): Row[] {
  return [
    [
      'delete',
      async (r) => {
        const c = await update(r, { is_delete: true });
        if (c === OK) expect(await update('dealer', { is_delete: false })).toBe(OK);
        return c;
      },
      { visitor: NO, customer: NO, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'restore (after the dealer deleted it)',
      async (r) => {
        expect(await update('dealer', { is_delete: true })).toBe(OK);
        const c = await update(r, { is_delete: false });
        if (c !== OK) expect(await update('dealer', { is_delete: false })).toBe(OK);
        return c;
      },
      { visitor: GONE, customer: GONE, dealer: OK, other: GONE, develop: OK },
    ],
  ];
}

function deviceRows(kind: 'jwb' | 'gateway', id: () => number): Row[] {
  const update = (role: Role, body: Record<string, unknown>) =>
    code(t.post(kindUrl(kind, 'update'), { id: id(), ...body }, { token: tok[role] }));
  return [
    [
      'read',
      (r) => code(t.get(kindUrl(kind, 'get'), { id: id() }, { token: tok[r] })),
      { visitor: OK, customer: OK, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'update',
      (r) => update(r, { desc: `由${r}修改` }),
      { visitor: NO, customer: NO, dealer: OK, other: GONE, develop: OK },
    ],
    ...deleteRows(update),
    [
      'bind to an account of the caller',
      (r) =>
        code(t.post(DEVICE_KINDS[kind].bind, { user_id: helper[r], add_ids: `${id()}` }, { token: tok[r] })),
      // A visitor administers nobody (403 at the door); another dealer does not see it.
      { visitor: NO, customer: OK, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'read the token (drawer)',
      async (r) => {
        const g = await t.get<{ token?: string }>(kindUrl(kind, 'get'), { id: id() }, { token: tok[r] });
        if (g.code !== OK) return g.code;
        return typeof g.data.token === 'string' && g.data.token.length >= 20 ? OK : NO;
      },
      { visitor: NO, customer: NO, dealer: OK, other: GONE, develop: OK },
    ],
  ];
}

describe('dispenser (jwb)', () => {
  const rows: Row[] = [
    ...deviceRows('jwb', () => jwb),
    [
      'command (cache operation)',
      (r) => code(t.post(JWB_API.cacheOperation, { id: jwb, op: 0 }, { token: tok[r] })),
      { visitor: NO, customer: OK, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'schedule (update config)',
      (r) => code(t.post(JWB_API.updateConfig, { id: jwb, mon_start: '06:00' }, { token: tok[r] })),
      { visitor: NO, customer: OK, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'parameter set (apply)',
      (r) => code(t.post(JWB_API.applyParameter, { id: jwb, parameter_num: 2 }, { token: tok[r] })),
      { visitor: NO, customer: OK, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'edit device info (IMEI…)',
      (r) =>
        code(t.post('/api/v1/device/update-device-info', { id: jwb, imei_num: '8600' }, { token: tok[r] })),
      { visitor: NO, customer: NO, dealer: OK, other: GONE, develop: OK },
    ],
  ];
  describe.each(rows)('%s', (_name, act, want) => expectRow(act, want));
});

describe('gateway and its sensors', () => {
  let sensor: number;
  beforeAll(async () => {
    const s = await t.post<{ id: number }>(
      SENSOR_API.add,
      { gateway_id: gateway, ser_num: 'M-SENSOR' },
      { token: tok.dealer },
    );
    expect(s.code, s.message).toBe(OK);
    sensor = s.data.id;
  });
  let n = 0;
  const rows: Row[] = [
    ...deviceRows('gateway', () => gateway),
    [
      'command (sensor operation)',
      (r) => code(t.post(JWB_API.sensorOperation, { id: gateway, op: 0 }, { token: tok[r] })),
      { visitor: NO, customer: OK, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'add a sensor',
      (r) => code(t.post(SENSOR_API.add, { gateway_id: gateway, ser_num: `M-S-${++n}` }, { token: tok[r] })),
      { visitor: NO, customer: NO, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'edit a sensor',
      (r) => code(t.post(SENSOR_API.update, { id: sensor, desc: r }, { token: tok[r] })),
      { visitor: NO, customer: NO, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'delete a sensor',
      async (r) => {
        const c = await code(t.post(SENSOR_API.update, { id: sensor, is_delete: true }, { token: tok[r] }));
        if (c === OK) {
          const back = { id: sensor, is_delete: false };
          expect(await code(t.post(SENSOR_API.update, back, { token: tok.dealer }))).toBe(OK);
        }
        return c;
      },
      { visitor: NO, customer: NO, dealer: OK, other: GONE, develop: OK },
    ],
    [
      "read a sensor's token",
      async (r) => {
        const g = await t.get<{ token?: string }>(SENSOR_API.get, { id: sensor }, { token: tok[r] });
        if (g.code !== OK) return g.code;
        return g.data.token ? OK : NO;
      },
      { visitor: NO, customer: NO, dealer: OK, other: GONE, develop: OK },
    ],
  ];
  describe.each(rows)('%s', (_name, act, want) => expectRow(act, want));
});

describe('toilet', () => {
  const update = (role: Role, body: Record<string, unknown>) =>
    code(t.post(TOILET_API.update, { id: toilet, ...body }, { token: tok[role] }));
  const rows: Row[] = [
    [
      'read',
      (r) => code(t.get(TOILET_DETAIL_API.detail, { id: toilet }, { token: tok[r] })),
      { visitor: OK, customer: OK, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'update (name)',
      (r) => update(r, { name: `厕所${r}` }),
      { visitor: NO, customer: NO, dealer: OK, other: GONE, develop: OK },
    ],
    ...deleteRows(update),
    [
      'cleaning flag (on site: a cleaner may)',
      async (r) => {
        const set = (on: boolean) =>
          code(t.post(TOILET_DETAIL_API.setStatus, { id: toilet, flag: 1, on, note: '' }, { token: tok[r] }));
        const c = await set(true);
        if (c === OK) expect(await set(false)).toBe(OK);
        return c;
      },
      { visitor: OK, customer: OK, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'place a device (set-up)',
      (r) =>
        code(t.post(TOILET_DETAIL_API.place, { toilet_id: toilet, add_ids: `${spare}` }, { token: tok[r] })),
      { visitor: NO, customer: OK, dealer: OK, other: GONE, develop: OK },
    ],
    [
      'bind to an account of the caller',
      (r) => code(t.post(TOILET_API.bind, { user_id: helper[r], add_ids: `${toilet}` }, { token: tok[r] })),
      { visitor: NO, customer: OK, dealer: OK, other: GONE, develop: OK },
    ],
  ];
  describe.each(rows)('%s', (_name, act, want) => expectRow(act, want));
});

describe('the registrant', () => {
  it('of an imported device is its importer: the customer it is bound to uses it but cannot delete it', async () => {
    const k = DEVICE_KINDS.jwb;
    const res = await t.app.inject({
      method: 'POST',
      url: `${k.base}/import-${k.plural}`,
      headers: { 'x-token': tok.dealer, 'content-type': 'text/csv' },
      payload: '序列号\nM-IMPORTED\n',
    });
    expect(res.json()).toMatchObject({ code: OK, data: { imported: 1 } });
    const list = await t.get<{ list: { id: number }[] }>(
      `${k.base}/${k.plural}`,
      { keywords: 'M-IMPORTED' },
      {
        token: tok.dealer,
      },
    );
    const id = list.data.list[0]!.id;
    await t.post(k.bind, { user_id: uid.customer, add_ids: `${id}` }, { token: tok.dealer });
    const del = (r: Role) =>
      code(t.post(kindUrl('jwb', 'update'), { id, is_delete: true }, { token: tok[r] }));
    expect(await code(t.post(JWB_API.cacheOperation, { id, op: 0 }, { token: tok.customer }))).toBe(OK);
    expect(await del('customer')).toBe(NO);
    expect(await del('dealer')).toBe(OK);
  });
});

describe('a deleted device comes back', () => {
  it('with its bindings: the customer sees it again after the dealer restores it', async () => {
    const del = await t.post(kindUrl('jwb', 'update'), { id: jwb, is_delete: true }, { token: tok.dealer });
    expect(del.code).toBe(OK);
    expect((await t.get(kindUrl('jwb', 'get'), { id: jwb }, { token: tok.customer })).code).toBe(GONE);
    const back = await t.post<{ is_delete: boolean }>(
      kindUrl('jwb', 'update'),
      { id: jwb, is_delete: false },
      { token: tok.dealer },
    );
    expect(back.code, back.message).toBe(OK);
    expect(back.data.is_delete).toBe(false);
    expect((await t.get(kindUrl('jwb', 'get'), { id: jwb }, { token: tok.customer })).code).toBe(OK);
  });

  it('not when its serial number was registered again meanwhile', async () => {
    const d = await t.post<{ id: number }>(
      kindUrl('jwb', 'add'),
      { ser_num: 'M-AGAIN' },
      { token: tok.dealer },
    );
    await t.post(kindUrl('jwb', 'update'), { id: d.data.id, is_delete: true }, { token: tok.dealer });
    expect((await t.post(kindUrl('jwb', 'add'), { ser_num: 'M-AGAIN' }, { token: tok.other })).code).toBe(OK);
    const back = await t.post(
      kindUrl('jwb', 'update'),
      { id: d.data.id, is_delete: false },
      { token: tok.dealer },
    );
    expect(back).toMatchObject({ code: CODE.conflict, message: '该序列号已重新登记，无法恢复' });
  });
});
