import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  EXPRESS_API,
  type ExpressRow,
  JWB_WARNING,
  LIVE_API,
  MAINTENANCE_API,
  MESSAGE_API,
  PAGE_SIZES,
  RECORD_STATUS,
  TOILET_API,
  TOILET_DETAIL_API,
  TOILET_STATUS,
  type EquipmentTypeRow,
  type FaultTypeRow,
  type Prefill,
  type RecordDetail,
  type RecordRow,
  type ToiletDetail,
} from '@se/core';
import {
  addDevice,
  addToilet,
  adminApp,
  dealers,
  kindUrl,
  sendReport,
  type Account,
  type TestApp,
  type TestDevice,
} from '../../test/harness.ts';
import { findUser } from '../users/repo.ts';
import { listRecords } from './repo.ts';
import { HTML_AS_JPG, SVG_WITH_SCRIPT, bombPng, photoJpeg } from '../../test/hostile-images.ts';

let t: TestApp;
let admin: string;
let dealer: Account;
let other: Account;
let customer: Account;
let jwb: TestDevice;
let toilet: number;
let otherToilet: number;
let part: number;
let otherPart: number;

type Page<T> = { list: T[]; total: number };

const equipmentTypes = (token: string, q: Record<string, unknown> = {}) =>
  t.get<Page<EquipmentTypeRow>>(MAINTENANCE_API.equipmentTypes, { page_size: 100, ...q }, { token });
const faultTypes = (token: string, q: Record<string, unknown> = {}) =>
  t.get<Page<FaultTypeRow>>(MAINTENANCE_API.faultTypes, { page_size: 100, ...q }, { token });
const records = (token: string, q: Record<string, unknown> = {}) =>
  t.get<Page<RecordRow>>(MAINTENANCE_API.records, { page_size: 100, ...q }, { token });
const detail = (id: number, token: string) => t.get<RecordDetail>(MAINTENANCE_API.record, { id }, { token });
const toiletOf = async (id: number) =>
  (await t.get<ToiletDetail>(TOILET_DETAIL_API.detail, { id }, { token: dealer.token })).data;

async function typeId(code: string) {
  const r = await equipmentTypes(dealer.token);
  return r.data.list.find((e) => e.code === code)!.id;
}
async function faultId(equipmentTypeId: number, name: string) {
  const r = await faultTypes(dealer.token, { equipment_type_id: equipmentTypeId });
  return r.data.list.find((f) => f.name === name)!.id;
}

async function addRecord(token: string, body: Record<string, unknown>) {
  const r = await t.post<{ id: number; no: string }>(MAINTENANCE_API.addRecord, body, { token });
  expect(r.code, r.message).toBe(200);
  return r.data.id;
}

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  ({ dealer, other, customer } = await dealers(t, 'mt'));
  jwb = await addDevice(t, 'jwb', 'MT-JWB', dealer.token);
  await addDevice(t, 'jwb', 'MT-JWB-2', other.token);
  toilet = await addToilet(t, dealer.token, { name: '维修厕所' });
  otherToilet = await addToilet(t, other.token, { name: '别家厕所' });
  for (const [url, id] of [
    [kindUrl('jwb', 'bind'), jwb.id],
    [TOILET_API.bind, toilet],
  ] as const) {
    const b = await t.post(url, { user_id: customer.id, add_ids: String(id) }, { token: dealer.token });
    expect(b.code, b.message).toBe(200);
  }
  const placed = await t.post(
    TOILET_DETAIL_API.place,
    { toilet_id: toilet, add_ids: String(jwb.id) },
    { token: dealer.token },
  );
  expect(placed.code, placed.message).toBe(200);
  part = (
    await t.post<{ id: number }>(
      TOILET_DETAIL_API.addPart,
      { toilet_id: toilet, type: 5, name: '1号门锁' },
      { token: dealer.token },
    )
  ).data.id;
  otherPart = (
    await t.post<{ id: number }>(
      TOILET_DETAIL_API.addPart,
      { toilet_id: otherToilet, type: 5 },
      { token: other.token },
    )
  ).data.id;
});
afterAll(() => t.close());

