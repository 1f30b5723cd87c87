// Bench-only bulk seeding, straight into a console's database while the console is stopped
// (its PGlite directory) or beside it (a PostgreSQL URL): readings as one generate_series
// INSERT per slice of devices, with the five-minute and hourly rollups and each device's latest values and
// last report written from the same series, so the tables stay as ingest leaves them
// (ingest/repo.ts: telemetry, telemetry_5min, telemetry_hourly, devices.latest and devices.time).
// Nothing here runs in the server.
import { openDb, type Db } from '../packages/server/src/db/index.ts';

export function openBenchDb(target: { dataDir: string } | { databaseUrl: string }): Promise<Db> {
  return 'databaseUrl' in target
    ? openDb({ databaseUrl: target.databaseUrl, dataDir: null })
    : openDb({ dataDir: target.dataDir });
}

/** One reading per minute per device, the newest at `endMs` (nh3 and co2, as gateways send). */
const series = (perDevice: number, endMs: number) => `
  SELECT d AS device_id, to_timestamp(${endMs} / 1000.0) - k * interval '1 minute' AS ts, k,
         0.1 + (k % 10) / 20.0 AS nh3, (500 + k % 700)::float8 AS co2
    FROM unnest($1::int[]) d, generate_series(0, ${perDevice - 1}) k`;

/**
 * `perDevice` readings for each of `deviceIds`, `slice` devices per statement; answers the
 * number of readings written.
 */
export async function seedReadings(
  db: Db,
  deviceIds: number[],
  perDevice: number,
  endMs: number,
  slice = 20,
) {
  let n = 0;
  for (let i = 0; i < deviceIds.length; i += slice) {
    const ids = deviceIds.slice(i, i + slice);
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO telemetry (device_id, ts, msg_id, data)
         SELECT device_id, ts, 'seed-' || k, jsonb_build_object('nh3', nh3, 'co2', co2) FROM (${series(perDevice, endMs)}) s`,
        [ids],
      );
      await tx.query(
        `INSERT INTO telemetry_hourly (device_id, hour, sums, counts)
         SELECT device_id, date_trunc('hour', ts), jsonb_build_object('nh3', sum(nh3), 'co2', sum(co2)),
                jsonb_build_object('nh3', count(*), 'co2', count(*))
           FROM (${series(perDevice, endMs)}) s GROUP BY 1, 2`,
        [ids],
      );
      await tx.query(
        `INSERT INTO telemetry_5min (device_id, bucket, f)
         SELECT device_id, to_timestamp(floor(extract(epoch FROM ts) / 300) * 300),
                jsonb_build_object('nh3', jsonb_build_array(count(*), sum(nh3), min(nh3), max(nh3)),
                                   'co2', jsonb_build_array(count(*), sum(co2), min(co2), max(co2)))
           FROM (${series(perDevice, endMs)}) s GROUP BY 1, 2`,
        [ids],
      );
      await tx.query(
        `UPDATE devices d SET time = s.ts, latest = d.latest || jsonb_build_object('nh3', s.nh3, 'co2', s.co2)
           FROM (${series(1, endMs)}) s WHERE d.id = s.device_id`,
        [ids],
      );
    });
    n += ids.length * perDevice;
  }
  return n;
}

/** `count` toilets named and placed in Chinese, answering their ids. */
export async function seedToilets(db: Db, count: number) {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO toilets (name, address, cityname, adname)
     SELECT (ARRAY['西湖', '断桥', '北山', '湖滨', '武林', '延安'])[1 + i % 6] || '公厕' || i || '号',
            '杭州市' || (ARRAY['西湖区', '上城区', '拱墅区'])[1 + i % 3] || '某路' || i || '号', '杭州市',
            (ARRAY['西湖区', '上城区', '拱墅区'])[1 + i % 3]
       FROM generate_series(1, $1::int) i
     RETURNING id`,
    [count],
  );
  return rows.map((r) => r.id);
}

/** `count` QR reviews spread over `toiletIds`, over the last 30 days. */
export async function seedComments(db: Db, toiletIds: number[], count: number) {
  await db.query(
    `INSERT INTO comments (content, star_level, toilet_id, source, created_at)
     SELECT (ARRAY['男厕很干净', '女厕有异味', '洗手液没了', '服务态度好', 'clean and tidy'])[1 + i % 5] || i,
            1 + i % 5, ($1::int[])[1 + i % cardinality($1::int[])], 'qr',
            now() - (i % 43200) * interval '1 minute'
       FROM generate_series(1, $2::int) i`,
    [toiletIds, count],
  );
}

/** Fresh planner statistics after a bulk load. */
export async function analyzeAll(db: Db) {
  await db.query('ANALYZE');
}

/**
 * The list tables as a running server keeps them after a bulk load: vacuumed (pages
 * all-visible, so lists read their indexes alone) and analysed. PostgreSQL's autovacuum does
 * this within a minute of such a load (the test server runs with it off); on PGlite the
 * console vacuums the closure tables at start and every ten minutes (db/maintenance.ts).
 * The readings are left to ANALYZE: vacuuming millions of rows is no part of a list.
 */
export async function vacuumLists(db: Db) {
  await db.query(
    'VACUUM (ANALYZE) devices, device_access, device_bindings, toilets, toilet_access, toilet_bindings, users, comments, maintenance_records, maintenance_device_toilets',
  );
}

/** The ids of the `n` newest live devices. */
export async function newestDeviceIds(db: Db, n: number) {
  const rows = await db.query<{ id: number }>(
    `SELECT id FROM devices WHERE NOT is_delete ORDER BY id DESC LIMIT $1`,
    [n],
  );
  return rows.map((r) => r.id);
}

/** Every `every`-th device reports just now: the rows the online filter finds. */
export async function markOnline(db: Db, every: number) {
  await db.query(`UPDATE devices SET time = now() WHERE NOT is_delete AND id % $1 = 0`, [every]);
}
