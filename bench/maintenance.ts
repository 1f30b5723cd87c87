// The work-order list at the scale (issue 18): N gateways imported by a dealer, the 50
// newest bound to its customer with a toilet (their records carry it), a maintenance team of the
// dealer's, then W work orders on them seeded in bulk (one generate_series INSERT: statuses,
// faults, assignees and times over the last year, every seventh order the team's, the deadline
// the fault type's response time so that open ones run overdue), the console stopped meanwhile.
// Then autocannon at C connections as the dealer (sees every record) and the customer (its 50
// devices' records): page 1, page 200, each filter of /maintenance-records (status, equipment
// type, fault type, toilet, device, assignee, team, overdue, time, a serial number as keyword,
// a record number).
// Each case runs twice: every request the same URL (identical reads in flight share one
// execution in the database layer), then "(varied)": each request another page, filter value
// or keyword, so one query's own cost shows; MT_VARIED=0 runs only the first. MT_CASES=<regex>
// runs only the cases whose "who case" matches.
// Each p99 is printed against the goal (100 ms) and as a ratio to the same run's baseline: one
// device fetched by id through the same HTTP stack (for the varied runs, another device on
// every request: the same stack with nothing shared in flight).
// Embedded PGlite by default; on PostgreSQL with DATABASE_URL set (a scratch database is
// created on that server and dropped at the end).
// BENCH_KEEP_DB=1 keeps the scratch database (to EXPLAIN the cases); MT_REUSE=<its URL, or a
// PGlite directory> measures it again without seeding.
// MT_NODE_ARGS are given to the console's node (e.g. --cpu-prof --cpu-prof-dir=…) and no other.
// BENCH_BEFORE_ENV='NAME=value …' (PostgreSQL only): every varied case also on a second console
// with those settings, side by side, for before vs after in one run (server.ts beforeAndAfter).
// Usage: [DATABASE_URL=postgres://…] npm run bench:maintenance [-- orders devices seconds connections]
import crypto from 'node:crypto';
import pg from 'pg';
import { DEVICE_KINDS, MAINTENANCE_API, TEAM_API, TOILET_API } from '../packages/core/src/index.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { bindAll } from '../packages/server/src/sim/fleet.ts';
import {
  beforeAndAfter,
  beforeEnv,
  caseLine,
  dealerAndCustomer,
  loadRun,
  startConsole,
  WARMUP_SECONDS,
} from './server.ts';
import { analyzeAll, openBenchDb, vacuumLists } from './seed.ts';

const arg = (i: number, d: number) => Number(process.argv[i] ?? d);
const orders = arg(2, 1_000_000);
const devices = arg(3, 10_000);
const seconds = arg(4, 5);
const connections = arg(5, 50);
const GOAL_MS = 100;
const k = DEVICE_KINDS.gateway;

// MT_REUSE: a database kept by an earlier run (BENCH_KEEP_DB), measured again without seeding.
const reuse = process.env.MT_REUSE || '';
const reusePg = /^postgres(ql)?:/.test(reuse);
const pgBase = reuse ? '' : process.env.DATABASE_URL || '';
let databaseUrl = reusePg ? reuse : '';
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

/** The seeded ids: accounts, the customer's devices (newest first), its toilet, the team. */
interface Seeded {
  dealerId: number;
  customerId: number;
  customerDevices: number[];
  toilet: number;
  team: number;
  dataDir: string | undefined;
  seededS: string;
}

