import {
  CAMPUS_API,
  PERMISSION,
  type BuildingRow,
  type CampusDataCenter,
  type PlacedDevice,
  type RoomRow,
} from '@se/core';
import sharp from 'sharp';
import { energyWindows } from './service.ts';
import { storage } from '../files/storage.ts';
import {
  HTML_AS_JPG,
  POLYGLOT_JPEG,
  SVG_WITH_SCRIPT,
  bombPng,
  photoJpeg,
} from '../../test/hostile-images.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEALER_RIGHTS,
  addDevice,
  adminApp,
  auditOf,
  postRaw,
  sendReport,
  type Account,
  type TestApp,
  type TestDevice,
} from '../../test/harness.ts';

const CAMPUS = { visitor: 128, user: 128 | 256, manager: 128 | 256 | 512 } as const;

let t: TestApp;
let admin: string;

/** An organisation with its manager (owning the devices), a campus user and a campus visitor. */
interface Org {
  id: number;
  owner: Account;
  manager: Account;
  user: Account;
  visitor: Account;
  gateway: TestDevice;
  meter: TestDevice;
}

async function org(prefix: string): Promise<Org> {
  const owner = await t.account(`${prefix}_owner`, DEALER_RIGHTS | CAMPUS.manager, 1);
  const [o] = await t.ctx.db.query<{ id: number }>(
    `INSERT INTO organisations (name, user_id) VALUES ($1, $2) RETURNING id`,
    [`${prefix} 大学`, owner.id],
  );
  const manager = await t.account(`${prefix}_manager`, CAMPUS.manager, owner.id);
  const user = await t.account(`${prefix}_user`, CAMPUS.user, manager.id);
  const visitor = await t.account(`${prefix}_visitor`, CAMPUS.visitor, user.id);
  await t.ctx.db.query('UPDATE users SET org_id = $1 WHERE id = ANY($2::int[])', [
    o!.id,
    [owner.id, manager.id, user.id, visitor.id],
  ]);
  const gateway = await addDevice(t, 'gateway', `${prefix}-GW1`, owner.token);
  const meter = await addDevice(t, 'electric_meter', `${prefix}-EM1`, owner.token);
  return { id: o!.id, owner, manager, user, visitor, gateway, meter };
}

let A: Org;
let B: Org;

beforeAll(async () => {
  ({ t, admin } = await adminApp());
  A = await org('ca');
  B = await org('cb');
});
afterAll(() => t.close());

const building = (o: Org, body: Record<string, unknown>, token = o.manager.token) =>
  t.post<BuildingRow>(CAMPUS_API.addBuilding, { use: 'teaching', floors_above: 5, ...body }, { token });
const room = (o: Org, body: Record<string, unknown>, token = o.manager.token) =>
  t.post<RoomRow>(CAMPUS_API.addRoom, { type: 'classroom', floor: 1, ...body }, { token });

