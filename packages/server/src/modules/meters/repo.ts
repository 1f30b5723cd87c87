import type { Queryable } from '../../db/index.ts';

// Meter usage SQL (issue 15): state per meter, the usage rollups, and what screens read.

/** The meters' last readings, locked for the batch (copies of the server share the table). */
export function lockStates(tx: Queryable, ids: number[]) {
  return tx.query<{ device_id: number; last_ts: Date; last_reading: number }>(
    `SELECT device_id, last_ts, last_reading FROM meter_state WHERE device_id = ANY($1::int[]) ORDER BY device_id FOR UPDATE`,
    [ids],
  );
}

export async function saveStates(tx: Queryable, ids: number[], ts: string[], readings: number[]) {
  await tx.query(
    `INSERT INTO meter_state (device_id, last_ts, last_reading)
       SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::float8[])
       ON CONFLICT (device_id) DO UPDATE SET last_ts = EXCLUDED.last_ts, last_reading = EXCLUDED.last_reading`,
    [ids, ts, readings],
  );
}

/** Adds usage to the rollups; a period's gap and reset marks accumulate. */
export async function addUsage(
  tx: Queryable,
  ids: number[],
  grains: string[],
  starts: string[],
  usage: number[],
  gaps: boolean[],
  resets: number[],
) {
  await tx.query(
    `INSERT INTO meter_usage (device_id, grain, period_start, usage, gap, resets)
       SELECT * FROM unnest($1::int[], $2::text[], $3::timestamptz[], $4::float8[], $5::bool[], $6::int[])
       ON CONFLICT (device_id, grain, period_start) DO UPDATE SET
         usage = meter_usage.usage + EXCLUDED.usage,
         gap = meter_usage.gap OR EXCLUDED.gap,
         resets = meter_usage.resets + EXCLUDED.resets`,
    [ids, grains, starts, usage, gaps, resets],
  );
}

/** One meter's rows of a grain in [from, to). */
export function usageRows(q: Queryable, id: number, grain: string, from: string, to: string) {
  return q.query<{ period_start: Date; usage: number; gap: boolean; resets: number }>(
    `SELECT period_start, usage, gap, resets FROM meter_usage
      WHERE device_id = $1 AND grain = $2 AND period_start >= $3 AND period_start < $4
      ORDER BY period_start`,
    [id, grain, from, to],
  );
}

/** Hourly rows of several meters in [from, to), for the night alarms. */
export function hourRows(q: Queryable, ids: number[], from: string, to: string) {
  return q.query<{ device_id: number; period_start: Date; usage: number; gap: boolean }>(
    `SELECT device_id, period_start, usage, gap FROM meter_usage
      WHERE grain = 'hour' AND device_id = ANY($1::int[]) AND period_start >= $2 AND period_start < $3`,
    [ids, from, to],
  );
}

/**
 * Usage of the meters placed in a building (or one room), per period of a grain in
 * [from, to), by meter kind: the sum over the placed meters' rollups. Placements are
 * campus's table (`placements`, one row per placed device).
 */
export function placedUsage(
  q: Queryable,
  where: { orgId: number; buildingId?: number; roomId?: number },
  grain: string,
  from: string,
  to: string,
) {
  return q.query<{ kind: string; period_start: Date; usage: number; gap: boolean; meters: number }>(
    `SELECT d.kind, u.period_start, sum(u.usage)::float8 AS usage, bool_or(u.gap) AS gap,
            count(*)::int AS meters
       FROM placements p
       JOIN devices d ON d.id = p.device_id AND NOT d.is_delete
       JOIN meter_usage u ON u.device_id = p.device_id AND u.grain = $4
                         AND u.period_start >= $5 AND u.period_start < $6
      WHERE p.org_id = $1
        AND ($2::int IS NULL OR p.building_id = $2)
        AND ($3::int IS NULL OR p.room_id = $3)
        AND d.kind IN ('electric_meter', 'water_meter')
      GROUP BY d.kind, u.period_start
      ORDER BY u.period_start, d.kind`,
    [where.orgId, where.buildingId ?? null, where.roomId ?? null, grain, from, to],
  );
}

/**
 * Usage per building (or per room of one building) of an organisation in [from, to), by
 * meter kind, one grain: for data-centre and list rows.
 */
export function usageByPlace(
  q: Queryable,
  orgId: number,
  by: 'building' | 'room',
  grain: string,
  from: string,
  to: string,
  buildingId?: number,
) {
  const col = by === 'building' ? 'p.building_id' : 'p.room_id';
  return q.query<{ place_id: number; kind: string; usage: number; gap: boolean }>(
    `SELECT ${col} AS place_id, d.kind, sum(u.usage)::float8 AS usage, bool_or(u.gap) AS gap
       FROM placements p
       JOIN devices d ON d.id = p.device_id AND NOT d.is_delete
       JOIN meter_usage u ON u.device_id = p.device_id AND u.grain = $3
                         AND u.period_start >= $4 AND u.period_start < $5
      WHERE p.org_id = $1 AND ${col} IS NOT NULL
        AND ($2::int IS NULL OR p.building_id = $2)
        AND d.kind IN ('electric_meter', 'water_meter')
      GROUP BY ${col}, d.kind`,
    [orgId, buildingId ?? null, grain, from, to],
  );
}