async function seed(): Promise<Seeded> {
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
  // A toilet of the customer's: the records of its devices carry it, as a dispenser's in it do.
  const toilet = (await dealer.call<{ id: number }>('POST', TOILET_API.add, { name: '维修基准公厕' })).id;
  await dealer.call('POST', TOILET_API.bind, { user_id: customerId, add_ids: String(toilet) });
  const team = (
    await dealer.call<{ id: number }>('POST', TEAM_API.add, {
      name: '基准班组',
      lead_id: customerId,
      member_ids: [customerId, dealerId],
    })
  ).id;
  await first.stop(true);

  // 2. Work orders in bulk, the console stopped (PGlite has one connection).
  const db = await openBenchDb(databaseUrl ? { databaseUrl } : { dataDir: first.dataDir });
  const t0 = Date.now();
  await db.query(
    `WITH d AS (SELECT id, ser_num, row_number() OVER (ORDER BY id) - 1 AS rn FROM devices WHERE kind = 'gateway'),
          n AS (SELECT count(*) AS c FROM d),
          e AS (SELECT id FROM equipment_types WHERE code = 'gateway' AND user_id IS NULL),
          f AS (SELECT array_agg(id ORDER BY id) AS ids FROM fault_types WHERE equipment_type_id = (SELECT id FROM e))
     INSERT INTO maintenance_records (kind, status, device_id, ser_num, toilet_id, equipment_type_id, fault_type_id,
          description, reporter_id, assignee_id, team_id, created_at, due_at, finished_at)
     SELECT 'repair', s.status, d.id, d.ser_num, CASE WHEN d.id = ANY($5::int[]) THEN $6::int END, (SELECT id FROM e), ft.id,
            '现场报修 ' || g, $1::int, CASE WHEN s.status = 0 THEN NULL WHEN g % 2 = 0 THEN $1::int ELSE $2::int END,
            CASE WHEN g % 7 = 0 THEN $4::int END,
            s.created, s.created + ft.response_hours * interval '1 hour',
            CASE WHEN s.status IN (2, 3) THEN s.created + (g % 48) * interval '1 hour' END
       FROM generate_series(1, $3::int) g
       CROSS JOIN n CROSS JOIN f
       JOIN d ON d.rn = g % n.c
       JOIN fault_types ft ON ft.id = f.ids[1 + g % array_length(f.ids, 1)]
       CROSS JOIN LATERAL (SELECT CASE WHEN g > $3::int - 2000 THEN g % 3 ELSE 3 + (g % 10 = 0)::int END AS status,
                                  now() - ($3::int - g) * interval '30 seconds' AS created) s`,
    [dealerId, customerId, orders, team, customerDevices, toilet],
  );
  const seededS = ((Date.now() - t0) / 1000).toFixed(1);
  await analyzeAll(db);
  await vacuumLists(db);
  await db.close();
  return { dealerId, customerId, customerDevices, toilet, team, dataDir: first.dataDir, seededS };
}

/** A kept database as it is (MT_REUSE): the ids looked up, a newer checkout's migrations applied. */
async function reopen(): Promise<Seeded> {
  const db = await openBenchDb(reusePg ? { databaseUrl: reuse } : { dataDir: reuse });
  await migrate(db);
  const one = async (sql: string) => (await db.query<{ id: number }>(sql))[0]!.id;
  const dealerId = await one(`SELECT id FROM users WHERE user_name = 'mt_dealer'`);
  const customerId = await one(`SELECT id FROM users WHERE user_name = 'mt_customer'`);
  const customerDevices = (
    await db.query<{ id: number }>(
      `SELECT device_id AS id FROM device_bindings WHERE user_id = $1 ORDER BY device_id DESC`,
      [customerId],
    )
  ).map((r) => r.id);
  const toilet = await one(`SELECT id FROM toilets WHERE name = '维修基准公厕'`);
  const team = await one(`SELECT id FROM maintenance_teams WHERE name = '基准班组'`);
  await db.close();
  return {
    dealerId,
    customerId,
    customerDevices,
    toilet,
    team,
    dataDir: reusePg ? undefined : reuse,
    seededS: '(kept)',
  };
}

const { dealerId, customerId, customerDevices, toilet, team, dataDir, seededS } = reuse
  ? await reopen()
  : await seed();

