import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  MAINTENANCE_API,
  MESSAGE_API,
  PLAN_API,
  TEAM_API,
  RECORD_STATUS,
  TOILET_API,
  type EquipmentTypeRow,
  type PlanRow,
  type RecordDetail,
  type RecordRow,
  type TeamRow,
} from '@se/core';
import {
  CUSTOMER_RIGHTS,
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
import { planSweep } from './plans.ts';

let t: TestApp;
let admin: string;
let dealer: Account;
let other: Account;
let customer: Account;
let jwb: TestDevice;
let usageJwb: TestDevice;
let gateway: TestDevice;
let toilet: number;
let types: EquipmentTypeRow[];

type Page<T> = { list: T[]; total: number };

const typeId = (code: string) => types.find((e) => e.code === code)!.id;
const plans = (token: string, q: Record<string, unknown> = {}) =>
  t.get<Page<PlanRow>>(PLAN_API.list, { page_size: 100, ...q }, { token });
const planOf = async (id: number, token = dealer.token) =>
  (await plans(token)).data.list.find((p) => p.id === id);
const detail = (id: number, token: string) => t.get<RecordDetail>(MAINTENANCE_API.record, { id }, { token });

async function addPlan(token: string, body: Record<string, unknown>) {
  const r = await t.post<{ id: number }>(PLAN_API.add, body, { token });
  expect(r.code, r.message).toBe(200);
  return r.data.id;
}

/** The orders a plan opened, oldest first. */
const ordersOf = async (planId: number) =>
  (
    await t.ctx.db.query<{ id: number; status: number; kind: string; assignee_id: number | null }>(
      'SELECT id, status, kind, assignee_id FROM maintenance_records WHERE plan_id = $1 ORDER BY id',
      [planId],
    )
  ).map((r) => ({ ...r }));

/** Moves a plan's period back, as if `days` had passed since its last order. */
const age = (planId: number, days: number) =>
  t.ctx.db.query(
    `UPDATE maintenance_plan_targets SET last_at = last_at - make_interval(days => $2) WHERE plan_id = $1`,
    [planId, days],
  );

/** Two server copies sweeping at once: the orders they opened together. */
const sweepTwice = async () => (await Promise.all([planSweep(t.ctx), planSweep(t.ctx)])).flat();

/** A local (UTC+8) time string `ms` from now. */
const local = (ms: number) =>
  new Date(Date.now() + ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
const HOUR = 3_600_000;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  ({ dealer, other, customer } = await dealers(t, 'pl'));
  jwb = await addDevice(t, 'jwb', 'PL-JWB', dealer.token);
  usageJwb = await addDevice(t, 'jwb', 'PL-JWB-2', dealer.token);
  gateway = await addDevice(t, 'gateway', 'PL-GW', dealer.token);
  await addDevice(t, 'jwb', 'PL-OTHER', other.token);
  toilet = await addToilet(t, dealer.token, { name: '保养厕所', gateway_id: gateway.id });
  for (const [url, id] of [
    [kindUrl('jwb', 'bind'), jwb.id],
    [TOILET_API.bind, toilet],
  ] as const) {
    const b = await t.post(url, { user_id: customer.id, add_ids: String(id) }, { token: dealer.token });
    expect(b.code, b.message).toBe(200);
  }
  types = (
    await t.get<Page<EquipmentTypeRow>>(
      MAINTENANCE_API.equipmentTypes,
      { page_size: 100 },
      { token: dealer.token },
    )
  ).data.list;
});
afterAll(() => t.close());

