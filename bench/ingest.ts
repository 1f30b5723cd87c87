// Device ingest over real MQTT, QoS 1, acknowledged only after commit (PGlite, embedded
// broker) against a bare aedes that acknowledges at once, with the same simulated devices
// in the same run. Prints msg/s of each, the ratio, and PUBACK latency.
//
// Then a reconnect storm: the console restarts, and `storm` devices connect all at once and
// subscribe to their down topic while the steady devices keep reporting flat out. Prints when the median / p99 / last device got its
// CONNACK, and the acknowledged msg/s meanwhile against before the storm; the same storm
// against the bare aedes is the baseline.
// Usage: npm run bench:ingest [-- devices seconds storm]
import fs from 'node:fs';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { TOPIC } from '@se/core';
import { ConsoleApi, ensureDevices } from '../packages/server/src/sim/fleet.ts';
import { simulate, type SimStats } from '../packages/server/src/sim/simulator.ts';
import type { SimDevice } from '../packages/server/src/sim/values.ts';
import { BENCH_PASSWORD, root, startConsole, startScript } from './server.ts';

const devices = Number(process.argv[2] ?? 500);
const seconds = Number(process.argv[3] ?? 15);
const stormSize = Number(process.argv[4] ?? 5000);
/** Steady reporters during the storm, and the seconds of load before it. */
const stormSteady = Math.min(devices, 200);
const QUIET_S = 4;
const STORM_LIMIT_MS = 60_000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const row = (name: string, s: SimStats) =>
  `${name.padEnd(40)} ${String(Math.round(s.acked / seconds)).padStart(7)} msg/s   PUBACK p50 ${pct(s.ackMs, 50).toFixed(1)} ms  p95 ${pct(s.ackMs, 95).toFixed(1)} ms  failed ${s.failed}`;

/** TcpExt ListenOverflows of this machine (Linux; 0 elsewhere). */
function listenOverflows() {
  try {
    const lines = fs.readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const i = lines.findIndex((l) => l.startsWith('TcpExt:'));
    const at = lines[i]!.split(' ').indexOf('ListenOverflows');
    return Number(lines[i + 1]!.split(' ')[at]) || 0;
  } catch {
    return 0;
  }
}

interface StormResult {
  /** Storm start → CONNACK, per admitted device. */
  admitMs: number[];
  /** Storm start → SUBACK of the last device. */
  subscribedMs: number;
  /** Reconnect attempts, and devices that got a CONNACK / SUBACK within STORM_LIMIT_MS. */
  refused: number;
  subscribed: number;
  errors: number;
  /** Handshakes the kernel dropped meanwhile: its accept queue (net.core.somaxconn) was full. */
  overflows: number;
  quietRate: number;
  stormRate: number;
}

/**
 * `steady` devices report flat out; after QUIET_S seconds the `storm` devices connect at
 * once (retrying as firmware does if refused) and subscribe to their down topic.
 */
async function storm(url: string, steady: SimDevice[], stormers: SimDevice[]): Promise<StormResult> {
  const samples: { at: number; acked: number }[] = [];
  let release!: () => void;
  const loaded = new Promise<void>((r) => (release = r));
  const rateBetween = (a: number, b: number) => {
    const inside = samples.filter((s) => s.at >= a && s.at <= b);
    if (inside.length < 2) return NaN;
    const f = inside[0]!;
    const l = inside.at(-1)!;
    return ((l.acked - f.acked) * 1000) / (l.at - f.at);
  };
  const stop = new AbortController();
  const load = simulate(
    { url, devices: steady, rate: 0, durationMs: 300_000, connectConcurrency: 50, signal: stop.signal },
    (s) => {
      samples.push({ at: Date.now(), acked: s.acked });
      if (samples.length === QUIET_S + 1) release();
    },
  );
  await loaded;
  const overflows0 = listenOverflows();
  const t0 = performance.now();
  const wall0 = Date.now();
  let refused = 0;
  const admitMs: number[] = [];
  const clients: MqttClient[] = [];
  const errors = new Map<string, number>();
  let subscribed = 0;
  await Promise.race([
    new Promise((r) => setTimeout(r, STORM_LIMIT_MS)),
    Promise.all(
      stormers.map(
        (d) =>
          new Promise<void>((resolve) => {
            const c = mqtt.connect(url, {
              clientId: d.ser_num,
              username: d.ser_num,
              password: d.token,
              protocolVersion: 4,
              reconnectPeriod: 1000,
              connectTimeout: 30_000,
              keepalive: 60,
            });
            clients.push(c);
            c.on('error', (err) => errors.set(err.message, (errors.get(err.message) ?? 0) + 1));
            c.on('reconnect', () => refused++);
            c.once('connect', () => {
              admitMs.push(performance.now() - t0);
              c.subscribe(TOPIC.down(d.ser_num), { qos: 1 }, () => {
                subscribed++;
                resolve();
              });
            });
          }),
      ),
    ),
  ]);
  for (const [m, n] of errors) console.error(`storm: ${n} × ${m}`);
  const subscribedMs = performance.now() - t0;
  const overflows = listenOverflows() - overflows0;
  const stormEnd = wall0 + Math.max(pct(admitMs, 100), 2000);
  // One more sample past the storm's end, then stop watching.
  while (samples.at(-1)!.at < stormEnd + 1000) await new Promise((r) => setTimeout(r, 200));
  const quietRate = rateBetween(samples[0]!.at, wall0);
  const stormRate = rateBetween(wall0 - 1000, stormEnd + 1000);
  stop.abort();
  await Promise.all([load, ...clients.map((c) => c.endAsync(true))]);
  return {
    admitMs,
    subscribedMs,
    subscribed,
    overflows,
    refused,
    quietRate,
    stormRate,
    errors: [...errors.values()].reduce((a, b) => a + b, 0),
  };
}

