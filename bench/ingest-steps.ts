// What each ingest step costs: the pipeline alone (no MQTT, no HTTP) writes the same kind of
// batches — one simulated report from each of `devices` devices per batch, as flat-out
// devices that wait for their PUBACK produce — with different handler lists, in one run:
// none (history and latest state only: the baseline), every registered handler, and every
// handler but one, for each handler that takes the kind's reports. Sets alternate round by
// round so load on the machine falls on all alike. Prints msg/s and the ratio to the
// baseline, and where the full list spends its batch time, statement by statement.
// Usage: npm run bench:ingest-steps [-- devices rounds kind]  (defaults 500 10 gateway;
// PGlite in its worker thread, or a scratch database on the PostgreSQL of DATABASE_URL)
import crypto from 'node:crypto';
import pg from 'pg';
import type { ReportKind } from '../packages/core/src/index.ts';
import { openDb, type Db, type Queryable } from '../packages/server/src/db/index.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import type { DeviceRef } from '../packages/server/src/ingest/directory.ts';
import type { IngestHandler } from '../packages/server/src/ingest/handler.ts';
import { INGEST_HANDLERS } from '../packages/server/src/ingest/handlers/index.ts';
import { IngestPipeline } from '../packages/server/src/ingest/pipeline.ts';
import { ValueModel } from '../packages/server/src/sim/values.ts';

const devices = Number(process.argv[2] ?? 500);
const rounds = Number(process.argv[3] ?? 10);
const kind = (process.argv[4] ?? 'gateway') as ReportKind;

const baseUrl = process.env.DATABASE_URL;
const scratch = `se_bench_${crypto.randomBytes(4).toString('hex')}`;
let databaseUrl: string | undefined;
if (baseUrl) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${scratch}`);
  await admin.end();
  const u = new URL(baseUrl);
  u.pathname = `/${scratch}`;
  databaseUrl = u.toString();
}
const inner = await openDb({ databaseUrl, dataDir: null });
await migrate(inner);

// Time spent per statement (its first words), inside batch transactions.
const spent = new Map<string, { n: number; ms: number }>();
const timed = (q: Queryable): Queryable => ({
  async query<T>(sql: string, params?: readonly unknown[]) {
    const t = performance.now();
    try {
      return await q.query<T>(sql, params);
    } finally {
      const key = sql.replace(/\s+/g, ' ').trim().slice(0, 60);
      const s = spent.get(key) ?? { n: 0, ms: 0 };
      s.n++;
      s.ms += performance.now() - t;
      spent.set(key, s);
    }
  },
});
const db: Db = { ...inner, transaction: (fn) => inner.transaction((tx) => fn(timed(tx))) };

const rows = await inner.query<{ id: number; ser_num: string }>(
  `INSERT INTO devices (kind, ser_num, token, "desc", location)
   SELECT $1, 'STEPS-' || g, 'tk' || g, '基准设备' || g, '浙江省杭州市西湖区' || g
     FROM generate_series(1, $2) g RETURNING id, ser_num`,
  [kind, devices],
);
const fleet = rows.map((r) => ({
  ref: {
    id: r.id,
    kind,
    ser_num: r.ser_num,
    token: '',
    gateway_id: null,
    industrial_type: null,
  } satisfies DeviceRef,
  model: new ValueModel({ kind, ser_num: r.ser_num, token: '' }),
}));

const mine = (h: IngestHandler) => h.kinds === 'all' || h.kinds.includes(kind);
const sets: { name: string; handlers: IngestHandler[]; ms: number; msgs: number }[] = [
  { name: 'no handlers (baseline)', handlers: [], ms: 0, msgs: 0 },
  { name: 'INGEST_HANDLERS', handlers: [...INGEST_HANDLERS], ms: 0, msgs: 0 },
  ...INGEST_HANDLERS.filter(mine).map((h) => ({
    name: `all but ${h.name}`,
    handlers: INGEST_HANDLERS.filter((x) => x !== h),
    ms: 0,
    msgs: 0,
  })),
];
const log = { warn: () => {}, info: () => {}, error: console.error } as never;
let ts = Date.now() - 2 * 3_600_000;
let seq = 0;
const full = new Map<string, { n: number; ms: number }>();
// One warm-up round per set, then `rounds` measured ones: a batch of one report per device.
for (let r = 0; r <= rounds; r++)
  for (const set of sets) {
    const pipeline = new IngestPipeline(db, log, undefined, set.handlers);
    ts += 1000;
    spent.clear();
    const t = performance.now();
    const out = await Promise.all(
      fleet.map((d) =>
        pipeline.submit(d.ref, { type: 'report', id: `s${seq++}`, ts, data: d.model.next(ts) }),
      ),
    );
    const ms = performance.now() - t;
    await pipeline.close();
    if (out.some((o) => !o.ok)) throw new Error(`${set.name}: a report was refused`);
    if (r === 0) continue;
    set.ms += ms;
    set.msgs += fleet.length;
    if (set.name === 'INGEST_HANDLERS')
      for (const [k, v] of spent) {
        const f = full.get(k) ?? { n: 0, ms: 0 };
        f.n += v.n;
        f.ms += v.ms;
        full.set(k, f);
      }
  }
await inner.close();
if (baseUrl) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  await admin.end();
}

const rate = (s: (typeof sets)[number]) => (s.msgs * 1000) / s.ms;
const base = rate(sets[0]!);
console.log(
  `${devices} ${kind} devices, one report each per batch, ${rounds} batches per set (${baseUrl ? 'PostgreSQL' : 'PGlite worker'})`,
);
for (const s of sets)
  console.log(
    `${s.name.padEnd(34)} ${String(Math.round(rate(s))).padStart(7)} msg/s  ${(rate(s) / base).toFixed(2)} of the baseline`,
  );
const total = [...full.values()].reduce((a, b) => a + b.ms, 0);
console.log('\nINGEST_HANDLERS, batch time by statement:');
for (const [k, v] of [...full].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8))
  console.log(`${((v.ms * 100) / total).toFixed(0).padStart(4)} %  ${String(v.n).padStart(5)}×  ${k}`);
process.exit(0);