describe('a plan every N days', () => {
  it('opens exactly one 保养 order when due, assigned, with its checklist, and the next one a period later', async () => {
    const id = await addPlan(dealer.token, {
      name: '除臭机月度保养',
      equipment_type_id: typeId('jwb'),
      device_id: jwb.id,
      trigger: 'days',
      every: 30,
      starts_at: local(-HOUR),
      assignee_id: customer.id,
      checklist: '补充香薰液\n清洗雾化片\n\n检查风扇',
    });
    expect(await planOf(id)).toMatchObject({ due_soon: true, overdue: false, open_orders: 0, targets: 1 });

    await sweepTwice();
    const [order, ...more] = await ordersOf(id);
    expect(more).toEqual([]);
    expect(order).toMatchObject({ kind: 'upkeep', status: RECORD_STATUS.working, assignee_id: customer.id });
    expect(await planSweep(t.ctx)).toEqual([]);
    const row = (await planOf(id))!;
    expect(row).toMatchObject({ open_orders: 1, due_soon: false, overdue: false });
    expect(row.last_opened_at).not.toBeNull();

    // The assignee sees it with the plan's checklist, and is told.
    const d = (await detail(order!.id, customer.token)).data;
    expect(d.record.kind).toBe('upkeep');
    expect(d.record.description).toContain('除臭机月度保养');
    expect(d.checklist.map((s) => [s.step, s.done])).toEqual([
      ['补充香薰液', false],
      ['清洗雾化片', false],
      ['检查风扇', false],
    ]);
    expect(d.can.check).toBe(true);

    // A period later with the order still open, no second order: the plan shows overdue.
    await age(id, 40);
    expect(await planSweep(t.ctx)).toEqual([]);
    expect((await planOf(id))!.overdue).toBe(true);
    expect((await plans(dealer.token, { due: 'overdue' })).data.list.map((p) => p.id)).toContain(id);

    // Checklist: completion waits for every step; ticks name who ticked.
    const complete = () =>
      t.post<RecordDetail>(
        MAINTENANCE_API.complete,
        { id: order!.id, remedy: '按清单保养' },
        { token: customer.token },
      );
    expect([(await complete()).code, (await complete()).message]).toEqual([
      CODE.badRequest,
      '保养检查项还有 3 项未完成',
    ]);
    const tick = (n: number, done: boolean, token = customer.token) =>
      t.post<RecordDetail>(PLAN_API.checkStep, { id: order!.id, n, done }, { token });
    expect((await tick(0, true, other.token)).code).toBe(CODE.notFound);
    expect((await tick(3, true)).code).toBe(CODE.notFound);
    for (const n of [0, 1, 2]) expect((await tick(n, true)).code).toBe(200);
    const undone = await tick(1, false);
    expect(undone.data.checklist.map((s) => [s.done, s.by])).toEqual([
      [true, 'pl_customer'],
      [false, ''],
      [true, 'pl_customer'],
    ]);
    expect((await complete()).message).toBe('保养检查项还有 1 项未完成');
    await tick(1, true);
    const done = await complete();
    expect(done.code, done.message).toBe(200);
    expect(done.data.record.status).toBe(RECORD_STATUS.checking);
    expect((await tick(0, false)).code).toBe(CODE.conflict);
    expect((await t.post(MAINTENANCE_API.accept, { id: order!.id }, { token: dealer.token })).code).toBe(200);

    // Closed and past its period: the next order, once.
    await sweepTwice();
    expect((await ordersOf(id)).map((o) => o.status)).toEqual([RECORD_STATUS.done, RECORD_STATUS.working]);
    expect((await planOf(id))!.overdue).toBe(false);
  });

  it('pauses: a disabled plan opens nothing', async () => {
    const id = await addPlan(dealer.token, {
      name: '停用的计划',
      equipment_type_id: typeId('jwb'),
      device_id: usageJwb.id,
      every: 7,
      starts_at: local(-HOUR),
      enabled: false,
    });
    await planSweep(t.ctx);
    expect(await ordersOf(id)).toEqual([]);
    expect((await t.post(PLAN_API.update, { id, is_delete: true }, { token: dealer.token })).code).toBe(200);
  });
});