const stormRow = (name: string, r: StormResult) => {
  const admitted =
    r.admitMs.length === stormSize
      ? `last ${ms(pct(r.admitMs, 100))}`
      : `only ${r.admitMs.length} of ${stormSize} within ${STORM_LIMIT_MS / 1000} s`;
  return (
    `${name.padEnd(40)} admitted median ${ms(pct(r.admitMs, 50))}  p99 ${ms(pct(r.admitMs, 99))}  ${admitted}\n` +
    `${''.padEnd(40)} subscribed ${r.subscribed} (all by ${ms(r.subscribedMs)}), errors ${r.errors}, reconnects ${r.refused}, handshakes dropped by the kernel ${r.overflows}\n` +
    `${''.padEnd(40)} acked ${Math.round(r.quietRate)} msg/s before the storm, ${Math.round(r.stormRate)} msg/s during it (${(r.stormRate / r.quietRate).toFixed(2)})`
  );
};

// The console: devices registered through its import call, as an operator would. Caps per
// address raised: every simulated device connects from 127.0.0.1.
const env = {
  MQTT_MAX_CONNECTIONS_PER_IP: String(stormSize + devices + 1000),
  MQTT_MAX_PENDING_PER_IP: String(stormSize + 1000),
  MQTT_CONNECT_TIMEOUT: '60',
};
let server = await startConsole({ env });
const api = await new ConsoleApi(server.http).login('admin', BENCH_PASSWORD);
const fleet = await ensureDevices(api, 'gateway', 'BENCH-GW', devices, () => 'bench');
const stormFleet: SimDevice[] = [];
for (let i = 0; i < stormSize; i += 1000) {
  const part = await ensureDevices(
    api,
    'gateway',
    `STORM${i / 1000}`,
    Math.min(1000, stormSize - i),
    () => 'storm',
  );
  stormFleet.push(...part);
}
const steady = fleet.slice(0, stormSteady);

const bare = await startScript(path.join(root, 'bench/aedes-bare.ts'), {}, /listening on (\S+)/);
const baseline = await simulate({ url: bare.match[1]!, devices: fleet, rate: 0, durationMs: seconds * 1000 });
const bareStorm = stormSize ? await storm(bare.match[1]!, steady, stormFleet) : null;
bare.child.kill();

const ingest = await simulate({ url: server.mqtt, devices: fleet, rate: 0, durationMs: seconds * 1000 });
// The storm comes after a restart: every device the console knew is coming back.
if (stormSize) {
  await server.stop(true);
  server = await startConsole({ dataDir: server.dataDir, env });
}
const consoleStorm = stormSize ? await storm(server.mqtt, steady, stormFleet) : null;
await server.stop();

console.log(`${devices} devices over MQTT, QoS 1, ${seconds} s each, flat out`);
console.log(row('bare aedes, ack at once (baseline)', baseline));
console.log(row('console, ack after commit (PGlite)', ingest));
console.log(`ratio ${(ingest.acked / baseline.acked).toFixed(2)}`);
if (bareStorm && consoleStorm) {
  console.log(`\nreconnect storm: ${stormSize} devices at once while ${steady.length} report flat out`);
  console.log(stormRow('bare aedes (baseline)', bareStorm));
  console.log(stormRow('console (PGlite)', consoleStorm));
  console.log(
    `ratio last admitted console/bare ${(pct(consoleStorm.admitMs, 100) / pct(bareStorm.admitMs, 100)).toFixed(1)}  (goal: last ≤ 5000 ms)`,
  );
}
process.exit(0);
