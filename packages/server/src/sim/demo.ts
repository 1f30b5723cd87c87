// `npm run demo`: the console with a demo tenant and simulated devices that connect over
// real MQTT and report through the same pipeline as real ones.
//   DEMO_DEVICES (default 50), DEMO_INTERVAL_S (seconds between a device's reports, 5).
import { PERMISSION, TOILET_API, type DeviceKind } from '@se/core';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { ConsoleApi, bindAll, ensureDevices } from './fleet.ts';
import { simulate } from './simulator.ts';

const DEMO_USER = 'demo';
const DEMO_PASSWORD = 'demo-pass-123';
// The demo's own data directory gets a known admin password, so every restart can sign in.
const DEMO_ADMIN_PASSWORD = 'demo-admin-123';
const TOILETS = [
  '西湖公厕',
  '断桥公厕',
  '苏堤公厕',
  '雷峰塔公厕',
  '灵隐寺公厕',
  '河坊街公厕',
  '武林广场公厕',
  '钱江新城公厕',
];

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
  await ensureToilets(
    admin,
    demoUser,
    fleet.filter((d) => d.kind === 'gateway').map((d) => d.id),
  );

  console.log(
    `console on http://localhost:${port}, admin password: ${config.adminPassword ?? DEMO_ADMIN_PASSWORD}`,
  );
  console.log(
    `demo tenant: ${DEMO_USER} / ${DEMO_PASSWORD}; ${fleet.length} simulated devices report every ${interval} s over MQTT (port ${ctx.broker?.port})`,
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
    company_name: '西湖环卫演示公司',
    company_address: '浙江省杭州市西湖区',
  });
  return r.id;
}

async function ensureToilets(admin: ConsoleApi, userId: number, gatewayIds: number[]) {
  const have = await admin.call<{ total: number }>('GET', TOILET_API.list, { keywords: '公厕' });
  if (have.total > 0) return;
  const ids: number[] = [];
  for (let i = 0; i < Math.min(TOILETS.length, gatewayIds.length); i++) {
    const t = await admin.call<{ id: number }>('POST', TOILET_API.add, {
      name: TOILETS[i],
      pname: '浙江省',
      cityname: '杭州市',
      adname: '西湖区',
      address: `${TOILETS[i]!.replace('公厕', '')}景区`,
      lng: 120.13 + i * 0.01,
      lat: 30.25 + i * 0.005,
      gateway_id: gatewayIds[i],
    });
    ids.push(t.id);
  }
  await bindAll(admin, 'toilet', userId, ids);
}

void main();
