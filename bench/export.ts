// Telemetry export of the download centre at the scale: N devices × D days of one
// report a minute (100 × 31 ≈ 4.46 M rows), seeded straight into the telemetry table, then
// exported as a background job (keyset pages → CSV file). The baseline, in the same run, is
// the plain SELECT of the same rows by the same keyset pages, with nothing formatted or
// written. Prints both times, the ratio, rows/s and the process's peak RSS growth.
// Usage: npm run bench:export [-- devices days]
// (TEST_DB=postgres DATABASE_URL=postgres://… runs it on PostgreSQL instead of PGlite.)
import fs from 'node:fs';
import { PERMISSION } from '../packages/core/src/index.ts';
import { testApp } from '../packages/server/src/test/harness.ts';
import { deviceReadings } from '../packages/server/src/modules/downloads/exports/telemetry.ts';
import { runnerOf } from '../packages/server/src/modules/downloads/runner.ts';
import { create } from '../packages/server/src/modules/downloads/service.ts';
import { storedFile } from '../packages/server/src/modules/downloads/storage.ts';

const devices = Number(process.argv[2] ?? 100);
const days = Number(process.argv[3] ?? 31);
const MB = 1024 * 1024;

const t = await testApp();
const db = t.ctx.db;
console.log(`engine: ${db.kind}; ${devices} devices × ${days} days × 1440 reports`);

// Seed: the same rows the ingest pipeline would store, one INSERT … SELECT per device.
const t0 = Date.now();
const ids = (
  await db.query<{ id: number }>(
    `INSERT INTO devices (kind, ser_num, "desc", token)
     SELECT 'gateway', 'BENCH-' || lpad(g::text, 4, '0'), '基准公厕' || g, 'tk' || g FROM generate_series(1, $1) g
     RETURNING id`,
    [devices],
  )
).map((r) => r.id);
const start = '2026-01-01 00:00:00';
const startTs = '2026-01-01 00:00:00+08';
const end = new Date(Date.parse('2026-01-01T00:00:00+08:00') + days * 86_400_000);
const endLocal = new Date(end.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
for (const [i, id] of ids.entries()) {
  await db.query(
    `INSERT INTO telemetry (device_id, ts, msg_id, data)
     SELECT $1, timestamptz '${startTs}' + g * interval '1 minute', 'm' || g,
            jsonb_build_object('nh3', round(((g % 97) / 50.0)::numeric, 2), 'h2s', round(((g % 13) / 200.0)::numeric, 3),
                               'voc', g % 7, 'pm25', 30 + g % 50, 'co2', 450 + g % 900, 'smk_alarm', 0, 'alarm', 0,
                               'male_occupy', g % 6, 'female_occupy', g % 8)
       FROM generate_series(0, $2 - 1) g`,
    [id, days * 1440],
  );
  if ((i + 1) % 10 === 0) process.stdout.write(`\rseeded ${i + 1}/${devices} devices`);
}
await db.query('ANALYZE telemetry');
const total = devices * days * 1440;
console.log(`\nseeded ${total.toLocaleString()} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
const measure = async (fn: () => Promise<number>) => {
  global.gc?.();
  const before = process.memoryUsage().rss;
  peak = before;
  const s = performance.now();
  const rows = await fn();
  return { rows, ms: performance.now() - s, growth: (peak - before) / MB };
};

// Baseline: the rows read page by page, counted, nothing else.
const iso = (local: string) => new Date(Date.parse(`${local.replace(' ', 'T')}+08:00`)).toISOString();
const base = await measure(async () => {
  let n = 0;
  for (const id of ids)
    for await (const page of deviceReadings(t.ctx, id, iso(start), iso(endLocal))) n += page.length;
  return n;
});

// The export as a user starts it: a job, run in the background by the runner.
const runner = runnerOf(t.ctx);
await runner.start({ pollMs: 200 });
const admin = (await db.query<{ id: number }>(`SELECT id FROM users WHERE user_name = 'admin'`))[0]!.id;
let file = '';
const exp = await measure(async () => {
  const job = await create(
    t.ctx,
    { id: admin, userName: 'admin', permission: PERMISSION.develop, sessionId: 0 },
    { name: 'telemetry', params: { ids, start, end: endLocal } },
  );
  await runner.idle(3_600_000);
  const row = (
    await db.query<{ rows_done: number; status: string; error: string; stored_path: string }>(
      `SELECT rows_done, status, error, stored_path FROM downloads WHERE id = $1`,
      [job.id],
    )
  )[0]!;
  if (row.status !== 'done') throw new Error(`export ${row.status}: ${row.error}`);
  file = storedFile(t.ctx, row.stored_path);
  return row.rows_done;
});
clearInterval(sample);

const size = fs.statSync(file).size;
const line = (name: string, r: { rows: number; ms: number; growth: number }) =>
  `${name.padEnd(34)} ${r.rows.toLocaleString().padStart(10)} rows  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${Math.round(
    r.rows / (r.ms / 1000),
  )
    .toLocaleString()
    .padStart(8)} rows/s  peak RSS +${r.growth.toFixed(0)} MB`;
console.log(line('baseline: keyset SELECT only', base));
console.log(line('export job: SELECT → CSV file', exp));
console.log(`CSV ${(size / MB).toFixed(0)} MB; export / baseline = ${(exp.ms / base.ms).toFixed(2)}×`);
if (exp.rows !== total || base.rows !== total) throw new Error(`expected ${total} rows`);
await t.close();
