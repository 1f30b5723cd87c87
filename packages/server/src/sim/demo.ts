// `npm run demo`: the console with a demo tenant and simulated devices that connect over
// real MQTT and report through the same pipeline as real ones.
//   DEMO_DEVICES (default 50), DEMO_INTERVAL_S (seconds between a device's reports, 5).
import { ensureDemoCampus } from './demo-campus.ts';
import { ensureDemoMeters } from './demo-meters.ts';
import { ensureDemoIndustry } from './demo-industry.ts';
import { PERMISSION, TOILET_API, TOILET_DETAIL_API, type DeviceKind } from '@se/core';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { ConsoleApi, bindAll, ensureDevices } from './fleet.ts';
import { seedMedia } from './demo-media.ts';
import { simulate } from './simulator.ts';
import type { SimDevice } from './values.ts';
import { ATTENDANCE_USER, ensureAttendanceDemo } from './demo-attendance.ts';
import { seedMaintenance } from './demo-maintenance.ts';
import { seedMaintenancePlans } from './demo-maintenance-plans.ts';
import { demoAttendanceRules } from './demo-attendance-rules.ts';
import { demoPlayers } from './demo-players.ts';
import { demoRules } from './demo-rules.ts';
import { demoPaperHistory } from './demo-paper.ts';

const DEMO_USER = 'demo';
const DEMO_PASSWORD = 'demo-pass-123';
// The demo's own data directory gets a known admin password, so every restart can sign in.
const DEMO_ADMIN_PASSWORD = 'demo-admin-123';
// Name, province, city, district, street address, lng, lat: one city's streets, parks, sights
// and metro stations (Hangzhou, 西湖区 and 上城区), as a sanitation company there would run them.
const PLACES: [string, string, string, string, string, number, number][] = [
  ['湖滨步行街公厕', '浙江省', '杭州市', '上城区', '湖滨路 26 号（湖滨步行街北口）', 120.163, 30.258],
  ['断桥残雪公厕', '浙江省', '杭州市', '西湖区', '北山街 1 号（断桥东侧停车场）', 120.152, 30.259],
  [
    '地铁龙翔桥站公厕',
    '浙江省',
    '杭州市',
    '上城区',
    '延安路与平海路口（地铁 1 号线龙翔桥站 D 口）',
    120.166,
    30.262,
  ],
  ['太子湾公园公厕', '浙江省', '杭州市', '西湖区', '南山路 2 号（太子湾公园南门）', 120.149, 30.231],
  ['文三路公厕', '浙江省', '杭州市', '西湖区', '文三路 478 号（学院路口东 50 米）', 120.131, 30.279],
  ['黄龙体育中心公厕', '浙江省', '杭州市', '西湖区', '黄龙路 1 号（体育场北门）', 120.139, 30.268],
  ['西溪湿地周家村公厕', '浙江省', '杭州市', '西湖区', '天目山路 518 号（周家村入口）', 120.078, 30.269],
  ['城站广场公厕', '浙江省', '杭州市', '上城区', '环城东路 1 号（杭州站东广场）', 120.183, 30.244],
];
const TOILETS = PLACES.map((p) => p[0]);