describe('buildings and rooms', () => {
  it('a manager builds a building and a room; each role reads them; only the manager changes the structure', async () => {
    const b = await building(A, { name: '第一教学楼', code: 'T1', area_m2: '12000', address: '校园路 1 号' });
    expect(b.code).toBe(200);
    expect(b.data).toMatchObject({
      name: '第一教学楼',
      use: 'teaching',
      area_m2: 12000,
      rooms: 0,
      devices: 0,
    });
    const r = await room(A, {
      building_id: b.data.id,
      floor: 2,
      number: '201',
      name: '多媒体教室',
      capacity: 60,
    });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({
      building_name: '第一教学楼',
      number: '201',
      capacity: 60,
      co2: null,
      occupancy: null,
    });

    for (const who of [A.visitor, A.user, A.manager]) {
      const list = await t.get<{ list: BuildingRow[] }>(CAMPUS_API.buildings, {}, { token: who.token });
      expect(list.data.list.map((x) => x.name)).toEqual(['第一教学楼']);
      expect(list.data.list[0]!.rooms).toBe(1);
    }
    expect((await building(A, { name: 'x' }, A.user.token)).code).toBe(403);
    expect((await room(A, { building_id: b.data.id, number: '9' }, A.visitor.token)).message).toBe(
      '只有园区管理员可以执行此操作',
    );

    // ssUser edits a room's details but not the structure.
    const edit = await t.post<RoomRow>(
      CAMPUS_API.updateRoom,
      { id: r.data.id, name: '智慧教室' },
      { token: A.user.token },
    );
    expect(edit.data.name).toBe('智慧教室');
    const del = await t.post(
      CAMPUS_API.updateRoom,
      { id: r.data.id, is_delete: true },
      { token: A.user.token },
    );
    expect(del.code).toBe(403);
    expect(
      (await t.post(CAMPUS_API.updateRoom, { id: r.data.id, name: 'x' }, { token: A.visitor.token })).code,
    ).toBe(403);
  });

  it('refuses a duplicate code or room number, a floor outside the building, and a non-empty building delete', async () => {
    const b = await building(A, { name: '实验楼', code: 'L1', use: 'lab', floors_above: 3, floors_below: 1 });
    expect((await building(A, { name: '另一栋', code: 'L1' })).message).toBe('楼宇编号已存在');
    // Codes are per organisation.
    expect((await building(B, { name: 'B 实验楼', code: 'L1' })).code).toBe(200);
    expect((await room(A, { building_id: b.data.id, floor: 4, number: '401' })).message).toContain(
      '楼层超出该楼宇的范围',
    );
    expect((await room(A, { building_id: b.data.id, floor: -1, number: 'B101' })).code).toBe(200);
    expect((await room(A, { building_id: b.data.id, floor: 1, number: 'B101' })).message).toBe(
      '该楼宇已有此房间号',
    );
    const del = await t.post(
      CAMPUS_API.updateBuilding,
      { id: b.data.id, is_delete: true },
      { token: A.manager.token },
    );
    expect(del.message).toBe('该楼宇下还有房间，请先删除房间');
    expect((await building(A, { name: '' })).message).toBe('请填写名称');
    expect((await building(A, { name: 'x', use: 'castle' })).message).toBe('用途不正确');
  });
});

describe('placement and room figures', () => {
  it('places a gateway the manager owns; the room shows its air, occupancy and alarms; the building rolls them up', async () => {
    const b = await building(A, { name: '图书馆', code: 'LIB', use: 'library' });
    const r = await room(A, { building_id: b.data.id, number: '101', type: 'other' });
    const can = await t.get<{ id: number }[]>(CAMPUS_API.placeable, {}, { token: A.manager.token });
    expect(can.data.map((d) => d.id).sort()).toEqual([A.gateway.id, A.meter.id].sort());

    const p = await t.post<PlacedDevice[]>(
      CAMPUS_API.place,
      { device_id: A.gateway.id, building_id: b.data.id, room_id: r.data.id },
      { token: A.manager.token },
    );
    expect(p.code).toBe(200);
    expect(p.data.map((d) => d.ser_num)).toEqual(['ca-GW1']);
    // The meter goes to the building (no room fits).
    expect(
      (
        await t.post(
          CAMPUS_API.place,
          { device_id: A.meter.id, building_id: b.data.id },
          { token: A.manager.token },
        )
      ).code,
    ).toBe(200);

    await sendReport(t, A.gateway, {
      co2: 1350,
      nh3: 0.05,
      male_occupy: 2,
      female_occupy: 1,
      male_count: 4,
      female_count: 4,
    });
    const row = await t.get<RoomRow>(CAMPUS_API.room, { id: r.data.id }, { token: A.visitor.token });
    expect(row.data).toMatchObject({ co2: 1350, nh3: 0.05, occupancy: 3, devices: 1, online: 1 });
    const bl = await t.get<BuildingRow>(CAMPUS_API.building, { id: b.data.id }, { token: A.visitor.token });
    expect(bl.data).toMatchObject({ co2: 1350, occupancy: 3, devices: 2, rooms: 1 });

    const dc = await t.get<CampusDataCenter>(CAMPUS_API.dataCenter, {}, { token: A.visitor.token });
    expect(dc.data.rooms_by_co2).toEqual([
      expect.objectContaining({
        id: r.data.id,
        building_name: '图书馆',
        number: '101',
        co2: 1350,
        occupancy: 3,
      }),
    ]);
    expect(dc.data.totals.occupancy).toBe(3);

    const log = await auditOf(t, A.manager.id);
    expect(log).toBeDefined();
  });

  it('never places another organisation’s devices, nor moves a device placed by another organisation', async () => {
    const b = await building(B, { name: 'B 教学楼', code: 'BT' });
    const refused = await t.post(
      CAMPUS_API.place,
      { device_id: A.meter.id, building_id: b.data.id },
      { token: B.manager.token },
    );
    expect(refused).toMatchObject({ code: 404, message: '设备不存在' });
    const can = await t.get<{ id: number }[]>(CAMPUS_API.placeable, {}, { token: B.manager.token });
    expect(can.data.map((d) => d.id)).not.toContain(A.gateway.id);
    // Unplacing a device of organisation A from B is "not placed here".
    const un = await t.post(CAMPUS_API.unplace, { device_id: A.gateway.id }, { token: B.manager.token });
    expect(un.code).toBe(404);
  });
});

