// The work-order list at the scale (issue 18): N gateways imported by a dealer, the 50
// newest bound to its customer, then W work orders on them seeded in bulk (one
// generate_series INSERT, statuses, faults, assignees and times spread over a year), the
// console stopped meanwhile. Then autocannon at C connections as the dealer (sees every
// record) and the customer (its 50 devices' records): page 1, page 200, each filter of
// /maintenance-records (status, fault type, assignee, device, overdue, time, a serial number
// as keyword, a record number).
// Each p99 is printed against the goal (100 ms) and as a ratio to the same run's baseline: one
// device fetched by id through the same HTTP stack.
// Embedded PGlite by default; on PostgreSQL with DATABASE_URL set (a scratch database is
// created on that server and dropped at the end).
// BENCH_KEEP_DB=1 keeps the scratch database (to EXPLAIN the cases).
// Usage: [DATABASE_URL=postgres://…] npm run bench:maintenance [-- orders devices seconds connections]
import crypto from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { DEVICE_KINDS, MAINTENANCE_API } from '../packages/core/src/index.ts';
import { bindAll } from '../packages/server/src/sim/fleet.ts';
import { dealerAndCustomer, startConsole } from './server.ts';
import { analyzeAll, openBenchDb } from './seed.ts';

const arg = (i: number, d: number) => Number(process.argv[i] ?? d);
const orders = arg(2, 1_000_000);
const devices = arg(3, 10_000);
const seconds = arg(4, 5);
const connections = arg(5, 50);
const GOAL_MS = 100;
const k = DEVICE_KINDS.gateway;

const pgBase = process.env.DATABASE_URL || '';
let databaseUrl = '';
let scratch = '';
if (pgBase) {
  scratch = `se_bench_mt_${crypto.randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: pgBase });
  await c.connect();
  await c.query(`CREATE DATABASE ${scratch}`);
  await c.end();
  const u = new URL(pgBase);
  u.pathname = `/${scratch}`;
  databaseUrl = u.toString();
}
const env = { LOG_LEVEL: 'warn', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };

// 1. Accounts and devices through the API.
const first = await startConsole({ env });
const { dealer, dealerId, customerId } = await dealerAndCustomer(first.http, 'mt');
for (let i = 0; i < devices; i += 5000) {
  const rows = Array.from(
    { length: Math.min(5000, devices - i) },
    (_, j) => `MT-${String(i + j).padStart(6, '0')},维修网关${i + j}`,
  );
  await dealer.call('POST', `${k.base}/import-${k.plural}?mode=all`, undefined, {
    type: 'text/csv',
    data: ['序列号,描述', ...rows].join('\n'),
  });
}
const newest = await dealer.call<{ list: { id: number }[] }>('GET', `${k.base}/${k.plural}`, {
  page: 1,
  page_size: 50,
});
const customerDevices = newest.list.map((d) => d.id);
await bindAll(dealer, 'gateway', customerId, customerDevices);
await first.stop(true);

// 2. Work orders in bulk, the console stopped (PGlite has one connection).
const db = await openBenchDb(databaseUrl ? { databaseUrl } : { dataDir: first.dataDir });
const t0 = Date.now();
await db.query(
  `WITH d AS (SELECT id, ser_num, row_number() OVER (ORDER BY id) - 1 AS rn FROM devices WHERE kind = 'gateway'),
        n AS (SELECT count(*) AS c FROM d),
        e AS (SELECT id FROM equipment_types WHERE code = 'gateway' AND user_id IS NULL),
        f AS (SELECT array_agg(id ORDER BY id) AS ids FROM fault_types WHERE equipment_type_id = (SELECT id FROM e))
   INSERT INTO maintenance_records (kind, status, device_id, ser_num, equipment_type_id, fault_type_id, description,
        reporter_id, assignee_id, created_at, due_at, finished_at)
   SELECT 'repair', s.status, d.id, d.ser_num, (SELECT id FROM e), f.ids[1 + g % array_length(f.ids, 1)],
          '现场报修 ' || g, $1::int, CASE WHEN s.status = 0 THEN NULL WHEN g % 2 = 0 THEN $1::int ELSE $2::int END,
          s.created, s.created + interval '24 hours',
          CASE WHEN s.status IN (2, 3) THEN s.created + (g % 48) * interval '1 hour' END
     FROM generate_series(1, $3::int) g
     CROSS JOIN n CROSS JOIN f
     JOIN d ON d.rn = g % n.c
     CROSS JOIN LATERAL (SELECT CASE WHEN g > $3::int - 2000 THEN g % 3 ELSE 3 + (g % 10 = 0)::int END AS status,
                                now() - ($3::int - g) * interval '30 seconds' AS created) s`,
  [dealerId, customerId, orders],
);
const seededS = ((Date.now() - t0) / 1000).toFixed(1);
await analyzeAll(db);
await db.close();

// 3. The console again.
const live = await startConsole({ dataDir: first.dataDir, env });
console.log(
  `${orders} work orders on ${devices} gateways seeded in ${seededS} s; ${pgBase ? 'PostgreSQL' : 'PGlite'}, ` +
    `${connections} connections, ${seconds} s a case`,
);
const tokenOf = async (user: string, pw: string) =>
  (
    (await (
      await fetch(`${live.http}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ filter: user, password: pw }).toString(),
      })
    ).json()) as { data: { auth_token: string } }
  ).data.auth_token;