describe('catalogues', () => {
  it('are seeded with a type per device kind and toilet part, with faults', async () => {
    const e = await equipmentTypes(customer.token);
    expect(e.code, e.message).toBe(200);
    const names = e.data.list.filter((x) => x.builtin).map((x) => x.name);
    for (const n of [
      '除臭机',
      '评价器',
      '智慧网关',
      '传感器',
      '电表',
      '水表',
      '纸巾机',
      '蹲位',
      '门锁',
      '其他',
    ])
      expect(names).toContain(n);
    const f = await faultTypes(customer.token, { equipment_type_id: await typeId('jwb') });
    expect(f.data.list.map((x) => x.name)).toEqual(
      expect.arrayContaining(['缺液', '雾化器故障', '风扇故障']),
    );
    const lock = await faultTypes(customer.token, { keywords: '门锁' });
    expect(lock.data.list.map((x) => `${x.equipment_type_name}/${x.name}`)).toContain('门锁/损坏');
  });

  it("an account's own types are seen below it, not by another dealer; only its managers edit them", async () => {
    const add = await t.post<{ id: number }>(
      MAINTENANCE_API.addEquipmentType,
      { name: '烘手器', code: 'dryer', category: 'other' },
      { token: dealer.token },
    );
    expect(add.code, add.message).toBe(200);
    const id = add.data.id;
    expect((await equipmentTypes(customer.token)).data.list.find((x) => x.id === id)).toMatchObject({
      name: '烘手器',
      editable: false,
    });
    expect((await equipmentTypes(dealer.token)).data.list.find((x) => x.id === id)?.editable).toBe(true);
    expect((await equipmentTypes(other.token)).data.list.some((x) => x.id === id)).toBe(false);
    const byOther = await t.post(
      MAINTENANCE_API.updateEquipmentType,
      { id, name: 'x' },
      { token: other.token },
    );
    expect([byOther.code, byOther.message]).toEqual([CODE.notFound, '设备类型不存在']);
    const byCustomer = await t.post(
      MAINTENANCE_API.updateEquipmentType,
      { id, name: 'x' },
      { token: customer.token },
    );
    expect(byCustomer.code).toBe(CODE.forbidden);
    const builtin = await t.post(
      MAINTENANCE_API.updateEquipmentType,
      { id: await typeId('jwb'), name: 'x' },
      { token: dealer.token },
    );
    expect(builtin.code).toBe(CODE.forbidden);
    const f = await t.post(
      MAINTENANCE_API.addFaultType,
      { equipment_type_id: id, name: '不出风', severity: 1, response_hours: 8 },
      { token: dealer.token },
    );
    expect(f.code, f.message).toBe(200);
    const otherFault = await t.post(
      MAINTENANCE_API.addFaultType,
      { equipment_type_id: id, name: '偷看' },
      { token: other.token },
    );
    expect(otherFault.code).toBe(CODE.notFound);
    const renamed = await t.post(
      MAINTENANCE_API.updateEquipmentType,
      { id, name: '干手器' },
      { token: dealer.token },
    );
    expect(renamed.code, renamed.message).toBe(200);
    expect((await equipmentTypes(customer.token, { keywords: '干手' })).data.list.map((x) => x.name)).toEqual(
      ['干手器'],
    );
  });

  it('refuses junk with Chinese messages', async () => {
    const r = await t.post(
      MAINTENANCE_API.addFaultType,
      { equipment_type_id: 1, name: '', response_hours: 0 },
      { token: dealer.token },
    );
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toMatch(/请输入名称|响应时限/);
  });
});