describe('data centre energy', () => {
  it('sums the usage rollups of the meters placed in each building: today and this month against last month', async () => {
    const w = energyWindows(new Date());
    // Setup: the meter ingest (i15b) writes these rollups; A's meter is placed in 图书馆.
    await t.ctx.db.query(
      `INSERT INTO meter_usage (device_id, grain, period_start, usage) VALUES
         ($1, 'day', $2, 12.5), ($1, 'day', $3, 10), ($1, 'day', $4, 7), ($1, 'month', $5, 40)`,
      [
        A.meter.id,
        w.today.toISOString(),
        w.todayPrev.toISOString(),
        w.prevMonthStart.toISOString(),
        w.monthStart.toISOString(),
      ],
    );
    const dc = await t.get<CampusDataCenter>(CAMPUS_API.dataCenter, {}, { token: A.visitor.token });
    const lib = dc.data.buildings.find((b) => b.name === '图书馆')!;
    const e = dc.data.energy.find((x) => x.building_id === lib.id && x.kind === 'electric_meter');
    const sameDay = w.todayPrev.getTime() === w.prevMonthStart.getTime();
    // This month is its month rollup, as ingest keeps it with the days (meters handler).
    expect(e).toMatchObject({ today: 12.5, today_prev: sameDay ? 17 : 10, month: 40 });
    expect(e!.month_prev).toBe(17);
    // B sees none of it.
    const b = await t.get<CampusDataCenter>(CAMPUS_API.dataCenter, {}, { token: B.visitor.token });
    expect(b.data.energy).toEqual([]);
  });

  it('cuts UTC+8 days and the same days of last month', () => {
    const w = energyWindows(new Date('2026-03-31T17:00:00Z')); // 2026-04-01 01:00 in UTC+8
    expect(w.today.toISOString()).toBe('2026-03-31T16:00:00.000Z');
    expect(w.monthStart.toISOString()).toBe('2026-03-31T16:00:00.000Z');
    expect(w.prevMonthStart.toISOString()).toBe('2026-02-28T16:00:00.000Z');
    expect(w.prevMonthEnd.toISOString()).toBe('2026-03-01T16:00:00.000Z');
    const end = energyWindows(new Date('2026-03-31T04:00:00Z')); // 31 March; February has 28 days
    expect(end.todayPrev.toISOString()).toBe('2026-02-27T16:00:00.000Z');
  });
});

