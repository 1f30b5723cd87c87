// Device ingest over real MQTT, QoS 1, acknowledged only after commit (PGlite, embedded
// broker) against a bare aedes that acknowledges at once, with the same simulated devices
// in the same run. Prints msg/s of each, the ratio, and PUBACK latency.
// Usage: npm run bench:ingest [-- devices seconds]
import path from 'node:path';
import { ConsoleApi, ensureDevices } from '../packages/server/src/sim/fleet.ts';
import { simulate, type SimStats } from '../packages/server/src/sim/simulator.ts';
import { BENCH_PASSWORD, root, startConsole, startScript } from './server.ts';

const devices = Number(process.argv[2] ?? 500);
const seconds = Number(process.argv[3] ?? 15);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(1) : '-';
};
const row = (name: string, s: SimStats) =>
  `${name.padEnd(40)} ${String(Math.round(s.acked / seconds)).padStart(7)} msg/s   PUBACK p50 ${pct(s.ackMs, 50)} ms  p95 ${pct(s.ackMs, 95)} ms  failed ${s.failed}`;

// The console: devices registered through its import call, as an operator would.
const server = await startConsole();
const api = await new ConsoleApi(server.http).login('admin', BENCH_PASSWORD);
const fleet = await ensureDevices(api, 'gateway', 'BENCH-GW', devices, () => 'bench');

const bare = await startScript(path.join(root, 'bench/aedes-bare.ts'), {}, /listening on (\S+)/);
const baseline = await simulate({ url: bare.match[1]!, devices: fleet, rate: 0, durationMs: seconds * 1000 });
bare.child.kill();

const ingest = await simulate({ url: server.mqtt, devices: fleet, rate: 0, durationMs: seconds * 1000 });
await server.stop();

console.log(`${devices} devices over MQTT, QoS 1, ${seconds} s each, flat out`);
console.log(row('bare aedes, ack at once (baseline)', baseline));
console.log(row('console, ack after commit (PGlite)', ingest));
console.log(`ratio ${(ingest.acked / baseline.acked).toFixed(2)}`);
