import { TZ_OFFSET_SQL, type Gas } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { Params } from '../../db/sql.ts';
import { commentSeen, deviceSeen } from '../access/visible-repo.ts';
import { STAR_COUNTS, type StarCounts } from '../comments/repo.ts';

// The weekly report's SQL. `path` is the reader's subtree; null reads everything (develop).

type Range = readonly [ids: number[], start: Date, end: Date];

export function weeklyDevices(q: Queryable, kinds: readonly string[], path: string | null) {
  const w = new Params();
  const kindsP = w.p(kinds);
  const visible = deviceSeen(w, path ?? '/', 'd.id', { live: true });
  return q.query<{ id: number; ser_num: string; desc: string; kind: string }>(
    `SELECT d.id, d.ser_num, d."desc", d.kind FROM devices d
      WHERE NOT d.is_delete AND d.kind = ANY(${kindsP}::text[]) AND ${visible} ORDER BY d.ser_num`,
    w.values,
  );
}

/** Hours reported and the mean of each gas per device. */
export function weeklyHourly(q: Queryable, gases: readonly Gas[], range: Range) {
  const gasCols = gases
    .map((g) => `sum((h.sums->>'${g}')::float8) / nullif(sum((h.counts->>'${g}')::float8), 0) AS ${g}`)
    .join(', ');
  return q.query<{ device_id: number; hours: number } & Record<Gas, number | null>>(
    `SELECT h.device_id, count(*)::int AS hours, ${gasCols}
         FROM telemetry_hourly h WHERE h.device_id = ANY($1::int[]) AND h.hour >= $2 AND h.hour < $3
        GROUP BY h.device_id`,
    range,
  );
}

/** Liquid used (sum of the hourly drops), first and last level per dispenser. */
export function weeklyLiquid(q: Queryable, range: Range) {
  return q.query<{ device_id: number; used: number; first: number; last: number }>(
    `SELECT device_id, coalesce(sum(greatest(prev - cur, 0)), 0)::float8 AS used,
                  (array_agg(cur ORDER BY hour))[1] AS first, (array_agg(cur ORDER BY hour DESC))[1] AS last
             FROM (SELECT device_id, hour, (sums->>'liquid')::float8 / nullif((counts->>'liquid')::float8, 0) AS cur,
                          lag((sums->>'liquid')::float8 / nullif((counts->>'liquid')::float8, 0))
                            OVER (PARTITION BY device_id ORDER BY hour) AS prev
                     FROM telemetry_hourly
                    WHERE device_id = ANY($1::int[]) AND hour >= $2 AND hour < $3 AND counts ? 'liquid') x
            GROUP BY device_id`,
    range,
  );
}

export function weeklyAlarmsByType(q: Queryable, range: Range) {
  return q.query<{ device_id: number; type: string; n: number }>(
    `SELECT device_id, type, count(*)::int AS n FROM alarms
        WHERE device_id = ANY($1::int[]) AND opened_at >= $2 AND opened_at < $3 GROUP BY device_id, type`,
    range,
  );
}

/** Devices online per day of the week (day 0 = the week's start). */
export function weeklyOnlineDays(q: Queryable, range: Range) {
  return q.query<{ day: number; n: number }>(
    `SELECT floor(extract(epoch FROM h.hour - $2::timestamptz) / 86400)::int AS day, count(DISTINCT h.device_id)::int AS n
         FROM telemetry_hourly h WHERE h.device_id = ANY($1::int[]) AND h.hour >= $2 AND h.hour < $3 GROUP BY 1`,
    range,
  );
}

export function weeklyAlarmDays(q: Queryable, range: Range) {
  return q.query<{ day: number; n: number }>(
    `SELECT floor(extract(epoch FROM opened_at - $2::timestamptz) / 86400)::int AS day, count(*)::int AS n
         FROM alarms WHERE device_id = ANY($1::int[]) AND opened_at >= $2 AND opened_at < $3 GROUP BY 1`,
    range,
  );
}

/** Ratings per toilet (or terminal without one) in the week. */
export function weeklyRatings(q: Queryable, path: string | null, start: Date, end: Date) {
  const w = new Params();
  w.p(start);
  w.p(end);
  const visible = commentSeen(w, path ?? '/');
  return q.query<StarCounts & { name: string; n: number; stars: number }>(
    `SELECT coalesce(t.name, e.ser_num, '') AS name, count(*)::int AS n, sum(c.star_level)::int AS stars,
            ${STAR_COUNTS}
       FROM comments c LEFT JOIN toilets t ON t.id = c.toilet_id LEFT JOIN devices e ON e.id = c.equipment_id
      WHERE NOT c.is_delete AND c.created_at >= $1 AND c.created_at < $2 AND ${visible}
      GROUP BY 1 ORDER BY 2 DESC, 1`,
    w.values,
  );
}

/** Users (not deleted) with any of the `mask` services. */
export function weeklySubscribers(q: Queryable, mask: number) {
  return q.query<{
    id: number;
    user_name: string;
    email: string | null;
    permissions: number;
    services: number;
    path: string;
  }>(
    `SELECT id, user_name, email, permissions, services, path FROM users
      WHERE NOT is_delete AND (services & $1) <> 0 ORDER BY id`,
    [mask],
  );
}

/**
 * Claims one user's report of a kind and week at `now`; undefined when it is built or
 * another run's claim is younger than `leaseMs`. An older unbuilt claim (the run that made
 * it died before building) is taken over.
 */
export async function claimWeeklyReport(
  q: Queryable,
  userId: number,
  kind: string,
  weekStart: Date,
  now: Date,
  leaseMs: number,
) {
  const rows = await q.query<{ id: number }>(
    `INSERT INTO weekly_reports AS w (user_id, kind, week_start, claimed_at)
         VALUES ($1, $2, ($3::timestamptz + ${TZ_OFFSET_SQL})::date, $4)
         ON CONFLICT (user_id, kind, week_start) DO UPDATE SET claimed_at = EXCLUDED.claimed_at
          WHERE w.built_at IS NULL AND w.claimed_at < $4::timestamptz - $5 * interval '1 millisecond'
         RETURNING id`,
    [userId, kind, weekStart, now, leaseMs],
  );
  return rows[0]?.id;
}

/** The claimed report is built: no run makes it again. */
export async function markWeeklyReportBuilt(q: Queryable, id: number) {
  await q.query(`UPDATE weekly_reports SET built_at = now() WHERE id = $1`, [id]);
}

/** Whether a user's download centre already holds the report file (`name`) of a week. */
export async function hasWeeklyFile(q: Queryable, userId: number, name: string, weekStart: string) {
  const rows = await q.query(
    `SELECT 1 FROM downloads WHERE user_id = $1 AND name = $2 AND params->>'week_start' = $3 LIMIT 1`,
    [userId, name, weekStart],
  );
  return rows.length > 0;
}

/** Gives a claim back so the next run retries the report. */
export async function releaseWeeklyReport(q: Queryable, id: number) {
  await q.query(`DELETE FROM weekly_reports WHERE id = $1`, [id]);
}
