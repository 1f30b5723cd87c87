// Meters at campus scale (issue 15): 2,000 meters placed in 6 buildings (120 rooms) of one
// organisation, 400 days of daily and monthly usage rollups, the last 30 days hourly, and
// 7 days of 15-minute readings (telemetry, as the meters report them). Two figures, each
// against a baseline measured in the same run on the same data:
// - the campus data centre's first paint: the whole `dataCenter()` answer (totals, building
//   figures, rooms by CO2, alarms, today's and this month's energy against last month, from
//   the day rollups); baseline: today's and the last 7 days' energy per building summed from
//   the raw 15-minute readings (what opening it would cost without rollups). Target p99 < 200 ms.
// - a building's usage page: placedUsage() for one building, 30 days by day, from the day
//   rollups; baseline: the same figures summed from the hourly rows. Target p99 < 100 ms.
//   Usage: npm run bench:meter-usage [-- meters days runs]   (defaults 2000 400 200)
//   Embedded PGlite by default; DATABASE_URL: a scratch database on that PostgreSQL server.
import { PERMISSION } from '@se/core';
import type { AppContext, Caller } from '../packages/server/src/context.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { dataCenter } from '../packages/server/src/modules/campus/service.ts';
import { placedUsage } from '../packages/server/src/modules/meters/repo.ts';
import { scratchDb } from './scratch-db.ts';

const meters = Number(process.argv[2] ?? 2000);
const days = Number(process.argv[3] ?? 400);
const runs = Number(process.argv[4] ?? 200);
const DAY = 86_400_000;
const MIN15 = 15 * 60_000;

// Months start at UTC+8 midnight, as the meters handler cuts them.
const MONTH_START = `(date_trunc('month', $1::timestamptz AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai')`;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * p) - 1]!;

