// Durability under kill -9: simulated devices publish QoS 1 flat out; the server is killed
// with SIGKILL mid-load, restarted on the same data, and every message whose PUBACK a device
// received is looked up. Prints acknowledged, found and missing (goal: 0 missing).
// Usage: npm run bench:crash [-- devices seconds-before-kill]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { ConsoleApi, ensureDevices } from '../packages/server/src/sim/fleet.ts';
import { simulate } from '../packages/server/src/sim/simulator.ts';
import { BENCH_PASSWORD, startConsole } from './server.ts';

const devices = Number(process.argv[2] ?? 200);
const killAfter = Number(process.argv[3] ?? 6);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-bench-crash-'));

const first = await startConsole({ dataDir, env: { LOG_LEVEL: 'fatal' } });
const api = await new ConsoleApi(first.http).login('admin', BENCH_PASSWORD);
const fleet = await ensureDevices(api, 'gateway', 'CRASH-GW', devices, () => 'crash');
const acked = new Set<string>();
const load = simulate({
  url: first.mqtt,
  devices: fleet,
  rate: 0,
  durationMs: (killAfter + 2) * 1000,
  onAck: (ser, id) => acked.add(`${ser}|${id}`),
});
await new Promise((r) => setTimeout(r, killAfter * 1000));
first.child.kill('SIGKILL');
const killedAt = acked.size;
// The devices' in-flight publishes never complete now; the run does not wait for them.
void load.catch(() => {});
await new Promise((r) => setTimeout(r, 500));

// Restart on the same data: the server must come up and keep serving.
const second = await startConsole({ dataDir, env: { LOG_LEVEL: 'fatal' } });
await second.stop(true);

const db = await PGlite.create(path.join(dataDir, 'pg'));
const rows = await db.query<{ k: string }>(
  `SELECT d.ser_num || '|' || t.msg_id AS k FROM telemetry t JOIN devices d ON d.id = t.device_id`,
);
await db.close();
const stored = new Set(rows.rows.map((r) => r.k));
const missing = [...acked].filter((k) => !stored.has(k));
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(`${devices} devices, SIGKILL after ${killAfter} s of flat-out QoS 1 load (PGlite)`);
console.log(
  `acknowledged ${acked.size} (${killedAt} by the kill), stored ${stored.size}, acknowledged but missing ${missing.length}`,
);
process.exit(missing.length ? 1 : 0);