describe('organisation A sees nothing of organisation B', () => {
  it('every id of B answers as unknown to every role of A', async () => {
    const b = await building(B, { name: 'B 宿舍楼', code: 'BD', use: 'dormitory' });
    const r = await room(B, { building_id: b.data.id, number: '101', type: 'dormitory' });
    await t.post(
      CAMPUS_API.place,
      { device_id: B.gateway.id, building_id: b.data.id, room_id: r.data.id },
      { token: B.manager.token },
    );

    for (const who of [A.visitor, A.user, A.manager]) {
      const token = who.token;
      expect((await t.get(CAMPUS_API.building, { id: b.data.id }, { token })).code).toBe(404);
      expect((await t.get(CAMPUS_API.room, { id: r.data.id }, { token })).code).toBe(404);
      expect((await t.get(CAMPUS_API.rooms, { building_id: b.data.id }, { token })).code).toBe(404);
      expect((await t.get(CAMPUS_API.placements, { room_id: r.data.id }, { token })).code).toBe(404);
      expect((await t.get(CAMPUS_API.placements, { building_id: b.data.id }, { token })).code).toBe(404);
      // Naming B's organisation is refused as unknown.
      expect((await t.get(CAMPUS_API.buildings, { org_id: B.id }, { token })).code).toBe(404);
      expect((await t.get(CAMPUS_API.dataCenter, { org_id: B.id }, { token })).code).toBe(404);
      const list = await t.get<{ list: BuildingRow[] }>(CAMPUS_API.buildings, {}, { token });
      expect(list.data.list.map((x) => x.id)).not.toContain(b.data.id);
      const rooms = await t.get<{ list: RoomRow[] }>(CAMPUS_API.rooms, {}, { token });
      expect(rooms.data.list.map((x) => x.id)).not.toContain(r.data.id);
    }
    const m = A.manager.token;
    expect(
      (await t.post(CAMPUS_API.updateBuilding, { id: b.data.id, name: 'hacked' }, { token: m })).code,
    ).toBe(404);
    expect((await t.post(CAMPUS_API.updateRoom, { id: r.data.id, name: 'hacked' }, { token: m })).code).toBe(
      404,
    );
    expect(
      (await t.post(CAMPUS_API.updateRoom, { id: r.data.id, name: 'hacked' }, { token: A.user.token })).code,
    ).toBe(404);
    expect((await room(A, { building_id: b.data.id, number: '999' })).code).toBe(404);
    expect(
      (await t.post(CAMPUS_API.place, { device_id: A.gateway.id, building_id: b.data.id }, { token: m }))
        .code,
    ).toBe(404);
    expect((await t.post(CAMPUS_API.unplace, { device_id: B.gateway.id }, { token: m })).code).toBe(404);
    const dc = await t.get<CampusDataCenter>(CAMPUS_API.dataCenter, {}, { token: A.visitor.token });
    expect(dc.data.buildings.map((x) => x.id)).not.toContain(b.data.id);
    expect(dc.data.alarms.map((a) => a.device_id)).not.toContain(B.gateway.id);
    // Nothing of B changed.
    const still = await t.get<RoomRow>(CAMPUS_API.room, { id: r.data.id }, { token: B.visitor.token });
    expect(still.data.name).toBe('');
  });

  it('a toilet operator without a campus role is refused; develop names any organisation', async () => {
    const op = await t.account('cx_operator', DEALER_RIGHTS, 1);
    expect((await t.get(CAMPUS_API.buildings, {}, { token: op.token })).code).toBe(403);
    const all = await t.get<{ list: BuildingRow[] }>(
      CAMPUS_API.buildings,
      { org_id: B.id },
      { token: admin },
    );
    expect(all.code).toBe(200);
    expect(all.data.list.every((x) => x.org_id === B.id)).toBe(true);
    expect((await t.get(CAMPUS_API.buildings, {}, { token: admin })).message).toBe('请选择组织');
    // A campus back-office manager reaches the organisations whose manager it created, not others.
    const sup = await t.account('cx_super', PERMISSION.ssSuperSaled, 1);
    expect((await t.get(CAMPUS_API.buildings, { org_id: A.id }, { token: sup.token })).code).toBe(404);
  });
});