async function main() {
  const { db, drop } = await scratchDb('meter_usage');
  try {
    await migrate(db);
    const t0 = performance.now();
    const [org] = await db.query<{ id: number }>(
      `INSERT INTO organisations (name) VALUES ('基准大学') RETURNING id`,
    );
    const orgId = org!.id;
    const buildings = await db.query<{ id: number }>(
      `INSERT INTO campus_buildings (org_id, name, floors_above)
         SELECT $1, '楼' || g, 5 FROM generate_series(1, 6) g RETURNING id`,
      [orgId],
    );
    const ids = buildings.map((b) => b.id);
    await db.query(
      `INSERT INTO campus_rooms (org_id, building_id, floor, number, type)
         SELECT $1, b, 1 + g % 5, 'R' || g, 'classroom' FROM unnest($2::int[]) b, generate_series(1, 20) g`,
      [orgId, ids],
    );
    const now = Date.now();
    await db.query(
      `INSERT INTO devices (kind, ser_num, token, time, latest)
         SELECT CASE WHEN g % 2 = 0 THEN 'electric_meter' ELSE 'water_meter' END, 'BM-' || g, 't',
                $2::timestamptz, jsonb_build_object('reading', g * 10)
           FROM generate_series(1, $1::int) g`,
      [meters, new Date(now).toISOString()],
    );
    await db.query(
      `INSERT INTO placements (device_id, org_id, building_id, room_id)
         SELECT d.id, $1, r.building_id, r.id
           FROM devices d
           JOIN (SELECT id, building_id, row_number() OVER (ORDER BY id) - 1 AS n FROM campus_rooms) r
             ON r.n = d.id % 120
          WHERE d.ser_num LIKE 'BM-%'`,
      [orgId],
    );
    const today = Math.floor((now + 8 * 3_600_000) / DAY) * DAY - 8 * 3_600_000;
    const span = (grain: string, step: string, from: number, to: number, usage: string) =>
      db.query(
        `INSERT INTO meter_usage (device_id, grain, period_start, usage)
           SELECT d.id, '${grain}', t, ${usage} FROM devices d,
                  generate_series(${grain === 'month' ? MONTH_START : '$1::timestamptz'},
                                  $2::timestamptz, interval '${step}') t
            WHERE d.ser_num LIKE 'BM-%'`,
        [new Date(from).toISOString(), new Date(to).toISOString()],
      );
    await span('day', '1 day', today - days * DAY, today, 'random() * 10');
    await span('month', '1 month', today - days * DAY, today, 'random() * 300');
    await span('hour', '1 hour', today - 30 * DAY, today + 23 * 3_600_000, 'random()');
    // 7 days of 15-minute cumulative readings, as the meters report them.
    await db.query(
      `INSERT INTO telemetry (device_id, ts, msg_id, data)
         SELECT d.id, t, 'm' || extract(epoch FROM t)::bigint,
                jsonb_build_object('reading', d.id * 10 + extract(epoch FROM t - $1::timestamptz) / 3600.0)
           FROM devices d, generate_series($1::timestamptz, $2::timestamptz, interval '15 minutes') t
          WHERE d.ser_num LIKE 'BM-%'`,
      [new Date(today - 6 * DAY).toISOString(), new Date(now - MIN15).toISOString()],
    );
    await db.query('ANALYZE');
    const [c] = await db.query<{ usage: number; readings: number }>(
      `SELECT (SELECT count(*) FROM meter_usage)::int AS usage, (SELECT count(*) FROM telemetry)::int AS readings`,
    );
    console.log(
      `${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}: seeded ${meters} meters, ${c!.usage} usage rows, ` +
        `${c!.readings} readings in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const time = async (n: number, call: (i: number) => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const s = performance.now();
        await call(i);
        times.push(performance.now() - s);
      }
      return times;
    };
    const line = (label: string, t: number[]) =>
      console.log(`${label}: p50 ${pct(t, 0.5).toFixed(2)} ms, p99 ${pct(t, 0.99).toFixed(2)} ms`);

    // The data centre as the service answers it, for a developer naming the organisation.
    const ctx = { db } as AppContext;
    const caller: Caller = { id: 1, userName: 'bench', permission: PERMISSION.develop, sessionId: 0 };
    const rawEnergy = () =>
      db.query(
        `SELECT p.building_id, d.kind, sum(m.hi - m.lo)::float8 AS usage
           FROM (SELECT device_id, max((data->>'reading')::float8) AS hi, min((data->>'reading')::float8) AS lo
                   FROM telemetry WHERE ts >= $1 GROUP BY device_id) m
           JOIN placements p ON p.device_id = m.device_id
           JOIN devices d ON d.id = m.device_id
          WHERE p.org_id = $2
          GROUP BY p.building_id, d.kind`,
        [new Date(today - 6 * DAY).toISOString(), orgId],
      );
    const dcRuns = Math.max(20, Math.floor(runs / 4));
    await time(3, () => dataCenter(ctx, caller, orgId)); // warm-up
    const dc = await time(dcRuns, () => dataCenter(ctx, caller, orgId));
    const raw = await time(Math.max(5, Math.floor(dcRuns / 4)), rawEnergy);
    line(`data centre first paint (${dcRuns} runs)`, dc);
    line('baseline: 7 days of energy per building from the raw 15-minute readings', raw);
    console.log(`ratio p99 data centre / raw baseline: ${(pct(dc, 0.99) / pct(raw, 0.99)).toFixed(3)}`);

    const pageFrom = new Date(today - 30 * DAY).toISOString();
    const pageTo = new Date(today + DAY).toISOString();
    const page = (grain: 'day' | 'hour') => (i: number) =>
      placedUsage(db, { orgId, buildingId: ids[i % ids.length]! }, grain, pageFrom, pageTo);
    await time(10, page('day')); // warm-up
    const day = await time(runs, page('day'));
    const hour = await time(runs, page('hour'));
    line('building usage page, 30 days from day rollups', day);
    line('baseline: the same from hourly rows', hour);
    console.log(`ratio p99 day/hour: ${(pct(day, 0.99) / pct(hour, 0.99)).toFixed(3)}`);
  } finally {
    await drop();
  }
}

await main();
