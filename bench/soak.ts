// Sustained load: N simulated devices at a fixed rate over MQTT (QoS 1) while a browser-like
// websocket client watches every device of the kind. Prints the server's CPU share and
// memory growth, PUBACK latency and report → browser latency.
// Usage: npm run bench:soak [-- devices rate seconds]   (the run: 5000 1000 300)
import fs from 'node:fs';
import WebSocket from 'ws';
import { ConsoleApi, ensureDevices } from '../packages/server/src/sim/fleet.ts';
import { simulate } from '../packages/server/src/sim/simulator.ts';
import { BENCH_PASSWORD, startConsole } from './server.ts';

const [devices, rate, seconds] = [
  Number(process.argv[2] ?? 1000),
  Number(process.argv[3] ?? 1000),
  Number(process.argv[4] ?? 30),
];
const server = await startConsole();
const { http, mqtt: mqttUrl, child } = server;

const api = await new ConsoleApi(http).login('admin', BENCH_PASSWORD);
const token = (await (
  await fetch(`${http}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `filter=admin&password=${BENCH_PASSWORD}`,
  })
).json()) as { data: { auth_token: string } };
const fleet = await ensureDevices(api, 'gateway', 'SOAK-GW', devices, () => 'soak');

// The browser: subscribed to every gateway; a push carries the report's device time.
const pushLag: number[] = [];
const ws = new WebSocket(`${http.replace('http', 'ws')}/ws`);
await new Promise((r) => ws.once('open', r));
ws.on('message', (m) => {
  const msg = JSON.parse(m.toString()) as { type: number; channel?: string; data: { time: number } };
  if (msg.type === 3 && msg.channel === 'devices') pushLag.push(Date.now() - msg.data.time);
});
ws.send(JSON.stringify({ v: 1, type: 1, id: '1', action: 'auth', data: { token: token.data.auth_token } }));
ws.send(
  JSON.stringify({
    v: 1,
    type: 1,
    id: '2',
    action: 'subscribe',
    data: { channel: 'devices', kind: 'gateway' },
  }),
);

function proc() {
  const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rss = Number(fs.readFileSync(`/proc/${child.pid}/statm`, 'utf8').split(' ')[1]) * 4096;
  return { ticks, rss };
}
const hz = 100;
await new Promise((r) => setTimeout(r, 1000));
const before = proc();
const t0 = Date.now();
const rssSamples: number[] = [];
const sampler = setInterval(() => rssSamples.push(proc().rss), 1000);
const stats = await simulate({ url: mqttUrl, devices: fleet, rate, durationMs: seconds * 1000 });
clearInterval(sampler);
const after = proc();
const wall = (Date.now() - t0) / 1000;
ws.close();
await server.stop();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]!) : NaN;
};
const mb = (b: number) => `${Math.round(b / 1048576)} MB`;
console.log(`${devices} devices, ${rate} msg/s for ${seconds} s over MQTT QoS 1 (PGlite, embedded broker)`);
console.log(
  `acknowledged ${stats.acked} (${Math.round(stats.acked / seconds)} msg/s), failed ${stats.failed}`,
);
console.log(
  `server CPU ${(((after.ticks - before.ticks) / hz / wall) * 100).toFixed(0)}% of one core; RSS ${mb(before.rss)} → ${mb(after.rss)} (max ${mb(Math.max(...rssSamples))})`,
);
console.log(
  `PUBACK p50 ${pct(stats.ackMs, 0.5)} ms, p95 ${pct(stats.ackMs, 0.95)} ms, p99 ${pct(stats.ackMs, 0.99)} ms`,
);
console.log(
  `report → browser p50 ${pct(pushLag, 0.5)} ms, p95 ${pct(pushLag, 0.95)} ms (${pushLag.length} pushes; goal p95 < 1000 ms)`,
);
