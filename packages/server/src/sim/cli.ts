// `npm run simulate -- --url http://localhost:8080 --password <admin password> [--devices 1000]
//   [--rate 1000] [--duration 60] [--mqtt mqtt://localhost:1883] [--kind gateway] [--user admin]`
// Registers simulated devices on any console (through its import call) and drives them over
// MQTT, printing sent / acknowledged per second and the PUBACK latency at the end.
import { parseArgs } from 'node:util';
import { DEVICE_KINDS, type DeviceKind } from '@se/core';
import { ConsoleApi, ensureDevices } from './fleet.ts';
import { simulate } from './simulator.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:8080' },
    user: { type: 'string', default: 'admin' },
    password: { type: 'string' },
    devices: { type: 'string', default: '100' },
    rate: { type: 'string', default: '100' },
    duration: { type: 'string', default: '60' },
    mqtt: { type: 'string' },
    kind: { type: 'string', default: 'gateway' },
  },
});
if (!values.password) {
  console.error('--password is required (the password of --user on the target console)');
  process.exit(2);
}
const kind = values.kind as DeviceKind;
if (!(kind in DEVICE_KINDS)) {
  console.error(`--kind must be one of ${Object.keys(DEVICE_KINDS).join(', ')}`);
  process.exit(2);
}
const n = Number(values.devices);
const api = await new ConsoleApi(values.url!).login(values.user!, values.password);
const fleet = await ensureDevices(api, kind, `SIM-${kind.toUpperCase()}`, n, (i) => `模拟设备 ${i + 1}`);
const mqttUrl = values.mqtt ?? `mqtt://${new URL(values.url!).hostname}:1883`;
console.log(`${fleet.length} ${DEVICE_KINDS[kind].label} registered; driving them on ${mqttUrl}`);
let last = 0;
const stats = await simulate(
  {
    url: mqttUrl,
    devices: fleet.slice(0, n),
    rate: Number(values.rate),
    durationMs: Number(values.duration) * 1000,
  },
  (s) => {
    console.log(
      `connected ${s.connected}  sent ${s.sent}  acked ${s.acked} (+${s.acked - last}/s)  failed ${s.failed}`,
    );
    last = s.acked;
  },
);
const sorted = [...stats.ackMs].sort((a, b) => a - b);
const p = (q: number) => sorted[Math.floor(q * (sorted.length - 1))]?.toFixed(1) ?? '-';
console.log(
  `done: ${stats.acked} acknowledged, ${stats.failed} failed; PUBACK p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, p99 ${p(0.99)} ms`,
);