// 3. The console again.
const nodeArgs = process.env.MT_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const live = await startConsole({ dataDir, env, nodeArgs });
const beforeVars = beforeEnv(databaseUrl);
const before = beforeVars ? await startConsole({ env: { ...env, ...beforeVars } }) : null;
console.log(
  `${orders} work orders on ${devices} gateways seeded in ${seededS} s; ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ` +
    `${connections} connections, ${seconds} s a case after ${WARMUP_SECONDS} s of warm-up`,
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
const api = async <T>(path: string, token = roles.dealer) =>
  (
    (await fetch(`${live.http}${path}`, { headers: { 'x-token': token } }).then((r) => r.json())) as {
      data: T;
    }
  ).data;
const faultIds = (
  await api<{ list: { id: number; equipment_type_id: number }[] }>(
    `${MAINTENANCE_API.faultTypes}?page_size=100`,
  )
).list;
const gatewayType = (
  await api<{ list: { id: number; code: string }[] }>(`${MAINTENANCE_API.equipmentTypes}?page_size=100`)
).list.find((e) => e.code === 'gateway')!.id;
const faults = faultIds.filter((f) => f.equipment_type_id === gatewayType).map((f) => f.id);
const list = `${MAINTENANCE_API.records}?page_size=20`;
const device = customerDevices[0]!;
// A record number and serial prefixes both roles see (the customer's devices are the newest).
const customerRows = (
  await api<{ list: { no: string; ser_num: string }[] }>(`${list}&page=1`, roles.customer)
).list;
const number = customerRows[0]!.no;
const serials = [...new Set(customerRows.map((r) => r.ser_num.slice(0, -1)))];
const day = (d: number) =>
  encodeURIComponent(new Date(Date.now() + 8 * 3_600_000 - d * 86_400_000).toISOString().slice(0, 10));
const pick = <T>(xs: T[], n: number) => xs[n % xs.length]!;
/** A case: its URL, and the URL of the n-th request of its varied run. */
type Case = [name: string, path: string, vary: (n: number) => string];
const cases: Case[] = [
  ['page 1', `${list}&page=1`, (n) => `${list}&page=${1 + (n % 50)}`],
  ['page 200', `${list}&page=200`, (n) => `${list}&page=${150 + (n % 100)}`],
  ['status 待派单', `${list}&status=0`, (n) => `${list}&status=${n % 5}&page=${1 + (n % 3)}`],
  [
    'equipment type',
    `${list}&equipment_type_id=${gatewayType}`,
    (n) => `${list}&equipment_type_id=${gatewayType}&page=${1 + (n % 50)}`,
  ],
  [
    'fault type',
    `${list}&fault_type_id=${faults[0]}`,
    (n) => `${list}&fault_type_id=${pick(faults, n)}&page=${1 + (n % 20)}`,
  ],
  ['toilet', `${list}&toilet_id=${toilet}`, (n) => `${list}&toilet_id=${toilet}&page=${1 + (n % 20)}`],
  ['device', `${list}&device_id=${device}`, (n) => `${list}&device_id=${pick(customerDevices, n)}`],
  [
    'assignee',
    `${list}&assignee_id=${customerId}`,
    (n) => `${list}&assignee_id=${n % 2 ? customerId : dealerId}&page=${1 + (n % 20)}`,
  ],
  ['team', `${list}&team_id=${team}`, (n) => `${list}&team_id=${team}&page=${1 + (n % 20)}`],
  ['overdue', `${list}&overdue=1`, (n) => `${list}&overdue=1&page=${1 + (n % 3)}`],
  [
    'last 7 days',
    `${list}&begin=${day(7)}`,
    (n) => `${list}&begin=${day(1 + (n % 60))}&page=${1 + (n % 10)}`,
  ],
  ['keyword', `${list}&keywords=${serials[0]}`, (n) => `${list}&keywords=${pick(serials, n)}`],
  [
    'number',
    `${list}&keywords=${number}`,
    (n) => `${list}&keywords=WX${String(1 + ((n * 7919) % orders)).padStart(6, '0')}`,
  ],
];
const only = process.env.MT_CASES ? new RegExp(process.env.MT_CASES) : null;
const varied = process.env.MT_VARIED !== '0';

async function p99(path: string, token: string, vary?: (n: number) => string, http = live.http) {
  const pid = http === live.http ? live.child.pid : before?.child.pid;
  return loadRun(`${http}${path}`, token, { connections, seconds, vary, pid });
}

/** Every varied case on the "before" console and on this one. */
async function compare(http: string) {
  console.log(`before: ${process.env.BENCH_BEFORE_ENV}; every varied case on both consoles`);
  const ab = beforeAndAfter();
  ab.header();
  for (const [who, token] of Object.entries(roles)) {
    for (const [name, path, vary] of cases) {
      if (only && !only.test(`${who} ${name}`)) continue;
      if (who === 'customer' && name === 'team') continue;
      await ab.pair(
        who,
        `${name} (varied)`,
        () => p99(path, token, vary, http),
        () => p99(path, token, vary),
      );
    }
  }
}

try {
  if (before) await compare(before.http);
  else await againstTheGoal();
} finally {
  await before?.stop();
  // On PostgreSQL the console's data directory holds no data kept: removed either way.
  await live.stop(!databaseUrl && (!!reuse || !!process.env.BENCH_KEEP_DB));
  if (!scratch && !reusePg && (reuse || process.env.BENCH_KEEP_DB))
    console.log(`kept data directory ${dataDir}`);
  if (scratch && process.env.BENCH_KEEP_DB) console.log(`kept database ${scratch}`);
  else if (scratch) {
    const c = new pg.Client({ connectionString: pgBase });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await c.end();
  }
}

/** Every case against the goal and against the same run's baselines. */
async function againstTheGoal() {
  const base = await p99(`${k.base}/get-${k.one}?id=${device}`, roles.customer);
  console.log(
    `baseline: one device by id (customer)  ${base.rps} req/s  p50 ${base.p50} ms  p99 ${base.p99} ms`,
  );
  // The varied runs' own baseline: another device on every request (500 of the dealer's), so
  // nothing is shared in flight: the floor of an uncached primary-key read through the stack.
  const spread: number[] = [];
  for (let p = 1; p <= 5; p++)
    spread.push(
      ...(await api<{ list: { id: number }[] }>(`${k.base}/${k.plural}?page=${p}&page_size=100`)).list.map(
        (d) => d.id,
      ),
    );
  const baseVaried = await p99(
    `${k.base}/get-${k.one}?id=${spread[0]}`,
    roles.dealer,
    (n) => `${k.base}/get-${k.one}?id=${pick(spread, n * 7919)}`,
  );
  console.log(
    `baseline (varied): another device by id (dealer)  ${baseVaried.rps} req/s  p50 ${baseVaried.p50} ms  p99 ${baseVaried.p99} ms` +
      "  (the varied cases' ×base is against this one)",
  );
  console.log(
    `${'who'.padEnd(9)}${'case'.padEnd(24)}${'req/s'.padStart(7)}${'p50'.padStart(7)}${'p99'.padStart(7)}  ×base  goal  cpu ms/req: console db load`,
  );
  let misses = 0;
  let ran = 0;
  for (const [who, token] of Object.entries(roles)) {
    for (const [name, path, vary] of cases) {
      if (only && !only.test(`${who} ${name}`)) continue;
      // A team is seen by the account that made it and those above it: not by the customer.
      if (who === 'customer' && name === 'team') continue;
      for (const v of varied ? [undefined, vary] : [undefined]) {
        const r = await p99(path, token, v);
        const { ok, line } = caseLine(who, v ? `${name} (varied)` : name, r, v ? baseVaried : base, GOAL_MS);
        ran++;
        if (!ok) misses++;
        console.log(line);
      }
    }
  }
  console.log(`${misses} of ${ran} cases over the ${GOAL_MS} ms goal`);
}
