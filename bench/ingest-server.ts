// Server mode: PostgreSQL + Mosquitto. Devices publish QoS 1 at the broker; the console
// (a client of the broker, acknowledging after commit) stores them. Prints the rate at
// which reports were committed — from the first publish until the last one is in the
// database — against the rate at which the broker accepted them.
// Usage: npm run bench:ingest-server [-- devices seconds rate]  (rate 0 = flat out; needs
// DATABASE_URL and Mosquitto
// on MQTT_URL, default mqtt://127.0.0.1:1883)
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { ConsoleApi, ensureDevices } from '../packages/server/src/sim/fleet.ts';
import { simulate } from '../packages/server/src/sim/simulator.ts';

const root = path.resolve(import.meta.dirname, '..');
const devices = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? 15);
// Flat out, the devices and the broker take both cores and starve the console; a paced
// rate measures whether the console keeps up with it.
const rate = Number(process.argv[4] ?? 5000);
const baseUrl = process.env.DATABASE_URL;
const mqttUrl = process.env.MQTT_URL || 'mqtt://127.0.0.1:1883';
if (!baseUrl) {
  console.error('DATABASE_URL (a PostgreSQL server) is required');
  process.exit(2);
}
const name = `se_bench_${crypto.randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const u = new URL(baseUrl);
u.pathname = `/${name}`;
const dbUrl = u.toString();

const group = `b${crypto.randomBytes(3).toString('hex')}`;
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    MQTT_URL: mqttUrl,
    MQTT_CLIENT_ID: `console-${group}`,
    MQTT_SHARE_GROUP: group,
    ADMIN_PASSWORD: 'bench-password',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const http = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout!.on('data', (c) => {
    out += c;
    const h = /console on (http:\/\/\S+?)(,|\s|$)/.exec(out);
    if (h) resolve(h[1]!);
  });
  child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
});
const api = await new ConsoleApi(http).login('admin', 'bench-password');
const fleet = await ensureDevices(api, 'gateway', `SRV-${group}`, devices, () => 'bench');
const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
const count = async () => Number((await db.query('SELECT count(*) AS n FROM telemetry')).rows[0].n);

const t0 = Date.now();
const stats = await simulate({ url: mqttUrl, devices: fleet, rate, durationMs: seconds * 1000 });
const published = Date.now();
let stored = await count();
while (stored < stats.acked && Date.now() - published < 60_000) {
  await new Promise((r) => setTimeout(r, 200));
  stored = await count();
}
const done = Date.now();
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
await db.end();
await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
await admin.end();
// End the server's persistent broker session so the broker stops queueing for it.
const mqtt = (await import('mqtt')).default;
await (
  await mqtt.connectAsync(mqttUrl, { clientId: `console-${group}`, clean: true, protocolVersion: 4 })
).endAsync();

console.log(
  `${devices} devices, QoS 1 at ${rate || 'flat out'} msg/s for ${seconds} s (PostgreSQL + Mosquitto)`,
);
console.log(
  `broker accepted ${Math.round(stats.acked / seconds)} msg/s; console committed ${stored} of ${stats.acked} at ${Math.round(stored / ((done - t0) / 1000))} msg/s (all in ${((done - published) / 1000).toFixed(1)} s after the last publish)`,
);
console.log(
  `ratio committed/accepted ${(stored / ((done - t0) / 1000) / (stats.acked / seconds)).toFixed(2)} (goal ≥ 5000 msg/s committed)`,
);
process.exit(0);