const roles = {
  dealer: await tokenOf('mt_dealer', 'dealer-pass-1'),
  customer: await tokenOf('mt_customer', 'customer-pass-1'),
};
const faults = await fetch(
  `${live.http}${MAINTENANCE_API.faultTypes}?keywords=${encodeURIComponent('离线')}`,
  {
    headers: { 'x-token': roles.dealer },
  },
).then((r) => r.json() as Promise<{ data: { list: { id: number }[] } }>);
const fault = faults.data.list[0]!.id;
const list = `${MAINTENANCE_API.records}?page_size=20`;
const device = customerDevices[0]!;
const day = (d: number) =>
  encodeURIComponent(new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10));
const cases: [string, string][] = [
  ['page 1', `${list}&page=1`],
  ['page 200', `${list}&page=200`],
  ['status 待派单', `${list}&status=0`],
  ['fault type', `${list}&fault_type_id=${fault}`],
  ['assignee', `${list}&assignee_id=${customerId}`],
  ['device', `${list}&device_id=${device}`],
  ['overdue', `${list}&overdue=1`],
  ['last 7 days', `${list}&begin=${day(7)}`],
  ['keyword', `${list}&keywords=MT-00012`],
  ['number', `${list}&keywords=WX000777`],
];

async function p99(path: string, token: string) {
  const r = await autocannon({
    url: `${live.http}${path}`,
    connections,
    duration: seconds,
    headers: { 'x-token': token },
  });
  if (r.non2xx) throw new Error(`${path}: ${r.non2xx} answers not 200`);
  const unanswered = r.errors + (r.requests.total ? 0 : connections);
  const p99 = r.requests.total ? r.latency.p99 : seconds * 1000;
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99, unanswered };
}

try {
  const base = await p99(`${k.base}/get-${k.one}?id=${device}`, roles.customer);
  console.log(
    `baseline: one device by id (customer)  ${base.rps} req/s  p50 ${base.p50} ms  p99 ${base.p99} ms`,
  );
  console.log(
    `${'who'.padEnd(9)}${'case'.padEnd(15)}${'req/s'.padStart(7)}${'p50'.padStart(7)}${'p99'.padStart(7)}  ×base  goal`,
  );
  let misses = 0;
  for (const [who, token] of Object.entries(roles)) {
    for (const [name, path] of cases) {
      const r = await p99(path, token);
      const ok = r.p99 < GOAL_MS && !r.unanswered;
      if (!ok) misses++;
      const ratio = (r.p99 / Math.max(1, base.p99)).toFixed(1).padStart(5);
      const errors = r.unanswered ? `  ${r.unanswered} unanswered` : '';
      console.log(
        `${who.padEnd(9)}${name.padEnd(15)}${String(r.rps).padStart(7)}${String(r.p50).padStart(7)}${String(r.p99).padStart(7)}  ${ratio}  ${ok ? 'ok' : 'over'}${errors}`,
      );
    }
  }
  console.log(`${misses} of ${Object.keys(roles).length * cases.length} cases over the ${GOAL_MS} ms goal`);
} finally {
  await live.stop();
  if (scratch && process.env.BENCH_KEEP_DB) console.log(`kept database ${scratch}`);
  else if (scratch) {
    const c = new pg.Client({ connectionString: pgBase });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await c.end();
  }
}
