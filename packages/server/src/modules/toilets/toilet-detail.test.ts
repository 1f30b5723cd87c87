import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE,
  PERMISSION,
  SENSOR_API,
  TOILET_API,
  TOILET_DETAIL_API,
  TOILET_STATUS,
  type PlaceableRow,
  type StatusLogRow,
  type ToiletDetail,
  type ToiletDocument,
  type ToiletPart,
} from '@se/core';
import {
  addDevice,
  addToilet,
  adminApp,
  sendReport,
  type Account,
  type TestApp,
} from '../../test/harness.ts';

type Device = { id: number; ser_num: string; token: string };

let t: TestApp;
let admin: string;
let dealer: Account;
let other: Account;
/** Visitor-only account below the dealer, bound to the dealer's toilet: a cleaner. */
let cleaner: Account;
let gw: Device;
let sensor: Device;
let terminal: Device;
let jwb: Device;
let otherJwb: Device;
let toilet: number;
let otherToilet: number;

const add = (kind: 'gateway' | 'jwb' | 'evaluate', token: string, ser: string) =>
  addDevice(t, kind, ser, token);

const detailOf = async (id: number, token: string) =>
  t.get<ToiletDetail>(TOILET_DETAIL_API.detail, { id }, { token });

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  const mgr = PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor;
  dealer = await t.account('td_dealer', mgr, 1);
  other = await t.account('td_other', mgr, 1);
  cleaner = await t.account('td_cleaner', PERMISSION.visitor, dealer.id);
  gw = await add('gateway', dealer.token, 'TD-GW');
  terminal = await add('evaluate', dealer.token, 'TD-EVL');
  jwb = await add('jwb', dealer.token, 'TD-JWB');
  otherJwb = await add('jwb', other.token, 'TD-JWB-2');
  sensor = (
    await t.post<Device>(SENSOR_API.add, { gateway_id: gw.id, ser_num: 'TD-SNS' }, { token: dealer.token })
  ).data;
  toilet = await addToilet(t, dealer.token, { name: '详情厕所', gateway_id: gw.id });
  otherToilet = (await t.post<{ id: number }>(TOILET_API.add, { name: '别家厕所' }, { token: other.token }))
    .data.id;
  const bound = await t.post(
    TOILET_API.bind,
    { user_id: cleaner.id, add_ids: String(toilet) },
    { token: dealer.token },
  );
  expect(bound.code, bound.message).toBe(200);
});
afterAll(() => t.close());

describe('get-toilet-detail', () => {
  it('answers the SPEC document defaults before anything is saved', async () => {
    const r = await detailOf(toilet, dealer.token);
    expect(r.code, r.message).toBe(200);
    expect(r.data.document).toMatchObject({
      id: null,
      male_count: 0,
      female_count: 0,
      others_count: 0,
      open_time: '00:00',
      close_time: '23:59',
      content: '',
    });
    expect(r.data.gateway?.ser_num).toBe('TD-GW');
    expect(r.data.sensors.map((s) => s.ser_num)).toEqual(['TD-SNS']);
    expect(r.data.devices).toEqual([]);
    expect(r.data.star_average).toBeNull();
    expect(r.data.can_manage).toBe(true);
  });

  it('shows the gateway latest occupancy and the sensors gases as they report', async () => {
    await sendReport(t, gw, { male_count: 6, male_occupy: 2, female_count: 8, female_occupy: 8, nh3: 0.05 });
    await sendReport(t, sensor, { nh3: 0.8, h2s: 0.01 });
    const r = await detailOf(toilet, cleaner.token);
    expect(r.code, r.message).toBe(200);
    expect(r.data.gateway).toMatchObject({ online: true, latest: { male_occupy: 2, female_occupy: 8 } });
    expect(r.data.sensors[0]!.latest).toMatchObject({ nh3: 0.8 });
    expect(r.data.can_manage).toBe(false);
  });

  it('hides toilets of other users (404) and lets develop see every toilet', async () => {
    expect((await detailOf(otherToilet, dealer.token)).code).toBe(CODE.notFound);
    expect((await detailOf(toilet, other.token)).code).toBe(CODE.notFound);
    expect((await detailOf(toilet, admin)).code).toBe(200);
    expect((await detailOf(999_999, admin)).code).toBe(CODE.notFound);
  });
});

