// Device ingest over real MQTT, QoS 1, acknowledged only after commit (PGlite, embedded
// broker) against a bare aedes that acknowledges at once, with the same simulated devices
// in the same run. Prints msg/s of each, the ratio, and PUBACK latency.
// Usage: npm run bench:ingest [-- devices seconds]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simulate, type SimStats } from '../packages/server/src/sim/simulator.ts';
import type { SimDevice } from '../packages/server/src/sim/values.ts';

const root = path.resolve(import.meta.dirname, '..');
const devices = Number(process.argv[2] ?? 500);
const seconds = Number(process.argv[3] ?? 15);

function start(
  args: string[],
  env: Record<string, string>,
  pattern: RegExp,
): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c) => {
      out += c;
      if (pattern.test(out)) resolve({ child, out: () => out });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(1) : '-';
};
const row = (name: string, s: SimStats) =>
  `${name.padEnd(40)} ${String(Math.round(s.acked / seconds)).padStart(7)} msg/s   PUBACK p50 ${pct(s.ackMs, 50)} ms  p95 ${pct(s.ackMs, 95)} ms  failed ${s.failed}`;

// The console: register the devices through the import call, then read their tokens.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-bench-ingest-'));
const server = await start(
  [path.join(root, 'packages/server/src/main.ts')],
  {
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'bench-password',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    MQTT_URL: '',
    REDIS_URL: '',
  },
  /MQTT on port (\d+)/,
);
const base = /console on (http:\/\/\S+?)(,|\s|$)/.exec(server.out())![1]!;
const mqttPort = /MQTT on port (\d+)/.exec(server.out())![1]!;
const login = (await (
  await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'filter=admin&password=bench-password',
  })
).json()) as { data: { auth_token: string } };
const token = login.data.auth_token;
const csv = ['序列号,描述', ...Array.from({ length: devices }, (_, i) => `BENCH-GW-${i},bench`)].join('\n');
const imp = (await (
  await fetch(`${base}/api/v1/gateway/import-gateways`, {
    method: 'POST',
    headers: { 'x-token': token, 'content-type': 'text/csv' },
    body: csv,
  })
).json()) as { code: number; data: { imported: number } };
if (imp.code !== 200) throw new Error(`import failed: ${JSON.stringify(imp)}`);
const sims: SimDevice[] = [];
for (let page = 1; sims.length < devices; page++) {
  const r = (await (
    await fetch(`${base}/api/v1/gateway/gateways?page=${page}&page_size=100&keywords=BENCH-GW-`, {
      headers: { 'x-token': token },
    })
  ).json()) as { data: { list: { ser_num: string; token: string }[] } };
  if (!r.data.list.length) break;
  for (const d of r.data.list) sims.push({ ser_num: d.ser_num, token: d.token, kind: 'gateway' });
}

const bare = await start([path.join(root, 'bench/aedes-bare.ts')], {}, /listening on (\S+)/);
const bareUrl = /listening on (\S+)/.exec(bare.out())![1]!;
const baseline = await simulate({ url: bareUrl, devices: sims, rate: 0, durationMs: seconds * 1000 });
bare.child.kill();

const ingest = await simulate({
  url: `mqtt://127.0.0.1:${mqttPort}`,
  devices: sims,
  rate: 0,
  durationMs: seconds * 1000,
});
const stored = (await (
  await fetch(`${base}/api/v1/gateway/gateways?page=1&page_size=10&keywords=BENCH-GW-`, {
    headers: { 'x-token': token },
  })
).json()) as { data: { total: number } };
server.child.kill('SIGTERM');
await new Promise((r) => server.child.once('exit', r));
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(
  `${devices} devices over MQTT, QoS 1, ${seconds} s each, flat out (${stored.data.total} registered)`,
);
console.log(row('bare aedes, ack at once (baseline)', baseline));
console.log(row('console, ack after commit (PGlite)', ingest));
console.log(`ratio ${(ingest.acked / baseline.acked).toFixed(2)}`);
