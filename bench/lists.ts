// List APIs at scale: N gateways (registered through the import call), bound to a dealer,
// with R readings (reported through the HTTP ingest), then autocannon on the device list as
// develop (sees all) and as the dealer (visibility through bindings), plain, with a keyword
// and with the online filter. Prints p50/p99 against the goal of 100 ms.
// Usage: npm run bench:lists [-- devices readings seconds]
import autocannon from 'autocannon';
import { DEVICE_REPORT_API } from '../packages/core/src/protocol.ts';
import { ConsoleApi, bindAll, ensureDevices } from '../packages/server/src/sim/fleet.ts';
import { BENCH_PASSWORD, startConsole } from './server.ts';

const devices = Number(process.argv[2] ?? 100_000);
const readings = Number(process.argv[3] ?? 500_000);
const seconds = Number(process.argv[4] ?? 5);

const server = await startConsole();
const admin = await new ConsoleApi(server.http).login('admin', BENCH_PASSWORD);
const t0 = Date.now();
const fleet = [];
for (let i = 0; i < devices; i += 5000) {
  fleet.push(
    ...(await ensureDevices(
      admin,
      'gateway',
      `L${i / 5000}`,
      Math.min(5000, devices - i),
      (n) => `大楼${n % 97}号公厕`,
    )),
  );
}
const dealer = await admin.call<{ id: number }>('POST', '/api/v1/user/add-user', {
  user_name: 'list_dealer',
  password: 'dealer-pass-1',
  permissions: 7,
});
await bindAll(
  admin,
  'gateway',
  dealer.id,
  fleet.map((d) => d.id),
);
const registered = Date.now();

// Readings through the HTTP transport, one batch per device, 16 requests at a time.
let sent = 0;
const perDevice = Math.ceil(readings / fleet.length);
const start = Date.now() - perDevice * 60_000;
const jobs = fleet.map((dev, d) => async () => {
  const count = Math.max(0, Math.min(perDevice, readings - d * perDevice));
  if (!count) return;
  const messages = Array.from({ length: count }, (_, k) => ({
    id: `r${k}`,
    ts: start + k * 60_000,
    type: 'report',
    data: { nh3: 0.1 + (k % 10) / 20, co2: 500 + k },
  }));
  for (let i = 0; i < messages.length; i += 500) {
    const res = await fetch(`${server.http}${DEVICE_REPORT_API}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-token': dev.token },
      body: JSON.stringify({ ser_num: dev.ser_num, messages: messages.slice(i, i + 500) }),
    });
    if (!res.ok) throw new Error(`report failed: ${res.status}`);
  }
  sent += count;
});
await Promise.all(
  Array.from({ length: 16 }, async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) await job();
  }),
);
const loaded = Date.now();
// A restart, as after any bulk load: the server refreshes the planner's statistics at start.
await server.stop(true);
const live = await startConsole({ dataDir: server.dataDir });

const tokenOf = async (user: string, pw: string) =>
  (
    (await (
      await fetch(`${live.http}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ filter: user, password: pw }).toString(),
      })
    ).json()) as { data: { auth_token: string } }
  ).data.auth_token;
const tokens = {
  develop: await tokenOf('admin', BENCH_PASSWORD),
  dealer: await tokenOf('list_dealer', 'dealer-pass-1'),
};
const cases: [string, string][] = [
  ['page 1', '/api/v1/gateway/gateways?page=1&page_size=10'],
  ['page 500', '/api/v1/gateway/gateways?page=500&page_size=20'],
  ['keyword', `/api/v1/gateway/gateways?keywords=${encodeURIComponent('大楼7号')}`],
  ['online filter', '/api/v1/gateway/gateways?status=131072'],
  ['history 24h', `/api/v1/device/history?device_id=${fleet[0]!.id}&range=24h`],
];
console.log(
  `${fleet.length} gateways registered and bound in ${((registered - t0) / 1000).toFixed(0)} s; ${sent} readings in ${((loaded - registered) / 1000).toFixed(0)} s`,
);
for (const [who, token] of Object.entries(tokens)) {
  for (const [name, path] of cases) {
    const r = await autocannon({
      url: `${live.http}${path}`,
      connections: 4,
      duration: seconds,
      headers: { 'x-token': token },
    });
    if (r.non2xx || r.errors || !r.requests.total) throw new Error(`${path}: no good answers`);
    console.log(
      `${who.padEnd(8)} ${name.padEnd(14)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms`,
    );
  }
}
await live.stop();
