// Authenticated GET /api/v1/auth/get-permission on the real server (PGlite) against a bare
// Fastify hello on this machine, in the same run; prints requests/s of each and the ratio.
// Usage: npm run bench:api [-- seconds]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.argv[2] ?? 10);

function start(
  args: string[],
  env: Record<string, string>,
  pattern: RegExp,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const m = pattern.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

async function load(url: string, headers: Record<string, string> = {}) {
  // Warm up (JIT, caches), then measure.
  await autocannon({ url, connections: 10, duration: 2, headers });
  const r = await autocannon({ url, connections: 10, duration: seconds, headers });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r;
}

const hello = await start([path.join(root, 'bench/hello.ts')], {}, /listening on (\S+)/);
const base = await load(`${hello.url}/hello`);
hello.child.kill();

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-bench-'));
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
  /console on (http:\/\/\S+?)(,|\s|$)/,
);
const login = (await (
  await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'filter=admin&password=bench-password',
  })
).json()) as { code: number; data: { auth_token: string } };
if (login.code !== 200) throw new Error(`login failed: ${JSON.stringify(login)}`);
const token = login.data.auth_token;
const probe = (await (
  await fetch(`${server.url}/api/v1/auth/get-permission`, { headers: { 'x-token': token } })
).json()) as {
  code: number;
};
if (probe.code !== 200) throw new Error(`get-permission failed: ${JSON.stringify(probe)}`);
const api = await load(`${server.url}/api/v1/auth/get-permission`, { 'x-token': token });
server.child.kill('SIGTERM');
await new Promise((r) => server.child.once('exit', r));
fs.rmSync(dataDir, { recursive: true, force: true });

const row = (name: string, r: autocannon.Result) =>
  `${name.padEnd(34)} ${String(Math.round(r.requests.average)).padStart(7)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms`;
console.log(row('bare Fastify hello (baseline)', base));
console.log(row('get-permission (authenticated)', api));
console.log(`ratio ${(api.requests.average / base.requests.average).toFixed(2)} (goal ≥ 0.40)`);