async function main() {
  let config;
  try {
    config = loadConfig({ DATA_DIR: './data/demo', ADMIN_PASSWORD: DEMO_ADMIN_PASSWORD, ...process.env });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const total = Math.max(5, Number(process.env.DEMO_DEVICES ?? 50));
  const interval = Math.max(1, Number(process.env.DEMO_INTERVAL_S ?? 5));
  const { app, ctx } = await buildApp({
    ...config,
    logLevel: process.env.LOG_LEVEL ?? 'warn',
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    console.error(`Cannot start: PORT: ${(err as Error).message}; set PORT to a free port`);
    process.exit(1);
  }
  const port = (app.server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}`;

  // Registration goes through the API as an operator would; readings through MQTT.
  const admin = new ConsoleApi(base);
  await admin.login('admin', config.adminPassword ?? DEMO_ADMIN_PASSWORD);
  const demoUser = await ensureDemoUser(admin);
  const share: [DeviceKind, string, number, (i: number) => string][] = [
    ['gateway', 'DEMO-GW', Math.ceil(total * 0.2), (i) => `${TOILETS[i % TOILETS.length]}网关`],
    [
      'jwb',
      'DEMO-JWB',
      Math.ceil(total * 0.4),
      (i) => `${TOILETS[i % TOILETS.length]}${i % 2 ? '女' : '男'}卫除臭机`,
    ],
    ['evaluate', 'DEMO-EVL', Math.ceil(total * 0.1), (i) => `${TOILETS[i % TOILETS.length]}评价器`],
    ['electric_meter', 'DEMO-EM', Math.ceil(total * 0.1), (i) => `${TOILETS[i % TOILETS.length]}电表`],
    ['water_meter', 'DEMO-WM', Math.ceil(total * 0.1), (i) => `${TOILETS[i % TOILETS.length]}水表`],
    ['paper_machine', 'DEMO-PM', Math.ceil(total * 0.1), (i) => `${TOILETS[i % TOILETS.length]}纸巾机`],
  ];
  const fleet = [];
  for (const [kind, prefix, n, describe] of share) {
    const devices = await ensureDevices(admin, kind, prefix, n, describe);
    await bindAll(
      admin,
      kind,
      demoUser,
      devices.map((d) => d.id),
    );
    fleet.push(...devices);
  }
  const toilets = await ensureToilets(
    admin,
    demoUser,
    fleet
      .filter((d) => d.kind === 'gateway')
      .sort((a, b) => serialNo(a.ser_num) - serialNo(b.ser_num))
      .map((d) => d.id),
  );
  await placeDevices(admin, toilets, fleet);
  plantProblems(fleet);
  await seedMedia(admin, demoUser);
  fleet.push(...(await ensureAttendanceDemo(ctx, base, admin, DEMO_PASSWORD, toilets[0])));
  await seedMaintenance(admin, demoUser, toilets, fleet);
  await seedMaintenancePlans(admin, demoUser, toilets, fleet);
  fleet.push(...(await ensureDemoCampus(admin, base)));
  fleet.push(...(await ensureDemoMeters(admin, base, `mqtt://127.0.0.1:${ctx.broker!.port}`)));
  fleet.push(...(await ensureDemoIndustry(admin, base, `mqtt://127.0.0.1:${ctx.broker!.port}`)));
  await demoAttendanceRules(await new ConsoleApi(base).login(ATTENDANCE_USER, DEMO_PASSWORD));
  await demoRules(await new ConsoleApi(base).login(DEMO_USER, DEMO_PASSWORD));
  await demoPaperHistory(admin, `mqtt://127.0.0.1:${ctx.broker!.port}`, fleet);
  void demoPlayers({
    admin,
    mqttUrl: `mqtt://127.0.0.1:${ctx.broker!.port}`,
    demoUser: { id: demoUser, name: DEMO_USER, password: DEMO_PASSWORD },
    toilets,
    names: TOILETS,
  }).catch((err: unknown) => console.error('demo players:', err));

  console.log(
    `console on http://localhost:${port}, admin password: ${config.adminPassword ?? DEMO_ADMIN_PASSWORD}`,
  );
  console.log(
    `demo tenant: ${DEMO_USER} / ${DEMO_PASSWORD} (attendance: ${ATTENDANCE_USER} / ${DEMO_PASSWORD}); ${fleet.length} simulated devices report every ${interval} s over MQTT (port ${ctx.broker?.port})`,
  );

  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  await simulate({
    url: `mqtt://127.0.0.1:${ctx.broker!.port}`,
    devices: fleet,
    rate: fleet.length / interval,
    durationMs: Number.MAX_SAFE_INTEGER / 2,
    replyToCommands: true,
    sparseRatings: true,
  });
}

async function ensureDemoUser(admin: ConsoleApi): Promise<number> {
  const found = await admin.call<{ list: { id: number; user_name: string }[] }>('GET', '/api/v1/user/users', {
    keywords: DEMO_USER,
    keys: 'user_name',
  });
  const hit = found.list.find((u) => u.user_name === DEMO_USER);
  if (hit) return hit.id;
  const r = await admin.call<{ id: number }>('POST', '/api/v1/user/add-user', {
    user_name: DEMO_USER,
    password: DEMO_PASSWORD,
    permissions: PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor | PERMISSION.dataView,
  });
  await admin.call('POST', '/api/v1/user/update-info', {
    user_id: r.id,
    company_name: '杭州西湖城市环境服务有限公司',
    company_address: '浙江省杭州市西湖区曙光路 122 号',
  });
  return r.id;
}

/** The demo toilets (created once, with their opening hours and cubicles), in PLACES order. */
async function ensureToilets(admin: ConsoleApi, userId: number, gatewayIds: number[]): Promise<number[]> {
  const have = await admin.call<{ list: { id: number; name: string }[] }>('GET', TOILET_API.list, {
    keywords: '公厕',
    page_size: 100,
  });
  const byName = new Map(have.list.map((t) => [t.name, t.id]));
  const ids: number[] = [];
  for (let i = 0; i < Math.min(PLACES.length, gatewayIds.length); i++) {
    const [name, pname, cityname, adname, address, lng, lat] = PLACES[i]!;
    let id = byName.get(name);
    if (id === undefined) {
      id = (
        await admin.call<{ id: number }>('POST', TOILET_API.add, {
          name,
          pname,
          cityname,
          adname,
          address,
          lng,
          lat,
          gateway_id: gatewayIds[i],
        })
      ).id;
      await admin.call('POST', TOILET_DETAIL_API.updateDocument, {
        toilet_id: id,
        male_count: 6 + (i % 3) * 2,
        female_count: 8 + (i % 3) * 2,
        others_count: 1,
        open_time: '05:30',
        close_time: '23:00',
        content: '第三方管理，如有问题请扫码评价或拨打服务电话。',
      });
    }
    ids.push(id);
  }
  await bindAll(admin, 'toilet', userId, ids);
  return ids;
}

/**
 * A few things worth finding in the demo (by serial number; `<prefix>-<n>` belongs to
 * PLACES[(n - 1) % PLACES.length]): a dispenser at 地铁龙翔桥站 nearly out of liquid, the
 * gateway of 西溪湿地 that drops off at night (quiet 22:00–06:00, offline before dawn), and
 * the review terminal of 文三路 where people complain (low stars, smell, dirt).
 */
function plantProblems(fleet: (SimDevice & { kind: string })[]) {
  const bySerial = new Map(fleet.map((d) => [d.ser_num, d]));
  const set = (serNum: string, extra: Partial<SimDevice>) => {
    const d = bySerial.get(serNum);
    if (d) Object.assign(d, extra);
  };
  set('DEMO-JWB-3', { liquid: 45 });
  set('DEMO-GW-7', { quietHours: [22, 6] });
  set('DEMO-EVL-5', { ratings: 'poor' });
}

/** n of a demo serial number `<prefix>-<n>`. */
const serialNo = (serNum: string) => Number(serNum.slice(serNum.lastIndexOf('-') + 1));

/** Each dispenser, terminal, paper dispenser and meter goes into the toilet it is named after. */
async function placeDevices(
  admin: ConsoleApi,
  toilets: number[],
  fleet: { id: number; kind: string; ser_num: string }[],
) {
  const per = new Map<number, number[]>();
  for (const d of fleet) {
    if (d.kind === 'gateway') continue;
    // `<prefix>-<n>` was described after PLACES[(n - 1) % PLACES.length] (ensureDevices).
    const toilet = toilets[(serialNo(d.ser_num) - 1) % PLACES.length];
    if (toilet === undefined) continue;
    per.set(toilet, [...(per.get(toilet) ?? []), d.id]);
  }
  for (const [toilet, ids] of per)
    await admin.call('POST', TOILET_DETAIL_API.place, {
      toilet_id: toilet,
      add_ids: ids.join(','),
      remove_ids: '',
    });
}

void main();
