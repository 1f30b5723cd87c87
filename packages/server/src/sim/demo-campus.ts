// The demo's smart campus (issue 15): a university with 6 buildings and 120 rooms, built
// through the console's API as its manager would, with gateways placed in classrooms, labs
// and washrooms. Their readings come through MQTT like every other simulated device.
import { CAMPUS_API, ORG_API, PERMISSION, USER_API, type BuildingUse, type RoomType } from '@se/core';
import { ConsoleApi, bindAll, ensureDevices } from './fleet.ts';

const CAMPUS_USER = 'campus';
const CAMPUS_PASSWORD = 'demo-pass-123';

const BUILDINGS: [name: string, code: string, use: BuildingUse, main: RoomType][] = [
  ['第一教学楼', 'T1', 'teaching', 'classroom'],
  ['第二教学楼', 'T2', 'teaching', 'classroom'],
  ['理科实验楼', 'L1', 'lab', 'lab'],
  ['图书馆', 'LIB', 'library', 'other'],
  ['学生宿舍 1 号楼', 'D1', 'dormitory', 'dormitory'],
  ['行政办公楼', 'A1', 'office', 'office'],
];
const FLOORS = 4;
const ROOMS_PER_FLOOR = 5;
/** Gateways per building: one in the first room of floors 1–3, one in the ground-floor washroom. */
const GATEWAYS_PER_BUILDING = 4;

interface Row {
  id: number;
}

async function ensureAccount(admin: ConsoleApi): Promise<number> {
  const found = await admin.call<{ list: { id: number; user_name: string }[] }>('GET', USER_API.list, {
    keywords: CAMPUS_USER,
    keys: 'user_name',
  });
  const hit = found.list.find((u) => u.user_name === CAMPUS_USER);
  if (hit) return hit.id;
  const r = await admin.call<Row>('POST', USER_API.add, {
    user_name: CAMPUS_USER,
    password: CAMPUS_PASSWORD,
    permissions:
      PERMISSION.ssManager | PERMISSION.ssUser | PERMISSION.ssVisitor | PERMISSION.user | PERMISSION.visitor,
  });
  return r.id;
}

async function listAll<T>(api: ConsoleApi, path: string, q: Record<string, unknown> = {}) {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const r = await api.call<{ list: T[] }>('GET', path, { ...q, page, page_size: 100 });
    out.push(...r.list);
    if (r.list.length < 100) return out;
  }
}

/** The demo university (made once) and its gateways, for the simulator's fleet. */
export async function ensureDemoCampus(admin: ConsoleApi, base: string) {
  const managerId = await ensureAccount(admin);
  const campus = await new ConsoleApi(base).login(CAMPUS_USER, CAMPUS_PASSWORD);
  try {
    await campus.call('GET', ORG_API.get);
  } catch {
    await admin.call('POST', ORG_API.add, { name: '西湖大学', slogan: '求真 · 笃行', user_id: managerId });
    await campus.call('GET', ORG_API.get).then((o) =>
      campus.call('POST', ORG_API.update, {
        id: (o as Row).id,
        introduction: '演示用的智慧校园：6 栋楼、120 个房间，网关实时上报空气质量与在用人数。',
        contact: '0571-88888888',
        email: 'campus@example.com',
        address: '浙江省杭州市西湖区',
        org_url: 'https://example.com',
      }),
    );
  }

  const gateways = await ensureDevices(
    admin,
    'gateway',
    'CAMPUS-GW',
    BUILDINGS.length * GATEWAYS_PER_BUILDING,
    (i) => `${BUILDINGS[Math.floor(i / GATEWAYS_PER_BUILDING)]![0]}网关`,
  );
  await bindAll(
    admin,
    'gateway',
    managerId,
    gateways.map((g) => g.id),
  );

  let buildings = await listAll<Row & { code: string }>(campus, CAMPUS_API.buildings);
  for (const [name, code, use] of BUILDINGS) {
    if (buildings.some((b) => b.code === code)) continue;
    await campus.call('POST', CAMPUS_API.addBuilding, {
      name,
      code,
      use,
      floors_above: FLOORS,
      floors_below: 0,
    });
  }
  buildings = await listAll(campus, CAMPUS_API.buildings);
  const rooms = await listAll<Row & { building_id: number; number: string }>(campus, CAMPUS_API.rooms);
  const placed = new Set(
    (
      await campus.call<{ id: number; building_id: number | null }[]>('GET', CAMPUS_API.placeable, {
        keywords: 'CAMPUS-GW',
      })
    )
      .filter((d) => d.building_id !== null)
      .map((d) => d.id),
  );
  const sorted = [...gateways].sort(
    (a, b) => Number(a.ser_num.split('-').pop()) - Number(b.ser_num.split('-').pop()),
  );
  for (const [bi, [, code, , main]] of BUILDINGS.entries()) {
    const b = buildings.find((x) => x.code === code)!;
    const mine = rooms.filter((r) => r.building_id === b.id);
    for (let floor = 1; floor <= FLOORS; floor++) {
      for (let n = 1; n <= ROOMS_PER_FLOOR; n++) {
        const number = `${floor}0${n}`;
        if (mine.some((r) => r.number === number)) continue;
        const washroom = n === ROOMS_PER_FLOOR;
        const r = await campus.call<Row & { building_id: number; number: string }>(
          'POST',
          CAMPUS_API.addRoom,
          {
            building_id: b.id,
            floor,
            number,
            type: washroom ? 'toilet' : main,
            name: washroom ? `${floor} 层卫生间` : '',
            capacity: washroom ? 10 : main === 'classroom' ? 60 : main === 'dormitory' ? 4 : 30,
            area_m2: washroom ? 30 : 80,
          },
        );
        mine.push(r);
      }
    }
    // Gateways: x01 of floors 1–3 and the ground-floor washroom.
    const targets = ['101', '201', '301', `10${ROOMS_PER_FLOOR}`];
    for (let g = 0; g < GATEWAYS_PER_BUILDING; g++) {
      const gw = sorted[bi * GATEWAYS_PER_BUILDING + g];
      if (!gw || placed.has(gw.id)) continue;
      const room = mine.find((r) => r.number === targets[g]);
      await campus.call('POST', CAMPUS_API.place, { device_id: gw.id, building_id: b.id, room_id: room?.id });
    }
  }
  return gateways;
}