describe('update-document', () => {
  it('saves counts, opening hours and content, and keeps unsent fields', async () => {
    const r = await t.post<ToiletDocument>(
      TOILET_DETAIL_API.updateDocument,
      {
        toilet_id: toilet,
        male_count: 6,
        female_count: 8,
        open_time: '06:00',
        close_time: '22:30',
        content: '地下一层',
      },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    expect(r.data).toMatchObject({ male_count: 6, female_count: 8, others_count: 0, open_time: '06:00' });
    const again = await t.post<ToiletDocument>(
      TOILET_DETAIL_API.updateDocument,
      { toilet_id: toilet, others_count: 1 },
      { token: dealer.token },
    );
    expect(again.data).toMatchObject({
      male_count: 6,
      others_count: 1,
      close_time: '22:30',
      content: '地下一层',
    });
  });

  it('refuses bad times and counts with Chinese messages', async () => {
    const bad = await t.post(
      TOILET_DETAIL_API.updateDocument,
      { toilet_id: toilet, open_time: '24:00' },
      { token: dealer.token },
    );
    expect(bad.code).toBe(CODE.badRequest);
    expect(bad.message).toContain('开放时间');
    const neg = await t.post(
      TOILET_DETAIL_API.updateDocument,
      { toilet_id: toilet, male_count: -1 },
      { token: dealer.token },
    );
    expect(neg.code).toBe(CODE.badRequest);
    expect(neg.message).toContain('男厕位数');
  });

  it('is refused to a visitor-only account and for toilets the caller cannot see', async () => {
    const r = await t.post(
      TOILET_DETAIL_API.updateDocument,
      { toilet_id: toilet, male_count: 1 },
      { token: cleaner.token },
    );
    expect(r.code).toBe(CODE.forbidden);
    const hidden = await t.post(
      TOILET_DETAIL_API.updateDocument,
      { toilet_id: otherToilet, male_count: 1 },
      { token: dealer.token },
    );
    expect(hidden.code).toBe(CODE.notFound);
  });
});

describe('parts', () => {
  let part: ToiletPart;
  it('adds parts of the SPEC types and refuses unknown types', async () => {
    const r = await t.post<ToiletPart>(
      TOILET_DETAIL_API.addPart,
      { toilet_id: toilet, type: 0, name: '男厕 1 号蹲位' },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    part = r.data;
    expect(part).toMatchObject({ type: 0, state: 0, note: '' });
    expect(
      (await t.post(TOILET_DETAIL_API.addPart, { toilet_id: toilet, type: 7 }, { token: dealer.token })).code,
    ).toBe(CODE.badRequest);
    expect(
      (await t.post(TOILET_DETAIL_API.addPart, { toilet_id: otherToilet, type: 1 }, { token: dealer.token }))
        .code,
    ).toBe(CODE.notFound);
  });

  it('lets a cleaner report a fault with a note, but not rename or delete the part', async () => {
    const fault = await t.post<ToiletPart>(
      TOILET_DETAIL_API.updatePart,
      { id: part.id, state: 1, note: '冲水阀漏水' },
      { token: cleaner.token },
    );
    expect(fault.code, fault.message).toBe(200);
    expect(fault.data).toMatchObject({ state: 1, note: '冲水阀漏水' });
    expect(
      (await t.post(TOILET_DETAIL_API.updatePart, { id: part.id, name: 'x' }, { token: cleaner.token })).code,
    ).toBe(CODE.forbidden);
    expect(
      (await t.post(TOILET_DETAIL_API.updatePart, { id: part.id, is_delete: true }, { token: cleaner.token }))
        .code,
    ).toBe(CODE.forbidden);
    const d = await detailOf(toilet, dealer.token);
    expect(d.data.parts.map((p) => [p.name, p.state])).toEqual([['男厕 1 号蹲位', 1]]);
  });

  it('answers 404 for a part of a toilet the caller cannot see', async () => {
    expect(
      (await t.post(TOILET_DETAIL_API.updatePart, { id: part.id, state: 0 }, { token: other.token })).code,
    ).toBe(CODE.notFound);
  });

  it('deletes softly: the part leaves the detail', async () => {
    const r = await t.post(
      TOILET_DETAIL_API.updatePart,
      { id: part.id, is_delete: true },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    expect((await detailOf(toilet, dealer.token)).data.parts).toEqual([]);
    expect(
      (await t.post(TOILET_DETAIL_API.updatePart, { id: part.id, state: 0 }, { token: dealer.token })).code,
    ).toBe(CODE.notFound);
  });
});

describe('set-status', () => {
  it('sets cleaning with a note, keeps the history, and the list filter sees it', async () => {
    const r = await t.post<{ status: number }>(
      TOILET_DETAIL_API.setStatus,
      { id: toilet, flag: TOILET_STATUS.cleaning, on: true, note: '早班保洁' },
      { token: cleaner.token },
    );
    expect(r.code, r.message).toBe(200);
    expect(r.data.status & TOILET_STATUS.cleaning).toBe(TOILET_STATUS.cleaning);
    const cleaning = await t.get<{ list: { id: number }[] }>(
      TOILET_API.list,
      { status: TOILET_STATUS.cleaning },
      { token: dealer.token },
    );
    expect(cleaning.data.list.map((x) => x.id)).toContain(toilet);
    const again = await t.post(
      TOILET_DETAIL_API.setStatus,
      { id: toilet, flag: TOILET_STATUS.cleaning, on: true },
      { token: cleaner.token },
    );
    expect(again).toMatchObject({ code: CODE.badRequest, message: '已经是清洁中' });
    await t.post(
      TOILET_DETAIL_API.setStatus,
      { id: toilet, flag: TOILET_STATUS.cleaning, on: false, note: '保洁完成' },
      { token: dealer.token },
    );
    const log = await t.get<{ list: StatusLogRow[]; total: number }>(
      TOILET_DETAIL_API.statusLog,
      { toilet_id: toilet },
      { token: dealer.token },
    );
    expect(log.data.list.map((l) => [l.flag, l.on, l.note, l.user_name])).toEqual([
      [1, false, '保洁完成', 'td_dealer'],
      [1, true, '早班保洁', 'td_cleaner'],
    ]);
  });

  it('records the list switches (update-toilet status) in the same history', async () => {
    await t.post(TOILET_API.update, { id: toilet, status: TOILET_STATUS.repair }, { token: dealer.token });
    const log = await t.get<{ list: StatusLogRow[] }>(
      TOILET_DETAIL_API.statusLog,
      { toilet_id: toilet },
      { token: dealer.token },
    );
    expect(log.data.list[0]).toMatchObject({ flag: TOILET_STATUS.repair, on: true, note: '' });
    await t.post(TOILET_API.update, { id: toilet, status: 0 }, { token: dealer.token });
  });

  it('refuses the alarm flag: it follows the alarms', async () => {
    const r = await t.post(
      TOILET_DETAIL_API.setStatus,
      { id: toilet, flag: TOILET_STATUS.alarm, on: false },
      { token: dealer.token },
    );
    expect(r.code).toBe(CODE.badRequest);
    expect(r.message).toContain('报警由设备告警决定');
  });

  it('keeps an alarm raised by the gateway while an operator sets repair', async () => {
    await sendReport(t, gw, { smk_alarm: 1 });
    const before = await t.get<{ status: number }>(TOILET_API.get, { id: toilet }, { token: dealer.token });
    expect(before.data.status & TOILET_STATUS.alarm).toBe(TOILET_STATUS.alarm);
    const r = await t.post<{ status: number }>(
      TOILET_DETAIL_API.setStatus,
      { id: toilet, flag: TOILET_STATUS.repair, on: true, note: '烟感误报检修' },
      { token: dealer.token },
    );
    expect(r.data.status).toBe(TOILET_STATUS.alarm | TOILET_STATUS.repair);
    await sendReport(t, gw, { smk_alarm: 0 });
    const after = await t.get<{ status: number }>(TOILET_API.get, { id: toilet }, { token: dealer.token });
    expect(after.data.status).toBe(TOILET_STATUS.repair);
  });

  it('answers 404 for toilets the caller cannot see, for status and history', async () => {
    expect(
      (
        await t.post(
          TOILET_DETAIL_API.setStatus,
          { id: otherToilet, flag: 1, on: true },
          { token: dealer.token },
        )
      ).code,
    ).toBe(CODE.notFound);
    expect(
      (await t.get(TOILET_DETAIL_API.statusLog, { toilet_id: otherToilet }, { token: dealer.token })).code,
    ).toBe(CODE.notFound);
  });
});

describe('device placement', () => {
  it('lists the caller devices of a kind, saying which are placed here', async () => {
    const r = await t.get<{ list: PlaceableRow[] }>(
      TOILET_DETAIL_API.placeable,
      { toilet_id: toilet, kind: 'jwb' },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    expect(r.data.list.map((x) => [x.ser_num, x.placed])).toEqual([['TD-JWB', false]]);
  });

  it('places a dispenser and a terminal; the detail shows them', async () => {
    const r = await t.post(
      TOILET_DETAIL_API.place,
      { toilet_id: toilet, add_ids: `${jwb.id},${terminal.id}` },
      { token: dealer.token },
    );
    expect(r.code, r.message).toBe(200);
    const d = await detailOf(toilet, cleaner.token);
    expect(d.data.devices.map((x) => x.ser_num).sort()).toEqual(['TD-EVL', 'TD-JWB']);
  });

  it('refuses devices or toilets the caller cannot see, all or nothing', async () => {
    const theirs = await t.post(
      TOILET_DETAIL_API.place,
      { toilet_id: toilet, add_ids: `${otherJwb.id}`, remove_ids: `${jwb.id}` },
      { token: dealer.token },
    );
    expect(theirs.code).toBe(CODE.notFound);
    expect(theirs.message).toContain(String(otherJwb.id));
    const d = await detailOf(toilet, dealer.token);
    expect(d.data.devices.map((x) => x.ser_num)).toContain('TD-JWB');
    const toiletHidden = await t.post(
      TOILET_DETAIL_API.place,
      { toilet_id: otherToilet, add_ids: `${jwb.id}` },
      { token: dealer.token },
    );
    expect(toiletHidden.code).toBe(CODE.notFound);
    const gateway = await t.post(
      TOILET_DETAIL_API.place,
      { toilet_id: toilet, add_ids: `${gw.id}` },
      { token: dealer.token },
    );
    expect(gateway.code).toBe(CODE.notFound);
    const visitor = await t.post(
      TOILET_DETAIL_API.place,
      { toilet_id: toilet, remove_ids: `${jwb.id}` },
      { token: cleaner.token },
    );
    expect(visitor.code).toBe(CODE.forbidden);
  });

  it('moves a device between two of the caller toilets', async () => {
    const second = await addToilet(t, dealer.token, { name: '第二厕所' });
    await t.post(
      TOILET_DETAIL_API.place,
      { toilet_id: second, add_ids: `${jwb.id}` },
      { token: dealer.token },
    );
    const list = await t.get<{ list: PlaceableRow[] }>(
      TOILET_DETAIL_API.placeable,
      { toilet_id: toilet, kind: 'jwb' },
      { token: dealer.token },
    );
    expect(list.data.list[0]).toMatchObject({ placed: false, elsewhere: true, toilet_name: '第二厕所' });
    expect((await detailOf(toilet, dealer.token)).data.devices.map((x) => x.ser_num)).toEqual(['TD-EVL']);
    // Deleting a toilet takes its devices out.
    await t.post(TOILET_API.update, { id: second, is_delete: true }, { token: dealer.token });
    const after = await t.get<{ list: PlaceableRow[] }>(
      TOILET_DETAIL_API.placeable,
      { toilet_id: toilet, kind: 'jwb' },
      { token: dealer.token },
    );
    expect(after.data.list[0]).toMatchObject({ placed: false, elsewhere: false, toilet_id: null });
  });

  it("raises the toilet's alarm flag for a placed dispenser's warning, and clears it with the warning", async () => {
    await t.post(
      TOILET_DETAIL_API.place,
      { toilet_id: toilet, add_ids: `${jwb.id}` },
      { token: dealer.token },
    );
    const status = async () =>
      (await t.get<{ status: number }>(TOILET_API.get, { id: toilet }, { token: dealer.token })).data.status;
    expect((await status()) & TOILET_STATUS.alarm).toBe(0);
    await sendReport(t, jwb, { warning: 32768, liquid: 0 });
    expect((await status()) & TOILET_STATUS.alarm).toBe(TOILET_STATUS.alarm);
    // Taking the alarming dispenser out clears the flag; putting it back raises it again.
    const move = (key: 'add_ids' | 'remove_ids') =>
      t.post(TOILET_DETAIL_API.place, { toilet_id: toilet, [key]: `${jwb.id}` }, { token: dealer.token });
    await move('remove_ids');
    expect((await status()) & TOILET_STATUS.alarm).toBe(0);
    await move('add_ids');
    expect((await status()) & TOILET_STATUS.alarm).toBe(TOILET_STATUS.alarm);
    await sendReport(t, jwb, { warning: 0, liquid: 500 });
    expect((await status()) & TOILET_STATUS.alarm).toBe(0);
  });

  it('turns a placed terminal ratings into comments of the toilet and its star average', async () => {
    await sendReport(t, terminal, { star_level: 5 });
    await sendReport(t, terminal, { star_level: 2, smelly: 1, content: '有异味' });
    const d = await detailOf(toilet, dealer.token);
    expect(d.data.toilet).toMatchObject({ star_sum: 7, star_count: 2 });
    expect(d.data.star_average).toBe(3.5);
    expect(d.data.comments.map((c) => [c.star_level, c.smelly, c.content, c.equipment_ser_num])).toEqual([
      [2, true, '有异味', 'TD-EVL'],
      [5, false, '', 'TD-EVL'],
    ]);
  });

  it('leaves ratings of an unplaced terminal off every toilet', async () => {
    await t.post(
      TOILET_DETAIL_API.place,
      { toilet_id: toilet, remove_ids: `${terminal.id}` },
      { token: dealer.token },
    );
    await sendReport(t, terminal, { star_level: 1 });
    const d = await detailOf(toilet, dealer.token);
    expect(d.data.toilet.star_count).toBe(2);
    const stray = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM comments WHERE equipment_id = $1 AND toilet_id IS NULL`,
      [terminal.id],
    );
    expect(stray[0]!.n).toBe(1);
  });
});
