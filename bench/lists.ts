// List APIs at the goal's scale (issue 14): N gateways imported by a dealer through the
// multi-row import call (5,000 rows a request), 50 of them bound to the dealer's customer,
// R readings on the newest devices (one a minute, up to ~35 days each), toilets and reviews,
// all seeded in bulk by bench/seed.ts (readings as generate_series INSERTs with their hourly
// rollups, not row by row through HTTP). Then autocannon at C concurrent connections as
// develop (sees all), the dealer (all N, through bindings) and the customer (50): page 1,
// page 500, the online filter, a Latin and a Chinese keyword, a device's history over 24 h and
// 30 d, and the toilet, user and review lists. Each p99 is printed against the goal (100 ms)
// and as a ratio to the same run's baseline: one device fetched by id (a primary-key lookup
// through the same HTTP stack, the cheapest indexed read a list could be; for the varied runs,
// another device on every request, nothing shared in flight). Before the cases
// the list tables are vacuumed and analysed, as PostgreSQL's autovacuum (off on the test
// server) or the console's own maintenance on PGlite leaves them minutes after a bulk load.
// Each run is measured after a second of the same requests, not counted (BENCH_WARMUP=<s>;
// 0 counts from the first request: bench/server.ts loadRun).
// The machine's load average is printed before and after: the load generator and the
// console share its cores, and other work on it shows in every figure.
// Each case also prints the CPU time per request of the console, of PostgreSQL's processes
// and of the load generator (server.ts cpuMeter): their sum, on two cores, bounds the
// throughput, and connections / throughput is the mean latency (Little's law).
// Embedded PGlite by default; on PostgreSQL with DATABASE_URL set (a scratch database is
// created on that server and dropped at the end).
// Usage: [DATABASE_URL=postgres://…] npm run bench:lists [-- devices readings seconds connections]
// LISTS_CASES=<regex> runs only the cases whose "who case" matches (e.g. 'dealer|customer');
// Each case runs twice: every request the same URL (identical reads in flight share one
// execution in the database layer), then "(varied)": each request a different page, page
// size, keyword or device, so one query's own cost shows; LISTS_VARIED=0 runs only the first.
// "history … window" rows ask the same 24 h and 30 d as an explicit start and end, which the
// history cache does not serve (every one read whole, as every chart was before it): printed
// "ref", for comparison, and not counted against the goal.
// BENCH_BEFORE_ENV='NAME=value …' (PostgreSQL only) starts a second console on the same database
// with those variables set (e.g. SE_PG_PREPARE=0: every statement planned on every call) and
// runs every case (varied where it varies) on both, printing each pair and the after/before
// ratio of throughput: before vs after in one run (server.ts beforeAndAfter).
// LISTS_KEEP=1 keeps the seeded database (PGlite directory or scratch PostgreSQL database) and
// prints where it is, for EXPLAIN; LISTS_REUSE=<that> measures it again without seeding; LISTS_NODE_ARGS are given to the console's node (e.g. --cpu-prof) and no other.
import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import {
  COMMENT_API,
  DEVICE_KINDS,
  PAGE_SIZES,
  PERMISSION,
  STATUS_FILTER,
  TOILET_API,
  formatDateTime,
} from '../packages/core/src/index.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { bindToilets } from '../packages/server/src/modules/toilets/repo.ts';
import { bindAll } from '../packages/server/src/sim/fleet.ts';
import {
  BENCH_PASSWORD,
  beforeAndAfter,
  beforeEnv,
  caseLine,
  dealerAndCustomer,
  loadRun,
  startConsole,
  WARMUP_SECONDS,
} from './server.ts';
import {
  analyzeAll,
  markOnline,
  newestDeviceIds,
  openBenchDb,
  seedComments,
  seedReadings,
  seedToilets,
  vacuumLists,
} from './seed.ts';

