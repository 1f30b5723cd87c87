// Authenticated GET /api/v1/auth/get-permission on the real server (PGlite) against a bare
// Fastify hello on this machine, in the same run; prints requests/s of each and the ratio.
// Usage: npm run bench:api [-- seconds]
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_PASSWORD, root, startConsole, startScript } from './server.ts';

const seconds = Number(process.argv[2] ?? 10);

async function load(url: string, headers: Record<string, string> = {}) {
  // Warm up (JIT, caches), then measure.
  await autocannon({ url, connections: 10, duration: 2, headers });
  const r = await autocannon({ url, connections: 10, duration: seconds, headers });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r;
}

const hello = await startScript(path.join(root, 'bench/hello.ts'), {}, /listening on (\S+)/);
const base = await load(`${hello.match[1]}/hello`);
hello.child.kill();

const server = await startConsole();
const login = (await (
  await fetch(`${server.http}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `filter=admin&password=${BENCH_PASSWORD}`,
  })
).json()) as { code: number; data: { auth_token: string } };
if (login.code !== 200) throw new Error(`login failed: ${JSON.stringify(login)}`);
const token = login.data.auth_token;
const probe = (await (
  await fetch(`${server.http}/api/v1/auth/get-permission`, { headers: { 'x-token': token } })
).json()) as {
  code: number;
};
if (probe.code !== 200) throw new Error(`get-permission failed: ${JSON.stringify(probe)}`);
const api = await load(`${server.http}/api/v1/auth/get-permission`, { 'x-token': token });
await server.stop();

const row = (name: string, r: autocannon.Result) =>
  `${name.padEnd(34)} ${String(Math.round(r.requests.average)).padStart(7)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms`;
console.log(row('bare Fastify hello (baseline)', base));
console.log(row('get-permission (authenticated)', api));
console.log(`ratio ${(api.requests.average / base.requests.average).toFixed(2)} (goal ≥ 0.40)`);