describe('a plan by use', () => {
  it("opens one order when the toilet's gateway has counted N uses since the last one", async () => {
    const h0 = Math.floor(Date.now() / HOUR) * HOUR;
    const id = await addPlan(dealer.token, {
      name: '每 100 人次保养',
      equipment_type_id: typeId('part0'),
      toilet_id: toilet,
      trigger: 'uses',
      every: 100,
      starts_at: local(h0 - 2 * HOUR - Date.now()),
      checklist: ['疏通', '消毒'],
    });
    await sendReport(t, gateway, { male_times: 40 }, h0 - HOUR + 1000);
    expect(await planSweep(t.ctx)).toEqual([]);
    expect((await planOf(id))!.progress).toBe(0.4);
    await sendReport(t, gateway, { female_times: 50, others_times: 20 }, h0);
    expect((await planOf(id))!.progress).toBe(1.1);
    await sweepTwice();
    const orders = await ordersOf(id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ kind: 'upkeep', status: RECORD_STATUS.pending, assignee_id: null });
    // Counting restarts after the order: the same hour's uses do not count again.
    expect((await planOf(id))!.progress).toBe(0);
    const d = (await detail(orders[0]!.id, customer.token)).data;
    expect(d.record.toilet_id).toBe(toilet);
    expect(d.record.description).toContain('使用人次已达 110 人次');
    expect(d.can.check).toBe(false); // 待派单: nobody ticks yet
  });

  it('opens one order when a dispenser has used N ml of liquid', async () => {
    const h0 = Math.floor(Date.now() / HOUR) * HOUR;
    const id = await addPlan(dealer.token, {
      name: '每 150 ml 保养',
      equipment_type_id: typeId('jwb'),
      device_id: usageJwb.id,
      trigger: 'liquid',
      every: 150,
      starts_at: local(h0 - 3 * HOUR - Date.now()),
    });
    await sendReport(t, usageJwb, { liquid: 500 }, h0 - 2 * HOUR + 1000);
    await sendReport(t, usageJwb, { liquid: 420 }, h0 - HOUR + 1000);
    expect(await planSweep(t.ctx)).toEqual([]);
    await sendReport(t, usageJwb, { liquid: 330 }, h0);
    await sweepTwice();
    expect(await ordersOf(id)).toHaveLength(1);
  });

  it('refuses a trigger the device does not report and a whole-type plan of a toilet part', async () => {
    const uses = await t.post(
      PLAN_API.add,
      { name: 'x', equipment_type_id: typeId('jwb'), device_id: jwb.id, trigger: 'uses', every: 10 },
      { token: dealer.token },
    );
    expect([uses.code, uses.message]).toEqual([CODE.badRequest, '该设备不上报人次数据，不能按使用人次保养']);
    const part = await t.post(
      PLAN_API.add,
      { name: 'x', equipment_type_id: typeId('part5'), every: 10 },
      { token: dealer.token },
    );
    expect([part.code, part.message]).toEqual([
      CODE.badRequest,
      '按设备类型制定的计划只适用于设备类的类型，厕所部件请按厕所制定',
    ]);
  });
});