describe('work order from an alarm: report → assign → complete → accept', () => {
  let id: number;

  it('a dispenser out of liquid raises an alarm the manager opens a pre-filled record from', async () => {
    await sendReport(t, jwb, { warning: JWB_WARNING.lackOfLiquid, liquid: 10 });
    const alarms = await t.get<Page<{ id: number; device_id: number }>>(
      LIVE_API.alarms,
      {},
      { token: dealer.token },
    );
    const alarm = alarms.data.list.find((a) => a.device_id === jwb.id)!;
    expect(alarm).toBeDefined();
    const p = await t.get<Prefill>(MAINTENANCE_API.prefill, { alarm_id: alarm.id }, { token: dealer.token });
    expect(p.code, p.message).toBe(200);
    const jwbType = await typeId('jwb');
    expect(p.data).toMatchObject({
      device_id: jwb.id,
      ser_num: 'MT-JWB',
      toilet_id: toilet,
      alarm_id: alarm.id,
      equipment_type_id: jwbType,
      fault_type_id: await faultId(jwbType, '缺液'),
    });
    expect(p.data.description).toContain('缺液');
    // Another dealer cannot open one from it.
    const peek = await t.get(MAINTENANCE_API.prefill, { alarm_id: alarm.id }, { token: other.token });
    expect([peek.code, peek.message]).toEqual([CODE.notFound, '告警不存在']);

    id = await addRecord(dealer.token, {
      alarm_id: alarm.id,
      equipment_type_id: p.data.equipment_type_id,
      fault_type_id: p.data.fault_type_id,
      description: p.data.description,
    });
    // The dispenser stands in the toilet: the toilet is 维修中 while the repair is open.
    const flagged = await toiletOf(toilet);
    expect(flagged.toilet.status & TOILET_STATUS.repair).toBe(TOILET_STATUS.repair);
    const d = await detail(id, customer.token);
    expect(d.code, d.message).toBe(200);
    expect(d.data.record).toMatchObject({
      status: RECORD_STATUS.pending,
      ser_num: 'MT-JWB',
      // The record links to its device's drawer, which needs the kind.
      device_kind: 'jwb',
      toilet_name: '维修厕所',
      fault_type_name: '缺液',
    });
    expect(d.data.events.map((e) => e.action)).toEqual(['report']);
  });

  it('the manager assigns it to the customer, who gets an inbox message', async () => {
    const people = await t.get<{ id: number }[]>(MAINTENANCE_API.assignees, { id }, { token: dealer.token });
    expect(people.data.map((u) => u.id)).toEqual(expect.arrayContaining([dealer.id, customer.id]));
    expect(people.data.map((u) => u.id)).not.toContain(other.id);
    const toOther = await t.post(
      MAINTENANCE_API.assign,
      { id, assignee_id: other.id },
      { token: dealer.token },
    );
    expect(toOther.code).toBe(CODE.badRequest);
    const r = await t.post<RecordDetail>(
      MAINTENANCE_API.assign,
      { id, assignee_id: customer.id, note: '尽快' },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    expect(r.data.record).toMatchObject({ status: RECORD_STATUS.working, assignee_id: customer.id });
    const inbox = await t.get<Page<{ title: string }>>(MESSAGE_API.list, {}, { token: customer.token });
    expect(inbox.data.list.map((m) => m.title)).toContain(`维修单 ${r.data.record.no} 已派给你`);
  });

  it('the technician completes it; they cannot accept their own work; the manager accepts', async () => {
    const early = await t.post(MAINTENANCE_API.accept, { id }, { token: dealer.token });
    expect(early.code).toBe(CODE.conflict);
    const done = await t.post<RecordDetail>(
      MAINTENANCE_API.complete,
      { id, remedy: '补充香薰液', parts_replaced: '香薰液 1 瓶', cost: '35.5', minutes_spent: 20 },
      { token: customer.token },
    );
    expect(done.code, done.message).toBe(200);
    expect(done.data.record).toMatchObject({ status: RECORD_STATUS.checking, cost: 35.5, minutes_spent: 20 });
    expect(done.data.record.finished_at).not.toBeNull();
    const own = await t.post(MAINTENANCE_API.accept, { id }, { token: customer.token });
    expect(own.code).toBe(CODE.forbidden);
    const ok = await t.post<RecordDetail>(MAINTENANCE_API.accept, { id }, { token: dealer.token });
    expect(ok.code, ok.message).toBe(200);
    expect(ok.data.record.status).toBe(RECORD_STATUS.done);
    expect(ok.data.events.map((e) => e.action)).toEqual(['report', 'assign', 'complete', 'accept']);
    // Accepted: the toilet's 维修中 flag goes, with a log line naming the record.
    expect((await toiletOf(toilet)).toilet.status & TOILET_STATUS.repair).toBe(0);
    const log = await t.get<Page<{ note: string; on: boolean }>>(
      TOILET_DETAIL_API.statusLog,
      { toilet_id: toilet },
      { token: dealer.token },
    );
    expect(log.data.list[0]).toMatchObject({ on: false, note: `维修单 ${ok.data.record.no} 已结束` });
    const inbox = await t.get<Page<{ title: string }>>(MESSAGE_API.list, {}, { token: customer.token });
    expect(inbox.data.list.some((m) => m.title.includes('验收通过'))).toBe(true);
    const s = await t.get<{
      top_devices: { ser_num: string; count: number }[];
      mttr: { fault_type_name: string }[];
    }>(MAINTENANCE_API.stats, {}, { token: dealer.token });
    expect(s.data.top_devices[0]).toMatchObject({ ser_num: 'MT-JWB', count: 1 });
    expect(s.data.mttr.map((m) => m.fault_type_name)).toContain('缺液');
  });

  it('the statistics, kept a while per scope, follow the caller’s own adds and steps at once', async () => {
    const open = async (token: string) =>
      (await t.get<{ open: number }>(MAINTENANCE_API.stats, {}, { token })).data.open;
    const before = await open(dealer.token);
    const other0 = await open(other.token);
    const id = await addRecord(dealer.token, {
      ser_num: 'MT-JWB',
      equipment_type_id: await typeId('jwb'),
      description: '统计',
    });
    expect(await open(dealer.token)).toBe(before + 1);
    expect(await open(other.token)).toBe(other0);
    const c = await t.post(MAINTENANCE_API.cancel, { id, note: '重复' }, { token: dealer.token });
    expect(c.code, c.message).toBe(200);
    expect(await open(dealer.token)).toBe(before);
  });

  it('a type in use cannot be deleted, the refusal says by how many records', async () => {
    const f = await t.post<{ id: number }>(
      MAINTENANCE_API.addEquipmentType,
      { name: '临时类型' },
      { token: dealer.token },
    );
    await addRecord(dealer.token, { ser_num: 'MT-JWB', equipment_type_id: f.data.id, description: '测试' });
    const r = await t.post(
      MAINTENANCE_API.updateEquipmentType,
      { id: f.data.id, is_delete: true },
      { token: dealer.token },
    );
    expect([r.code, r.message]).toEqual([CODE.conflict, '该设备类型被 1 条维修记录使用，不能删除']);
  });

  it('a planned upkeep of the dispenser leaves the flag alone; cancelling the last repair clears it', async () => {
    // The record of the test above is a repair of the dispenser in the toilet: it holds the flag.
    expect((await toiletOf(toilet)).toilet.status & TOILET_STATUS.repair).toBe(TOILET_STATUS.repair);
    const upkeep = await addRecord(dealer.token, {
      kind: 'upkeep',
      ser_num: 'MT-JWB',
      equipment_type_id: await typeId('jwb'),
      description: '月度保养',
    });
    const open = (await records(dealer.token, { status: RECORD_STATUS.pending })).data.list;
    for (const r of open.filter((x) => x.id !== upkeep && x.toilet_id === toilet)) {
      const c = await t.post(MAINTENANCE_API.cancel, { id: r.id, note: '误报' }, { token: dealer.token });
      expect(c.code, c.message).toBe(200);
    }
    expect((await toiletOf(toilet)).toilet.status & TOILET_STATUS.repair).toBe(0);
    const c = await t.post(MAINTENANCE_API.cancel, { id: upkeep, note: '不需要' }, { token: dealer.token });
    expect(c.code, c.message).toBe(200);
  });
});

describe('a record on a toilet part holds the 维修中 flag', () => {
  it('sets the flag and the part to 故障; the flag stays until the last open record is accepted', async () => {
    const lock = await typeId('part5');
    const broken = await faultId(lock, '损坏');
    const first = await addRecord(customer.token, {
      part_id: part,
      equipment_type_id: lock,
      fault_type_id: broken,
      description: '锁舌断了',
      assignee_id: customer.id,
    });
    let d = await toiletOf(toilet);
    expect(d.toilet.status & TOILET_STATUS.repair).toBe(TOILET_STATUS.repair);
    expect(d.parts.find((p) => p.id === part)?.state).toBe(1);
    const log = await t.get<Page<{ note: string }>>(
      TOILET_DETAIL_API.statusLog,
      { toilet_id: toilet },
      { token: dealer.token },
    );
    expect(log.data.list[0]?.note).toBe(`维修单 WX${String(first).padStart(6, '0')}`);

    const second = await addRecord(dealer.token, {
      part_id: part,
      equipment_type_id: lock,
      description: '门锁松动',
    });
    for (const [id, who] of [[first, customer.token]] as const) {
      expect((await t.post(MAINTENANCE_API.complete, { id, remedy: '更换锁舌' }, { token: who })).code).toBe(
        200,
      );
      expect((await t.post(MAINTENANCE_API.accept, { id }, { token: dealer.token })).code).toBe(200);
    }
    d = await toiletOf(toilet);
    expect(d.toilet.status & TOILET_STATUS.repair).toBe(TOILET_STATUS.repair);
    expect(d.parts.find((p) => p.id === part)?.state).toBe(1);

    const c = await t.post(MAINTENANCE_API.cancel, { id: second, note: '' }, { token: dealer.token });
    expect(c.code).toBe(CODE.badRequest);
    await t.post(MAINTENANCE_API.assign, { id: second, assignee_id: customer.id }, { token: dealer.token });
    await t.post(MAINTENANCE_API.complete, { id: second, remedy: '紧固' }, { token: customer.token });
    const back = await t.post<RecordDetail>(
      MAINTENANCE_API.reject,
      { id: second, note: '还是松' },
      { token: dealer.token },
    );
    expect(back.data.record.status).toBe(RECORD_STATUS.working);
    await t.post(MAINTENANCE_API.complete, { id: second, remedy: '更换门锁' }, { token: customer.token });
    expect((await t.post(MAINTENANCE_API.accept, { id: second }, { token: dealer.token })).code).toBe(200);
    d = await toiletOf(toilet);
    expect(d.toilet.status & TOILET_STATUS.repair).toBe(0);
    expect(d.parts.find((p) => p.id === part)?.state).toBe(0);
  });
});

describe('lists', () => {
  it('filter by status, device, toilet, keyword and number; the other dealer sees none', async () => {
    const all = await records(dealer.token);
    expect(all.data.total).toBeGreaterThanOrEqual(4);
    expect((await records(customer.token)).data.total).toBe(all.data.total);
    expect((await records(other.token)).data.total).toBe(0);
    const done = await records(dealer.token, { status: RECORD_STATUS.done });
    expect(done.data.list.every((r) => r.status === RECORD_STATUS.done)).toBe(true);
    expect(
      (await records(dealer.token, { device_id: jwb.id })).data.list.every((r) => r.ser_num === 'MT-JWB'),
    ).toBe(true);
    expect((await records(dealer.token, { keywords: '锁舌' })).data.list.map((r) => r.description)).toEqual([
      '锁舌断了',
    ]);
    const one = all.data.list[0]!;
    expect(
      (await records(dealer.token, { keywords: one.no.toLowerCase() })).data.list.map((r) => r.id),
    ).toEqual([one.id]);
    expect((await records(dealer.token, { overdue: true })).data.total).toBe(0);
    expect((await records(dealer.token, { toilet_id: otherToilet })).data.total).toBe(0);
  });

  it('a serial-shaped keyword finds the serial numbers it starts, in either case, among records one sees', async () => {
    const jwbType = await typeId('jwb');
    await addDevice(t, 'jwb', 'MTQ70001', dealer.token);
    await addDevice(t, 'jwb', 'MTQ70002', other.token);
    const mine = await addRecord(dealer.token, {
      ser_num: 'MTQ70001',
      equipment_type_id: jwbType,
      description: '前缀',
    });
    const theirs = await addRecord(other.token, {
      ser_num: 'MTQ70002',
      equipment_type_id: jwbType,
      description: '前缀',
    });
    expect((await records(dealer.token, { keywords: 'mtq7000' })).data.list.map((r) => r.id)).toEqual([mine]);
    expect((await records(other.token, { keywords: 'MTQ7000' })).data.list.map((r) => r.id)).toEqual([
      theirs,
    ]);
    expect((await records(dealer.token, { keywords: 'MTQ70002' })).data.total).toBe(0);
  });

  it('a scope seeing many objects (checked row by row) lists what a scope of few lists', async () => {
    for (const a of [dealer, customer, other]) {
      const scope = (await findUser(t.ctx.db, a.id))!.path;
      for (const keywords of [undefined, 'mtq7000', '前缀']) {
        const ids = async (many: boolean) =>
          (await listRecords(t.ctx.db, { scope, many, keywords, limit: 100, offset: 0 })).list.map(
            (r) => r.id,
          );
        const few = await ids(false);
        expect(await ids(true)).toEqual(few);
        if (a !== customer) expect(few.length).toBeGreaterThan(0);
      }
    }
  });

  it('pages follow one another newest first, without gaps or repeats', async () => {
    const size = PAGE_SIZES[0];
    const jwbType = await typeId('jwb');
    while ((await records(dealer.token)).data.total <= 2 * size)
      await addRecord(dealer.token, { ser_num: 'MT-JWB', equipment_type_id: jwbType, description: '翻页' });
    const all = (await records(dealer.token)).data.list.map((r) => r.id);
    expect(all).toEqual([...all].sort((a, b) => b - a));
    const paged: number[] = [];
    for (let page = 1; paged.length < all.length; page++) {
      const r = await records(dealer.token, { page, page_size: size });
      expect(r.data.list.length).toBeGreaterThan(0);
      paged.push(...r.data.list.map((x) => x.id));
    }
    expect(paged).toEqual(all);
  });

  it("a record added after a page was read moves the next pages at once, as a fresh list's", async () => {
    const size = PAGE_SIZES[0];
    const jwbType = await typeId('jwb');
    while ((await records(dealer.token)).data.total <= 2 * size)
      await addRecord(dealer.token, { ser_num: 'MT-JWB', equipment_type_id: jwbType, description: '翻页' });
    const page1 = (await records(dealer.token, { page: 1, page_size: size })).data.list.map((r) => r.id);
    expect(page1).toHaveLength(size);
    const added = await addRecord(dealer.token, {
      ser_num: 'MT-JWB',
      equipment_type_id: jwbType,
      description: '新增',
    });
    const page2 = (await records(dealer.token, { page: 2, page_size: size })).data.list.map((r) => r.id);
    // One record more above: page 1's last record is now page 2's first.
    expect(page2[0]).toBe(page1.at(-1));
    expect(page2).not.toContain(added);
  });
});

describe('ownership matrix: every id-taking call answers as missing for another dealer', () => {
  it('records, devices, parts, toilets and types of one dealer are not reachable by the other', async () => {
    const id = await addRecord(dealer.token, {
      ser_num: 'MT-JWB',
      equipment_type_id: await typeId('jwb'),
      description: '矩阵',
    });
    const otherRecord = await addRecord(other.token, {
      ser_num: 'MT-JWB-2',
      equipment_type_id: await typeId('jwb'),
      description: '别家',
    });
    const calls: [string, 'get' | 'post', Record<string, unknown>][] = [
      [MAINTENANCE_API.record, 'get', { id }],
      [MAINTENANCE_API.assignees, 'get', { id }],
      [MAINTENANCE_API.assign, 'post', { id, assignee_id: other.id }],
      [MAINTENANCE_API.complete, 'post', { id, remedy: 'x' }],
      [MAINTENANCE_API.accept, 'post', { id }],
      [MAINTENANCE_API.reject, 'post', { id, note: 'x' }],
      [MAINTENANCE_API.cancel, 'post', { id, note: 'x' }],
      [MAINTENANCE_API.prefill, 'get', { ser_num: 'MT-JWB' }],
      [MAINTENANCE_API.prefill, 'get', { part_id: part }],
      [MAINTENANCE_API.prefill, 'get', { toilet_id: toilet }],
      [MAINTENANCE_API.addRecord, 'post', { device_id: jwb.id, equipment_type_id: 1, description: 'x' }],
      [MAINTENANCE_API.addRecord, 'post', { part_id: part, equipment_type_id: 1, description: 'x' }],
      [MAINTENANCE_API.addRecord, 'post', { toilet_id: toilet, equipment_type_id: 1, description: 'x' }],
    ];
    for (const [url, method, args] of calls) {
      const r =
        method === 'get'
          ? await t.get(url, args, { token: other.token })
          : await t.post(url, args, { token: other.token });
      expect([url, r.code]).toEqual([url, CODE.notFound]);
    }
    // The dealer's own customer reaches them; nothing changed.
    expect((await detail(id, customer.token)).data.record.status).toBe(RECORD_STATUS.pending);
    // And the other way round.
    expect((await detail(otherRecord, dealer.token)).code).toBe(CODE.notFound);
    expect((await t.get(MAINTENANCE_API.prefill, { part_id: otherPart }, { token: dealer.token })).code).toBe(
      CODE.notFound,
    );
    expect((await detail(otherRecord, admin)).code).toBe(200);
  });
});

describe("扫码: a toilet's 评价 QR code names the toilet by its public id", () => {
  const publicIdOf = async (id: number, token: string) => {
    const r = await t.get<{ public_id: string }>(TOILET_API.get, { id }, { token });
    expect(r.code, r.message).toBe(200);
    return r.data.public_id;
  };
  const byCode = (publicId: string, token: string) =>
    t.get<Prefill>(MAINTENANCE_API.prefill, { toilet_public_id: publicId }, { token });

  it('selects the toilet for everyone who sees it, and answers as missing to anyone else', async () => {
    const publicId = await publicIdOf(toilet, dealer.token);
    for (const who of [dealer, customer]) {
      const p = await byCode(publicId, who.token);
      expect(p.code, p.message).toBe(200);
      expect(p.data).toMatchObject({
        toilet_id: toilet,
        toilet_name: '维修厕所',
        device_id: null,
        part_id: null,
      });
    }
    const peek = await byCode(publicId, other.token);
    expect([peek.code, peek.message]).toEqual([CODE.notFound, '厕所不存在']);
    // The other dealer's own code works for it, not for the dealer.
    const theirs = await publicIdOf(otherToilet, other.token);
    expect((await byCode(theirs, other.token)).data.toilet_id).toBe(otherToilet);
    expect((await byCode(theirs, dealer.token)).code).toBe(CODE.notFound);
  });

  it('a record opened from it is about the toilet', async () => {
    const p = await byCode(await publicIdOf(toilet, customer.token), customer.token);
    const id = await addRecord(customer.token, {
      toilet_id: p.data.toilet_id,
      equipment_type_id: await typeId('part6'),
      description: '扫评价码报修',
    });
    expect((await detail(id, dealer.token)).data.record).toMatchObject({
      toilet_id: toilet,
      device_id: null,
    });
  });

  it('an internal number, junk or an unknown public id is an unknown toilet, never a 500', async () => {
    for (const junk of [String(toilet), 'AAAAAAAAAAAAAAAAAAAAAA', "' OR 1=1 --", 'x'.repeat(200), '%00']) {
      const r = await byCode(junk, admin);
      expect([junk, r.code, r.message]).toEqual([junk, CODE.notFound, '厕所不存在']);
    }
    const long = await byCode('x'.repeat(201), admin);
    expect(long.code).toBe(CODE.badRequest);
  });
});

describe('photos', () => {
  let id: number;
  const upload = (body: Buffer, token: string, rid = id) =>
    t.app.inject({
      method: 'POST',
      url: `${MAINTENANCE_API.addPhoto}?id=${rid}`,
      headers: { 'content-type': 'application/octet-stream', 'x-token': token },
      payload: body,
    });
  const env = (res: { json: () => unknown }) =>
    res.json() as { code: number; message: string; data: { photo_count: number } };

  beforeAll(async () => {
    id = await addRecord(customer.token, {
      ser_num: 'MT-JWB',
      equipment_type_id: await typeId('jwb'),
      description: '拍照',
    });
  });

  it('stores a photo re-encoded, served inline as an image to those who see the record only', async () => {
    const r = env(await upload(await photoJpeg(640, 480), customer.token));
    expect(r.code, r.message).toBe(200);
    expect(r.data.photo_count).toBe(1);
    const got = await t.app.inject({
      method: 'GET',
      url: `${MAINTENANCE_API.photo}?id=${id}&n=0`,
      headers: { 'x-token': dealer.token },
    });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/webp');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
    const peek = await t.app.inject({
      method: 'GET',
      url: `${MAINTENANCE_API.photo}?id=${id}&n=0`,
      headers: { 'x-token': other.token },
    });
    expect(peek.json()).toMatchObject({ code: CODE.notFound });
    expect(env(await upload(await photoJpeg(), other.token)).code).toBe(CODE.notFound);
    expect((await detail(id, dealer.token)).data.record.photo_count).toBe(1);
  });

  it('refuses what is not a photo by its bytes, bombs and oversized files', async () => {
    for (const [body, words] of [
      [SVG_WITH_SCRIPT, 'SVG'],
      [HTML_AS_JPG, '不是有效的图片'],
      [await bombPng(), '尺寸过大'],
      [Buffer.alloc(6 * 1024 * 1024, 1), '不能超过'],
    ] as const) {
      const r = env(await upload(body, customer.token));
      expect(r.code).not.toBe(200);
      expect(r.message).toContain(words);
    }
    expect((await detail(id, dealer.token)).data.record.photo_count).toBe(1);
  });

  it('keeps at most 9 photos per record', async () => {
    const small = await photoJpeg();
    for (let i = 1; i < 9; i++) expect(env(await upload(small, customer.token)).code).toBe(200);
    const tenth = env(await upload(small, customer.token));
    expect([tenth.code, tenth.message]).toEqual([CODE.badRequest, '每条维修记录最多 9 张照片']);
    expect((await detail(id, dealer.token)).data.record.photo_count).toBe(9);
  });
});

describe('courier orders', () => {
  const order = (extra: Record<string, unknown> = {}) => ({
    company: 'sf',
    tracking_no: 'SF1234567890123',
    sender_name: '仓库',
    sender_phone: '13800000000',
    sender_address: '杭州市余杭区仓库',
    receiver_name: '张师傅',
    receiver_phone: '13900000000',
    receiver_address: '西湖公厕',
    items: JSON.stringify([
      { ser_num: 'MT-JWB', quantity: 1 },
      { name: '香薰液', quantity: 2 },
    ]),
    ...extra,
  });

  it('validates the tracking number per company and links a work order, which lists it', async () => {
    const bad = await t.post(EXPRESS_API.add, order({ tracking_no: '12345' }), { token: dealer.token });
    expect([bad.code, bad.message]).toEqual([CODE.badRequest, '顺丰单号格式不正确（例如 SF1234567890123）']);
    const ems = await t.post(EXPRESS_API.add, order({ company: 'ems', tracking_no: 'SF1234567890123' }), {
      token: dealer.token,
    });
    expect(ems.code).toBe(CODE.badRequest);
    const rid = await addRecord(dealer.token, {
      ser_num: 'MT-JWB',
      equipment_type_id: await typeId('jwb'),
      description: '寄件',
    });
    const ok = await t.post<ExpressRow>(
      EXPRESS_API.add,
      order({ tracking_no: 'sf1234567890123', record_id: rid }),
      { token: dealer.token },
    );
    expect(ok.code, ok.message).toBe(200);
    expect(ok.data).toMatchObject({
      tracking_no: 'SF1234567890123',
      record_no: `WX${String(rid).padStart(6, '0')}`,
      status: 0,
    });
    expect(ok.data.items).toEqual([
      { ser_num: 'MT-JWB', name: '', quantity: 1 },
      { ser_num: '', name: '香薰液', quantity: 2 },
    ]);
    const again = await t.post(EXPRESS_API.add, order(), { token: dealer.token });
    expect(again.code).toBe(CODE.conflict);
    expect((await detail(rid, customer.token)).data.shipments.map((x) => x.tracking_no)).toEqual([
      'SF1234567890123',
    ]);

    const moved = await t.post<ExpressRow>(
      EXPRESS_API.update,
      { id: ok.data.id, status: 2 },
      { token: dealer.token },
    );
    expect(moved.data.status).toBe(2);
    const list = await t.get<Page<ExpressRow>>(
      EXPRESS_API.list,
      { keywords: '香薰' },
      { token: dealer.token },
    );
    expect(list.data.list.map((x) => x.id)).toEqual([ok.data.id]);

    // Ownership: another dealer can neither see, change, link the record nor ship the device.
    expect((await t.get<Page<ExpressRow>>(EXPRESS_API.list, {}, { token: other.token })).data.total).toBe(0);
    // Another account's order answers exactly like a missing one (as devices, toilets and
    // records do), for an edit and a delete alike, and stays as it was.
    for (const [token, body] of [
      [other.token, { id: ok.data.id, status: 1 }],
      [other.token, { id: ok.data.id, is_delete: true }],
      [customer.token, { id: ok.data.id, status: 1 }],
      [other.token, { id: 99_999, status: 1 }],
    ] as const) {
      const r = await t.post(EXPRESS_API.update, body, { token });
      expect([r.code, r.message]).toEqual([CODE.notFound, '快递单不存在']);
    }
    expect(
      (await t.get<Page<ExpressRow>>(EXPRESS_API.list, {}, { token: dealer.token })).data.list[0]?.status,
    ).toBe(2);
    const link = await t.post(
      EXPRESS_API.add,
      order({ tracking_no: 'SF1234567890124', record_id: rid, items: JSON.stringify([{ name: 'x' }]) }),
      { token: other.token },
    );
    expect([link.code, link.message]).toEqual([CODE.notFound, '维修记录不存在']);
    const ship = await t.post(EXPRESS_API.add, order({ tracking_no: 'SF1234567890125' }), {
      token: other.token,
    });
    expect([ship.code, ship.message]).toEqual([CODE.notFound, '序列号 MT-JWB 的设备不存在']);
  });
});

describe('a device record finds its toilet as the device drawer does', () => {
  it('a gateway a toilet names as its own: the record carries that toilet and holds its 维修中 flag', async () => {
    const gw = await addDevice(t, 'gateway', 'MT-GW-TOILET', dealer.token);
    const served = await addToilet(t, dealer.token, { name: '网关厕所', gateway_id: gw.id });
    expect((await toiletOf(served)).toilet.status & TOILET_STATUS.repair).toBe(0);
    const id = await addRecord(dealer.token, {
      ser_num: 'MT-GW-TOILET',
      equipment_type_id: await typeId('gateway'),
      description: '网关离线',
    });
    const d = await detail(id, dealer.token);
    expect(d.data.record).toMatchObject({
      toilet_id: served,
      toilet_name: '网关厕所',
      device_kind: 'gateway',
    });
    expect((await toiletOf(served)).toilet.status & TOILET_STATUS.repair).toBe(TOILET_STATUS.repair);
    expect((await records(dealer.token, { toilet_id: served })).data.list.map((r) => r.id)).toEqual([id]);
    const c = await t.post(MAINTENANCE_API.cancel, { id, note: '误报' }, { token: dealer.token });
    expect(c.code, c.message).toBe(200);
    expect((await toiletOf(served)).toilet.status & TOILET_STATUS.repair).toBe(0);
  });
});