describe('building photo', () => {
  const upload = (token: string, id: number, body: Buffer) =>
    postRaw(t, token, `${CAMPUS_API.uploadBuildingPhoto}?id=${id}`, body);
  const photo = (token: string, id: number) =>
    t.app.inject({
      method: 'GET',
      url: `${CAMPUS_API.buildingPhoto}?id=${id}`,
      headers: { 'x-token': token },
    });
  let b: BuildingRow;
  beforeAll(async () => {
    b = (await building(A, { name: '照片楼', code: 'PHOTO-LIB', use: 'library' })).data;
  });

  it('a manager uploads it: re-encoded without metadata, on the row, served to every role as an inert image', async () => {
    const res = await upload(A.manager.token, b.id, await photoJpeg(1200, 800));
    const env = res.json() as { code: number; data: BuildingRow };
    expect(env.code).toBe(200);
    expect(env.data.photo).toMatch(/\.webp$/);
    const rows = await t.get<{ list: BuildingRow[] }>(CAMPUS_API.buildings, {}, { token: A.visitor.token });
    expect(rows.data.list.find((x) => x.id === b.id)?.photo).toBe(env.data.photo);
    const got = await photo(A.visitor.token, b.id);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/webp');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(got.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1200, height: 800 });
    expect(meta.exif).toBeUndefined();
    // A new photo replaces the old one, whose file is gone.
    const again = (await upload(A.manager.token, b.id, await photoJpeg(64, 48)).then((r) => r.json())) as {
      data: BuildingRow;
    };
    expect(again.data.photo).not.toBe(env.data.photo);
    expect(await storage(t.ctx).stat(env.data.photo)).toBeNull();
    expect(await sharp((await photo(A.user.token, b.id)).rawPayload).metadata()).toMatchObject({ width: 64 });
    const log = await t.ctx.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE entity = 'campus_building' AND entity_id = $1`,
      [b.id],
    );
    expect(log.filter((e) => e.action === 'campus.building.photo')).toHaveLength(2);
  });

  it.each([
    ['an SVG with a script', SVG_WITH_SCRIPT, '不支持 SVG'],
    ['HTML named .jpg', HTML_AS_JPG, '文件不是有效的图片'],
    ['a JPEG/HTML polyglot', POLYGLOT_JPEG, '图片已损坏'],
    ['a 100,000 × 100,000 px decompression bomb', bombPng(), '图片尺寸过大'],
  ])('refuses %s and keeps the photo it had', async (_label, bytes, reason) => {
    const before = (await t.get<BuildingRow>(CAMPUS_API.building, { id: b.id }, { token: A.manager.token }))
      .data;
    const r = (await upload(A.manager.token, b.id, bytes)).json() as { code: number; message: string };
    expect(r.code).toBe(400);
    expect(r.message).toContain(reason);
    const after = (await t.get<BuildingRow>(CAMPUS_API.building, { id: b.id }, { token: A.manager.token }))
      .data;
    expect(after.photo).toBe(before.photo);
  });

  it('only the manager uploads; organisation B neither uploads nor sees it', async () => {
    const jpeg = await photoJpeg();
    expect(((await upload(A.user.token, b.id, jpeg)).json() as { code: number }).code).toBe(403);
    expect(((await upload(B.manager.token, b.id, jpeg)).json() as { code: number }).code).toBe(404);
    expect(((await photo(B.visitor.token, b.id)).json() as { code: number }).code).toBe(404);
    const bare = (await building(A, { name: '体育馆', use: 'gym' })).data;
    expect((await photo(A.visitor.token, bare.id)).json()).toMatchObject({
      code: 404,
      message: '该楼宇还没有照片',
    });
  });
});