describe('who sees and changes a plan', () => {
  it('follows the device or toilet; only the creator and those above change it; strangers get 404', async () => {
    const id = await addPlan(dealer.token, {
      name: '厕所季度保养',
      equipment_type_id: typeId('part4'),
      toilet_id: toilet,
      every: 90,
    });
    const seen = async (token: string) => (await plans(token)).data.list.some((p) => p.id === id);
    expect([
      await seen(dealer.token),
      await seen(customer.token),
      await seen(other.token),
      await seen(admin),
    ]).toEqual([true, true, false, true]);
    const customerRow = (await planOf(id, customer.token))!;
    expect([customerRow.editable, (await planOf(id))!.editable]).toEqual([false, true]);

    const edit = (token: string, body: Record<string, unknown>) =>
      t.post(PLAN_API.update, { id, ...body }, { token });
    const refused = await edit(other.token, { name: '偷改' });
    expect([refused.code, refused.message]).toEqual([CODE.notFound, '保养计划不存在']);
    expect((await edit(other.token, { is_delete: true })).code).toBe(CODE.notFound);
    const missing = await t.post(PLAN_API.update, { id: 99_999, name: 'x' }, { token: other.token });
    expect([missing.code, missing.message]).toEqual([CODE.notFound, '保养计划不存在']);
    expect((await edit(customer.token, { name: '客户改' })).code).toBe(CODE.forbidden);
    expect((await edit(customer.token, { is_delete: true })).code).toBe(CODE.forbidden);
    expect((await edit(dealer.token, { every: 60, checklist: ['检查门板'] })).code).toBe(200);
    expect((await edit(admin, { name: '厕所双月保养' })).code).toBe(200);
    expect(await planOf(id)).toMatchObject({ name: '厕所双月保养', every: 60, checklist: ['检查门板'] });
    expect((await edit(dealer.token, { assignee_id: other.id })).message).toBe(
      '指派的人员不存在或看不到该设备/厕所',
    );
    expect((await edit(dealer.token, { is_delete: true })).code).toBe(200);
    expect((await edit(dealer.token, { name: 'again' })).code).toBe(CODE.notFound);
    expect(await seen(dealer.token)).toBe(false);
  });

  it("refuses another tenant's device, toilet and equipment type as missing", async () => {
    const own = await t.post<{ id: number }>(
      MAINTENANCE_API.addEquipmentType,
      { name: '自定义泵', code: 'pump', category: 'device' },
      { token: other.token },
    );
    const add = (token: string, body: Record<string, unknown>) =>
      t.post(PLAN_API.add, { name: 'x', every: 7, ...body }, { token });
    const cases: [string, Record<string, unknown>, string][] = [
      [other.token, { equipment_type_id: typeId('jwb'), device_id: jwb.id }, '设备不存在'],
      [other.token, { equipment_type_id: typeId('jwb'), ser_num: 'PL-JWB' }, '序列号 PL-JWB 的设备不存在'],
      [other.token, { equipment_type_id: typeId('part0'), toilet_id: toilet }, '厕所不存在'],
      [dealer.token, { equipment_type_id: own.data.id, device_id: jwb.id }, '设备类型不存在'],
    ];
    for (const [token, body, message] of cases) {
      const r = await add(token, body);
      expect([r.code, r.message], JSON.stringify(body)).toEqual([CODE.notFound, message]);
    }
  });

  it('offers as assignees those who see the device or toilet (whole type: the caller and below)', async () => {
    const names = async (q: Record<string, unknown>, token = dealer.token) => {
      const r = await t.get<{ user_name: string }[]>(PLAN_API.assignees, q, { token });
      expect(r.code, r.message).toBe(200);
      return r.data.map((u) => u.user_name);
    };
    expect(await names({ toilet_id: toilet })).toEqual(expect.arrayContaining(['pl_dealer', 'pl_customer']));
    expect(await names({ device_id: gateway.id })).not.toContain('pl_customer');
    expect(await names({})).toEqual(['pl_dealer', 'pl_customer']);
    for (const q of [{ device_id: jwb.id }, { toilet_id: toilet }, { ser_num: 'PL-JWB' }]) {
      const r = await t.get(PLAN_API.assignees, q, { token: other.token });
      expect(r.code, JSON.stringify(q)).toBe(CODE.notFound);
    }
  });

  it("a customer's own plan is changed by its dealer; a whole-type plan is seen by its creator and those above", async () => {
    const mine = await addPlan(customer.token, {
      name: '客户的计划',
      equipment_type_id: typeId('jwb'),
      device_id: jwb.id,
      every: 14,
    });
    expect(
      (await t.post(PLAN_API.update, { id: mine, note: '经销商补充' }, { token: dealer.token })).code,
    ).toBe(200);
    expect((await t.post(PLAN_API.update, { id: mine, note: 'x' }, { token: other.token })).code).toBe(
      CODE.notFound,
    );

    const whole = await addPlan(dealer.token, {
      name: '全部除臭机半年保养',
      equipment_type_id: typeId('jwb'),
      every: 180,
    });
    const row = (await planOf(whole))!;
    expect(row.targets).toBe(2); // the dealer's two dispensers, not the other dealer's
    const seen = async (token: string) => (await plans(token)).data.list.some((p) => p.id === whole);
    expect([await seen(customer.token), await seen(other.token), await seen(admin)]).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('keeps an equipment type a plan uses', async () => {
    const pump = await t.post<{ id: number }>(
      MAINTENANCE_API.addEquipmentType,
      { name: '水泵', code: 'jwb', category: 'device' },
      { token: dealer.token },
    );
    await addPlan(dealer.token, { name: '水泵保养', equipment_type_id: pump.data.id, every: 30 });
    const del = await t.post(
      MAINTENANCE_API.updateEquipmentType,
      { id: pump.data.id, is_delete: true },
      { token: dealer.token },
    );
    expect([del.code, del.message]).toEqual([CODE.conflict, '该设备类型被 1 个保养计划使用，不能删除']);
  });
});

describe('maintenance teams (维修班组)', () => {
  let tech: Account;
  let teamJwb: TestDevice;
  const teams = async (token: string) =>
    (await t.get<Page<TeamRow>>(TEAM_API.list, { page_size: 100 }, { token })).data.list;
  const inbox = async (token: string) =>
    (await t.get<Page<{ title: string }>>(MESSAGE_API.list, { page_size: 100 }, { token })).data.list.map(
      (m) => m.title,
    );

  beforeAll(async () => {
    tech = await t.account('pl_tech', CUSTOMER_RIGHTS, dealer.id);
    teamJwb = await addDevice(t, 'jwb', 'PL-TEAM', dealer.token);
    const b = await t.post(
      kindUrl('jwb', 'bind'),
      { user_id: customer.id, add_ids: String(teamJwb.id) },
      { token: dealer.token },
    );
    expect(b.code, b.message).toBe(200);
  });

  it("opens a team plan's order for the lead, tells every member, and the records list filters by team", async () => {
    const outsider = await t.post(
      TEAM_API.add,
      { name: '外人班组', lead_id: customer.id, member_ids: [other.id] },
      { token: dealer.token },
    );
    expect([outsider.code, outsider.message]).toEqual([
      CODE.badRequest,
      '班组成员只能是创建班组的账号或其下级账号',
    ]);
    const add = await t.post<{ id: number }>(
      TEAM_API.add,
      { name: '一班', lead_id: customer.id, member_ids: `${tech.id},${customer.id}` },
      { token: dealer.token },
    );
    expect(add.code, add.message).toBe(200);
    const team = add.data.id;
    const row = (await teams(dealer.token)).find((x) => x.id === team)!;
    expect(row).toMatchObject({ lead_name: 'pl_customer', plan_count: 0, open_orders: 0 });
    expect(row.members.map((m) => m.user_name)).toEqual(['pl_customer', 'pl_tech']);

    const both = await t.post(
      PLAN_API.add,
      {
        name: 'x',
        equipment_type_id: typeId('jwb'),
        device_id: teamJwb.id,
        every: 7,
        team_id: team,
        assignee_id: customer.id,
      },
      { token: dealer.token },
    );
    expect([both.code, both.message]).toEqual([CODE.badRequest, '指派人员和维修班组只能选一个']);
    const plan = await addPlan(dealer.token, {
      name: '班组周保养',
      equipment_type_id: typeId('jwb'),
      device_id: teamJwb.id,
      every: 7,
      starts_at: local(-HOUR),
      team_id: team,
      checklist: ['补液'],
    });
    expect(await planOf(plan)).toMatchObject({ team_id: team, team_name: '一班', assignee_id: null });

    await sweepTwice();
    const [order, ...more] = await ordersOf(plan);
    expect(more).toEqual([]);
    expect(order).toMatchObject({ status: RECORD_STATUS.working, assignee_id: customer.id });
    const no = `WX${String(order!.id).padStart(6, '0')}`;
    expect(await inbox(customer.token)).toContain(`保养单 ${no} 已派给你`);
    expect(await inbox(tech.token)).toContain(`班组「一班」有新的保养单 ${no}`);

    const byTeam = await t.get<Page<RecordRow>>(
      MAINTENANCE_API.records,
      { team_id: team },
      { token: dealer.token },
    );
    expect(byTeam.data.list.map((r) => r.id)).toEqual([order!.id]);
    // The list and the order's drawer name the team, the lead's too (who cannot open the team).
    expect(byTeam.data.list[0]).toMatchObject({ team_id: team, team_name: '一班' });
    const drawer = await t.get<RecordDetail>(
      MAINTENANCE_API.record,
      { id: order!.id },
      { token: customer.token },
    );
    expect(drawer.data.record).toMatchObject({ team_id: team, team_name: '一班' });
    const hidden = await t.get(MAINTENANCE_API.records, { team_id: team }, { token: other.token });
    expect([hidden.code, hidden.message]).toEqual([CODE.notFound, '维修班组不存在']);
    expect((await teams(dealer.token)).find((x) => x.id === team)).toMatchObject({
      plan_count: 1,
      open_orders: 1,
    });

    // A team in use stays; the plan moves to a person and the team can go.
    const del = await t.post(TEAM_API.update, { id: team, is_delete: true }, { token: dealer.token });
    expect([del.code, del.message]).toEqual([CODE.conflict, '该班组被 1 个保养计划使用，不能删除']);
    expect(
      (await t.post(PLAN_API.update, { id: plan, assignee_id: customer.id }, { token: dealer.token })).code,
    ).toBe(200);
    expect(await planOf(plan)).toMatchObject({ team_id: null, assignee_id: customer.id });
    expect((await t.post(TEAM_API.update, { id: team, is_delete: true }, { token: dealer.token })).code).toBe(
      200,
    );
    expect((await teams(dealer.token)).some((x) => x.id === team)).toBe(false);
  });

  it('is seen and changed by its creator and those above; strangers and members get 404', async () => {
    const add = await t.post<{ id: number }>(
      TEAM_API.add,
      { name: '二班', lead_id: tech.id },
      { token: dealer.token },
    );
    const team = add.data.id;
    const seen = async (token: string) => (await teams(token)).some((x) => x.id === team);
    expect([
      await seen(dealer.token),
      await seen(admin),
      await seen(customer.token),
      await seen(other.token),
    ]).toEqual([true, true, false, false]);
    const edit = (token: string, body: Record<string, unknown>) =>
      t.post(TEAM_API.update, { id: team, ...body }, { token });
    for (const token of [other.token, customer.token, tech.token]) {
      const r = await edit(token, { name: '偷改' });
      expect([r.code, r.message]).toEqual([CODE.notFound, '维修班组不存在']);
    }
    const missing = await t.post(TEAM_API.update, { id: 99_999, name: 'x' }, { token: dealer.token });
    expect(missing.code).toBe(CODE.notFound);
    expect((await edit(admin, { name: '二班（改）', member_ids: [customer.id] })).code).toBe(200);
    expect((await edit(dealer.token, { lead_id: other.id })).message).toBe(
      '班组成员只能是创建班组的账号或其下级账号',
    );
    const row = (await teams(dealer.token)).find((x) => x.id === team)!;
    expect([row.name, row.members.map((m) => m.id)]).toEqual(['二班（改）', [tech.id, customer.id]]);

    // A plan may take only a team the caller sees, whose lead sees what the plan covers.
    const plan = (token: string, body: Record<string, unknown>) =>
      t.post(
        PLAN_API.add,
        { name: 'x', equipment_type_id: typeId('jwb'), every: 7, team_id: team, ...body },
        { token },
      );
    const stranger = await plan(other.token, {});
    expect([stranger.code, stranger.message]).toEqual([CODE.notFound, '维修班组不存在']);
    const blind = await plan(dealer.token, { device_id: teamJwb.id }); // the lead (tech) does not see it
    expect([blind.code, blind.message]).toEqual([CODE.badRequest, '班组负责人看不到该设备/厕所']);
    expect((await plan(dealer.token, {})).code).toBe(200); // whole type: the lead is below the dealer
  });
});