const arg = (i: number, d: number) => Number(process.argv[i] ?? d);
const devices = arg(2, 100_000);
const readings = arg(3, 10_000_000);
const seconds = arg(4, 5);
const connections = arg(5, 100);
const GOAL_MS = 100;
/** One reading a minute over ~35 days: history 30 d reads the hourly rollup, 24 h the raw rows. */
const PER_DEVICE = Math.min(50_000, readings);
const PLACES = ['西湖', '断桥', '北山', '湖滨', '武林', '延安', '钱塘', '孤山', '灵隐', '龙井'];
const LATIN = 'GW-0012'; // 100 serial numbers (GW-001200 … GW-001299) once there are 1,300 devices
const CJK = '断桥'; // a tenth of the devices, toilets named after it a sixth
const k = DEVICE_KINDS.gateway;

// LISTS_REUSE: a database kept by an earlier run (LISTS_KEEP), measured again without seeding.
const reuse = process.env.LISTS_REUSE || '';
const reusePg = /^postgres(ql)?:/.test(reuse);
// PostgreSQL: a scratch database on DATABASE_URL's server.
const pgBase = reuse ? '' : process.env.DATABASE_URL || '';
let databaseUrl = reusePg ? reuse : '';
let scratch = '';
if (pgBase) {
  scratch = `se_bench_lists_${crypto.randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: pgBase });
  await c.connect();
  await c.query(`CREATE DATABASE ${scratch}`);
  await c.end();
  const u = new URL(pgBase);
  u.pathname = `/${scratch}`;
  databaseUrl = u.toString();
}
const only = process.env.LISTS_CASES ? new RegExp(process.env.LISTS_CASES) : null;
const env = {
  LOG_LEVEL: 'warn',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
};
const nodeArgs = process.env.LISTS_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const timed = async <T>(fn: () => Promise<T>) => {
  const t0 = Date.now();
  const value = await fn();
  return { value, s: ((Date.now() - t0) / 1000).toFixed(1) };
};

const seededDb = reuse ? await reopen() : await seed();

/** Steps 1 and 2: accounts, devices, readings, toilets and reviews. */
async function seed() {
  // 1. Accounts and devices through the API.
  const first = await startConsole({ env });
  const { dealer, dealerId, customerId } = await dealerAndCustomer(first.http, 'list');
  for (let i = 0; i < 100; i++) {
    await dealer.call('POST', '/api/v1/user/add-user', {
      user_name: `${PLACES[i % PLACES.length]}客户${i}`,
      password: 'customer-pass-1',
      permissions: PERMISSION.user | PERMISSION.visitor,
    });
  }
  const imported = await timed(async () => {
    for (let i = 0; i < devices; i += 5000) {
      const rows = Array.from({ length: Math.min(5000, devices - i) }, (_, j) => {
        const n = i + j;
        const place = PLACES[n % PLACES.length]!;
        return `GW-${String(n).padStart(6, '0')},${place}公厕${Math.floor(n / PLACES.length)}号,杭州市${place}路${n % 997}号`;
      });
      await dealer.call('POST', `${k.base}/import-${k.plural}?mode=all`, undefined, {
        type: 'text/csv',
        data: ['序列号,描述,位置', ...rows].join('\n'),
      });
    }
  });
  // The customer holds the dealer's 50 newest devices.
  const newest = await dealer.call<{ list: { id: number }[] }>('GET', `${k.base}/${k.plural}`, {
    page: 1,
    page_size: 50,
  });
  const customerDevices = newest.list.map((d) => d.id);
  await bindAll(dealer, 'gateway', customerId, customerDevices);
  await first.stop(true);

  // 2. Readings, toilets and reviews in bulk, the console stopped (PGlite has one connection).
  const db = await openBenchDb(databaseUrl ? { databaseUrl } : { dataDir: first.dataDir });
  await migrate(db); // nothing new: the console applied them; the same Db code path
  const readers = await newestDeviceIds(db, Math.max(1, Math.ceil(readings / PER_DEVICE)));
  const seeded = await timed(() => seedReadings(db, readers, PER_DEVICE, Date.now()));
  await markOnline(db, 3);
  const toiletIds = await seedToilets(db, Math.max(60, Math.ceil(devices / 50)));
  // Toilets bound like devices (the dealer all, the customer a few) before the statistics are
  // taken, as the binding call would write them (the console's own planner statistics,
  // PGlite's ANALYZE at start, PostgreSQL's autovacuum, would see them in a deployment).
  await bindToilets(db, dealerId, toiletIds);
  await bindToilets(db, customerId, toiletIds.slice(0, 10));
  const reviews = devices;
  const commented = await timed(() => seedComments(db, toiletIds, reviews));
  await analyzeAll(db);
  // The list tables as autovacuum (PostgreSQL) or the console's maintenance (PGlite) leaves
  // them some minutes after such a load: vacuumed and analysed.
  await vacuumLists(db);
  await db.close();
  return {
    dataDir: first.dataDir,
    customerDevices,
    readers,
    seeded:
      `${devices} gateways imported in ${imported.s} s (${Math.ceil(devices / 5000)} requests of up to 5,000 rows); ` +
      `${seeded.value} readings on ${readers.length} devices in ${seeded.s} s; ` +
      `${toiletIds.length} toilets, ${reviews} reviews in ${commented.s} s`,
  };
}

/**
 * A kept database as it is (LISTS_REUSE): the customer's devices and the readers looked up,
 * the online devices marked again (their time has passed). Readings are not topped up, so a
 * 24 h history holds fewer rows the longer ago the seeding was.
 */
async function reopen() {
  const db = await openBenchDb(reusePg ? { databaseUrl: reuse } : { dataDir: reuse });
  await migrate(db); // a newer checkout's migrations, as the console would apply them
  const customerDevices = (
    await db.query<{ id: number }>(
      `SELECT b.device_id AS id FROM device_bindings b JOIN users u ON u.id = b.user_id
        WHERE u.user_name = 'list_customer' ORDER BY b.device_id DESC`,
    )
  ).map((r) => r.id);
  const readers = (
    await db.query<{ id: number }>(`SELECT DISTINCT device_id AS id FROM telemetry_hourly ORDER BY 1 DESC`)
  ).map((r) => r.id);
  await markOnline(db, 3);
  await db.close();
  return { dataDir: reusePg ? undefined : reuse, customerDevices, readers, seeded: `reused ${reuse}` };
}
const { customerDevices, readers } = seededDb;

// 3. The console measured (and, with BENCH_BEFORE_ENV, the same console as it was before).
const live = await startConsole({ dataDir: seededDb.dataDir, env, nodeArgs });
const beforeVars = beforeEnv(databaseUrl);
const before = beforeVars ? await startConsole({ env: { ...env, ...beforeVars }, nodeArgs }) : null;

console.log(
  `${seededDb.seeded}; ${pgBase || reusePg ? 'PostgreSQL' : 'PGlite'}, ` +
    `${connections} connections, ${seconds} s a case after ${WARMUP_SECONDS} s of warm-up; load average ${loadAverage()}`,
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
  develop: await tokenOf('admin', BENCH_PASSWORD),
  dealer: await tokenOf('list_dealer', 'dealer-pass-1'),
  customer: await tokenOf('list_customer', 'customer-pass-1'),
};
const list = `${k.base}/${k.plural}`;
const history = customerDevices[0]!;
// Devices with readings that the customer (and so the dealer and develop) sees.
const readersSeen = readers.filter((id) => customerDevices.includes(id));
if (!readersSeen.length) readersSeen.push(history);
/**
 * A case: its URL, and optionally the URL of the n-th request of a varied run (a different
 * page, keyword or device each request), so that identical requests sharing one execution
 * (the database's single flight for reads) do not hide what one query costs.
 */
const q = encodeURIComponent;
type Case = [name: string, path: string, vary?: (n: number) => string, ref?: 'ref'];
const DAY = 86_400_000;
/** A device's history over the `ms` before now as an explicit window (UTC+8 start and end). */
const windowOf = (id: number, ms: number) => {
  const end = Date.now();
  return `/api/v1/device/history?device_id=${id}&start=${q(formatDateTime(end - ms))}&end=${q(formatDateTime(end))}`;
};
const pageOf =
  (path: string, pages: number, from = 1) =>
  (n: number) =>
    path.replace(/page=\d+/, `page=${from + (n % pages)}`);
const LATINS = Array.from({ length: 90 }, (_, i) => `GW-00${String(10 + i).padStart(2, '0')}`);
const cases: Case[] = [
  [
    'page 1',
    `${list}?page=1&page_size=20`,
    (n) => `${list}?page=${1 + (n % 50)}&page_size=${PAGE_SIZES[Math.floor(n / 50) % PAGE_SIZES.length]}`,
  ],
  ['page 500', `${list}?page=500&page_size=20`, pageOf(`${list}?page=500&page_size=20`, 200, 400)],
  [
    'online filter',
    `${list}?status=${STATUS_FILTER.online}`,
    (n) => `${list}?status=${STATUS_FILTER.online}&page=${1 + (n % 50)}&page_size=20`,
  ],
  ['keyword Latin', `${list}?keywords=${LATIN}`, (n) => `${list}?keywords=${LATINS[n % LATINS.length]}`],
  [
    'keyword 中文',
    `${list}?keywords=${q(CJK)}`,
    (n) => `${list}?keywords=${q(PLACES[n % PLACES.length]!)}&page=${1 + (Math.floor(n / 10) % 20)}`,
  ],
  [
    'history 24h',
    `/api/v1/device/history?device_id=${history}&range=24h`,
    (n) => `/api/v1/device/history?device_id=${readersSeen[n % readersSeen.length]}&range=24h`,
  ],
  [
    'history 30d',
    `/api/v1/device/history?device_id=${history}&range=30d`,
    (n) => `/api/v1/device/history?device_id=${readersSeen[n % readersSeen.length]}&range=30d`,
  ],
  // The same windows asked as start and end: read whole every time, as every chart was before
  // the history cache held closed buckets (modules/live/history-cache.ts). For comparison only.
  [
    'history 24h window',
    windowOf(history, DAY),
    (n) => windowOf(readersSeen[n % readersSeen.length]!, DAY),
    'ref',
  ],
  [
    'history 30d window',
    windowOf(history, 30 * DAY),
    (n) => windowOf(readersSeen[n % readersSeen.length]!, 30 * DAY),
    'ref',
  ],
  ['toilets', `${TOILET_API.list}?page=1&page_size=20`, pageOf(`${TOILET_API.list}?page=1&page_size=20`, 20)],
  [
    'toilets 中文',
    `${TOILET_API.list}?keywords=${q(CJK)}`,
    (n) => `${TOILET_API.list}?keywords=${q(PLACES[n % PLACES.length]!)}`,
  ],
  ['users', `/api/v1/user/users?page=1&page_size=20&need_match_count=true`],
  [
    'reviews',
    `${COMMENT_API.list}?page=1&page_size=20`,
    pageOf(`${COMMENT_API.list}?page=1&page_size=20`, 50),
  ],
  ['reviews 中文', `${COMMENT_API.list}?keywords=${q('干净')}`],
];

/**
 * Waits until the console has answered what an earlier run left queued (PGlite serves one
 * query at a time): one request through the same queue, answered after the backlog.
 */
async function drain(http: string) {
  await fetch(`${http}${k.base}/get-${k.one}?id=${history}`, { headers: { 'x-token': roles.customer } });
}

async function p99(path: string, token: string, vary?: (n: number) => string, http = live.http) {
  await drain(http);
  const pid = http === live.http ? live.child.pid : before?.child.pid;
  return loadRun(`${http}${path}`, token, { connections, seconds, vary, pid });
}

try {
  if (before) {
    console.log(`before: ${process.env.BENCH_BEFORE_ENV}; every case on both consoles`);
    const ab = beforeAndAfter();
    ab.header();
    const both = (who: string, label: string, path: string, token: string, vary?: (n: number) => string) =>
      ab.pair(
        who,
        label,
        () => p99(path, token, vary, before.http),
        () => p99(path, token, vary),
      );
    const spread = readers.length > 1 ? readers : customerDevices;
    await both(
      'dealer',
      'device by id (varied)',
      `${k.base}/get-${k.one}?id=${spread[0]}`,
      roles.dealer,
      (n) => `${k.base}/get-${k.one}?id=${spread[(n * 7919) % spread.length]}`,
    );
    for (const [who, token] of Object.entries(roles)) {
      for (const [name, path, vary] of cases) {
        if (only && !only.test(`${who} ${name}`)) continue;
        await both(who, vary ? `${name} (varied)` : name, path, token, vary);
      }
    }
  } else {
    await againstTheGoal();
  }
} finally {
  const keep = Boolean(process.env.LISTS_KEEP || reuse);
  await before?.stop();
  // On PostgreSQL the console's data directory holds no data kept: removed either way.
  await live.stop(keep && !databaseUrl);
  if (keep) console.log(`kept: ${databaseUrl || live.dataDir}`);
}

/** Every case against the goal and against the same run's baselines. */
async function againstTheGoal() {
  const base = await p99(`${k.base}/get-${k.one}?id=${history}`, roles.customer);
  console.log(
    `baseline: one device by id (customer)  ${String(base.rps).padStart(6)} req/s  p50 ${base.p50} ms  p99 ${base.p99} ms`,
  );
  // The varied runs' own baseline: another device on every request (the dealer's devices with
  // readings), so nothing is shared in flight: an uncached primary-key read through the stack.
  const spread = readers.length > 1 ? readers : customerDevices;
  const baseVaried = await p99(
    `${k.base}/get-${k.one}?id=${spread[0]}`,
    roles.dealer,
    (n) => `${k.base}/get-${k.one}?id=${spread[(n * 7919) % spread.length]}`,
  );
  console.log(
    `baseline (varied): another device by id (dealer)  ${String(baseVaried.rps).padStart(6)} req/s  p50 ${baseVaried.p50} ms  p99 ${baseVaried.p99} ms` +
      "  (the varied cases' ×base is against this one)",
  );
  console.log(
    `${'who'.padEnd(9)}${'case'.padEnd(24)}${'req/s'.padStart(7)}${'p50'.padStart(7)}${'p99'.padStart(7)}  ×base  goal  cpu ms/req: console db load`,
  );
  // Each case with the same URL on every request, then (LISTS_VARIED=0 leaves it out) varied.
  const varied = process.env.LISTS_VARIED !== '0';
  let misses = 0;
  let ran = 0;
  for (const [who, token] of Object.entries(roles)) {
    for (const [name, path, vary, ref] of cases) {
      if (only && !only.test(`${who} ${name}`)) continue;
      for (const v of varied && vary ? [undefined, vary] : [undefined]) {
        const r = await p99(path, token, v);
        const { ok, line } = caseLine(
          who,
          v ? `${name} (varied)` : name,
          r,
          v ? baseVaried : base,
          GOAL_MS,
          !!ref,
        );
        if (!ref) ran++;
        if (!ref && !ok) misses++;
        console.log(line);
      }
    }
  }
  console.log(`${misses} of ${ran} cases over the ${GOAL_MS} ms goal; load average ${loadAverage()}`);
}
if (scratch && !process.env.LISTS_KEEP) {
  const c = new pg.Client({ connectionString: pgBase });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  await c.end();
}
