// A building's usage page on PostgreSQL: 2,000 meters placed in 6 buildings of one
// organisation, 400 days of daily and monthly usage rollups (and the last 30 days hourly).
// Measures placedUsage() for one building, 30 days by day (the page), from the day rollups,
// and the same figures summed from the hourly rows (the baseline: what the page would cost
// without day rollups); prints p50/p99 of both and the ratio.
//   Usage: npm run bench:meter-usage [-- meters days runs]   (defaults 2000 400 200)
//   DATABASE_URL: a PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test);
//   a scratch database is created and dropped.
import pg from 'pg';
import { openDb } from '../packages/server/src/db/index.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { placedUsage } from '../packages/server/src/modules/meters/repo.ts';

const meters = Number(process.argv[2] ?? 2000);
const days = Number(process.argv[3] ?? 400);
const runs = Number(process.argv[4] ?? 200);
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const name = `bench_meter_usage_${process.pid}`;
const DAY = 86_400_000;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * p) - 1]!;

async function main() {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: dbUrl.toString(), dataDir: null });
  try {
    await migrate(db);
    const t0 = performance.now();
    const [org] = await db.query<{ id: number }>(
      `INSERT INTO organisations (name) VALUES ('基准大学') RETURNING id`,
    );
    const buildings = await db.query<{ id: number }>(
      `INSERT INTO campus_buildings (org_id, name) SELECT $1, '楼' || g FROM generate_series(1, 6) g RETURNING id`,
      [org!.id],
    );
    await db.query(
      `INSERT INTO devices (kind, ser_num, token)
         SELECT CASE WHEN g % 2 = 0 THEN 'electric_meter' ELSE 'water_meter' END, 'BM-' || g, 't'
           FROM generate_series(1, $1::int) g`,
      [meters],
    );
    const ids = buildings.map((b) => b.id);
    await db.query(
      `INSERT INTO placements (device_id, org_id, building_id)
         SELECT d.id, $1, ($2::int[])[1 + d.id % 6] FROM devices d WHERE d.ser_num LIKE 'BM-%'`,
      [org!.id, ids],
    );
    const today = Math.floor(Date.now() / DAY) * DAY - 8 * 3_600_000;
    const from = new Date(today - days * DAY).toISOString();
    await db.query(
      `INSERT INTO meter_usage (device_id, grain, period_start, usage)
         SELECT d.id, 'day', t, random() * 10 FROM devices d,
                generate_series($1::timestamptz, $2::timestamptz, interval '1 day') t
          WHERE d.ser_num LIKE 'BM-%'`,
      [from, new Date(today).toISOString()],
    );
    await db.query(
      `INSERT INTO meter_usage (device_id, grain, period_start, usage)
         SELECT d.id, 'month', t, random() * 300 FROM devices d,
                generate_series(date_trunc('month', $1::timestamptz), $2::timestamptz, interval '1 month') t
          WHERE d.ser_num LIKE 'BM-%'`,
      [from, new Date(today).toISOString()],
    );
    await db.query(
      `INSERT INTO meter_usage (device_id, grain, period_start, usage)
         SELECT d.id, 'hour', t, random() FROM devices d,
                generate_series($1::timestamptz, $2::timestamptz, interval '1 hour') t
          WHERE d.ser_num LIKE 'BM-%'`,
      [new Date(today - 30 * DAY).toISOString(), new Date(today).toISOString()],
    );
    await db.query('ANALYZE');
    const [{ n } = { n: 0 }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM meter_usage');
    console.log(
      `seeded ${meters} meters, ${n} usage rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const pageFrom = new Date(today - 30 * DAY).toISOString();
    const pageTo = new Date(today + DAY).toISOString();
    const measure = async (grain: 'day' | 'hour') => {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const b = ids[i % ids.length]!;
        const s = performance.now();
        await placedUsage(db, { orgId: org!.id, buildingId: b }, grain, pageFrom, pageTo);
        times.push(performance.now() - s);
      }
      return times;
    };
    await measure('day'); // warm-up
    const day = await measure('day');
    const hour = await measure('hour');
    const line = (label: string, t: number[]) =>
      console.log(`${label}: p50 ${pct(t, 0.5).toFixed(2)} ms, p99 ${pct(t, 0.99).toFixed(2)} ms`);
    line('building page, 30 days from day rollups', day);
    line('baseline: the same from hourly rows', hour);
    console.log(`ratio p99 day/hour: ${(pct(day, 0.99) / pct(hour, 0.99)).toFixed(3)}`);
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  }
}

await main();
