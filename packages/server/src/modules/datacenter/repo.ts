import {
  JWB_WARNING,
  OFFLINE_MS,
  TOILET_STATUS,
  TZ_OFFSET_SQL,
  type CommentFeedRow,
  type DeviceKindTotal,
  type LiquidRow,
  type MapPoint,
} from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, localTime } from '../../db/sql.ts';
import { commentSeen, deviceSeen, toiletSeen } from '../access/visible-repo.ts';

// The data centres' aggregates. Each is one query over the caller's visible set (a user-path
// prefix; '/' sees all): device rows and their merged `latest` state, the hourly rollups and
// the comments — never a query per toilet or device.

/** A toilet bound to a user of the scope's subtree; '/' sees all. */
function toiletVisible(w: Params, scope: string, alias = 't') {
  return toiletSeen(w, scope, `${alias}.id`);
}

/** A device of any kind the scope sees (a sensor through its gateway). */
function deviceVisible(w: Params, scope: string, alias = 'd') {
  return deviceSeen(w, scope, `${alias}.id`);
}

/**
 * A comment is visible with its toilet or with the terminal that sent it. Exported for the
 * live hub, which filters pushes the same way.
 */
export function commentVisibleSql(w: Params, scope: string, alias = 'c') {
  return commentSeen(w, scope, alias);
}

/** The offline threshold of a kind as SQL (ms), the rule of modules/devices. */
const offlineMsSql = (alias: string) =>
  `(CASE WHEN ${alias}.kind = 'sensor' THEN ${OFFLINE_MS.sensor}
         WHEN ${alias}.kind IN ('electric_meter', 'water_meter') THEN ${OFFLINE_MS.meter}
         ELSE ${OFFLINE_MS.default} END)`;
const onlineSql = (alias: string) =>
  `coalesce(${alias}.time >= now() - ${offlineMsSql(alias)} * interval '1 millisecond', false)`;

export async function toiletTotals(q: Queryable, scope: string) {
  const w = new Params();
  const r = await first<{ toilets: number; cleaning: number; repair: number; alarm: number }>(
    q,
    `SELECT count(*)::int AS toilets,
            count(*) FILTER (WHERE t.status & ${TOILET_STATUS.cleaning} <> 0)::int AS cleaning,
            count(*) FILTER (WHERE t.status & ${TOILET_STATUS.repair} <> 0)::int AS repair,
            count(*) FILTER (WHERE t.status & ${TOILET_STATUS.alarm} <> 0)::int AS alarm
       FROM toilets t WHERE NOT t.is_delete AND ${toiletVisible(w, scope)}`,
    w.values,
  );
  return r ?? { toilets: 0, cleaning: 0, repair: 0, alarm: 0 };
}

export function deviceTotals(q: Queryable, scope: string) {
  const w = new Params();
  return q.query<DeviceKindTotal>(
    `SELECT d.kind, count(*)::int AS total, count(*) FILTER (WHERE ${onlineSql('d')})::int AS online
       FROM devices d WHERE NOT d.is_delete AND ${deviceVisible(w, scope)}
      GROUP BY d.kind ORDER BY d.kind`,
    w.values,
  );
}

/**
 * Uses per hour since `since` from the gateways' *_times counters (uses since the previous
 * report), summed by the hourly rollup. One index range per gateway (LATERAL), so the rollup
 * table is never scanned whole.
 */
export function visitorHours(q: Queryable, scope: string, since: Date) {
  const w = new Params();
  const sum = (g: string) => `sum(coalesce((h.sums->>'${g}_times')::float8, 0))::float8 AS ${g}`;
  const from = w.p(since.toISOString());
  return q.query<{ hour: number; male: number; female: number; others: number }>(
    `SELECT (extract(epoch FROM h.hour) * 1000)::float8 AS hour, ${sum('male')}, ${sum('female')}, ${sum('others')}
       FROM devices d
       CROSS JOIN LATERAL (SELECT x.hour, x.sums FROM telemetry_hourly x
                            WHERE x.device_id = d.id AND x.hour >= ${from}) h
      WHERE d.kind = 'gateway' AND NOT d.is_delete AND ${deviceVisible(w, scope)}
      GROUP BY 1 ORDER BY 1`,
    w.values,
  );
}

export interface ToiletState {
  toilet_id: number;
  name: string;
  gateway_id: number;
  online: boolean;
  latest: Record<string, unknown>;
}

/**
 * Visible toilets with a gateway, with the gateway's latest merged report: the `limit` after
 * toilet id `after`, in id order (the overview reads them page by page, see service.ts).
 */
export function toiletStates(q: Queryable, scope: string, after: number, limit: number) {
  const w = new Params();
  return q.query<ToiletState>(
    `SELECT t.id AS toilet_id, t.name, g.id AS gateway_id, ${onlineSql('g')} AS online, g.latest
       FROM toilets t JOIN devices g ON g.id = t.gateway_id AND NOT g.is_delete
      WHERE NOT t.is_delete AND t.id > ${w.p(after)} AND ${toiletVisible(w, scope)}
      ORDER BY t.id LIMIT ${w.p(limit)}`,
    w.values,
  );
}

export interface RatingDayRow {
  day: string;
  count: number;
  star_sum: number;
  badattitude: number;
  inefficiency: number;
  poorsanitary: number;
  smelly: number;
  s1: number;
  s2: number;
  s3: number;
  s4: number;
  s5: number;
}

/** Visible comments since `since`, per UTC+8 day: count, star sum, flags and star levels. */
export function ratingDays(q: Queryable, scope: string, since: Date) {
  const w = new Params();
  const flag = (f: string) => `count(*) FILTER (WHERE c.${f})::int AS ${f}`;
  const star = (n: number) => `count(*) FILTER (WHERE c.star_level = ${n})::int AS s${n}`;
  return q.query<RatingDayRow>(
    `SELECT to_char((c.created_at AT TIME ZONE 'UTC') + ${TZ_OFFSET_SQL}, 'YYYY-MM-DD') AS day,
            count(*)::int AS count, sum(c.star_level)::int AS star_sum,
            ${['badattitude', 'inefficiency', 'poorsanitary', 'smelly'].map(flag).join(', ')},
            ${[1, 2, 3, 4, 5].map(star).join(', ')}
       FROM comments c
      WHERE NOT c.is_delete AND c.created_at >= ${w.p(since.toISOString())} AND ${commentVisibleSql(w, scope)}
      GROUP BY 1 ORDER BY 1`,
    w.values,
  );
}

const COMMENT_ROW = `c.id::int AS id, c.toilet_id, coalesce(t.name, e."desc", '') AS toilet_name, c.equipment_id,
  c.star_level, c.content, c.badattitude, c.inefficiency, c.poorsanitary, c.smelly,
  ${localTime('c.created_at')} AS created_at`;
const COMMENT_FROM = `comments c LEFT JOIN toilets t ON t.id = c.toilet_id LEFT JOIN devices e ON e.id = c.equipment_id`;

/** The newest visible comments. */
export function recentComments(q: Queryable, scope: string, limit: number) {
  const w = new Params();
  return q.query<CommentFeedRow>(
    `SELECT ${COMMENT_ROW} FROM ${COMMENT_FROM}
      WHERE NOT c.is_delete AND ${commentVisibleSql(w, scope)}
      ORDER BY c.id DESC LIMIT ${w.p(limit)}`,
    w.values,
  );
}

/** Comments by id with the ids each is visible to decided by the caller (the hub). */
export function commentsByIds(q: Queryable, ids: number[]) {
  return q.query<CommentFeedRow>(
    `SELECT ${COMMENT_ROW} FROM ${COMMENT_FROM} WHERE c.id = ANY($1::bigint[]) AND NOT c.is_delete ORDER BY c.id`,
    [ids],
  );
}

const LIQUID = `(CASE WHEN jsonb_typeof(d.latest->'liquid') = 'number' THEN (d.latest->>'liquid')::float8 END)`;

/** Dispensers: totals, the lack-of-liquid count, fill bands, and the emptiest ones. */
export async function liquidLevels(q: Queryable, scope: string, max: number, limit: number) {
  const w = new Params();
  const where = `d.kind = 'jwb' AND NOT d.is_delete AND ${deviceVisible(w, scope)}`;
  const band = (lo: number, hi: number) =>
    `count(*) FILTER (WHERE ${LIQUID} >= ${(lo * max) / 100} AND ${LIQUID} ${hi === 100 ? '<=' : '<'} ${(hi * max) / 100})::int`;
  const values = [...w.values];
  const [totals, list] = await Promise.all([
    first<{ total: number; lacking: number; bands: number[] }>(
      q,
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE d.warning & ${JWB_WARNING.lackOfLiquid} <> 0)::int AS lacking,
              ARRAY[${band(0, 20)}, ${band(20, 40)}, ${band(40, 60)}, ${band(60, 80)}, ${band(80, 100)},
                    count(*) FILTER (WHERE ${LIQUID} IS NULL)::int] AS bands
         FROM devices d WHERE ${where}`,
      values,
    ),
    q.query<LiquidRow>(
      `SELECT d.id, d.ser_num, d."desc", ${onlineSql('d')} AS online, ${LIQUID} AS liquid, d.warning
         FROM devices d WHERE ${where}
        ORDER BY ${LIQUID} ASC NULLS LAST, d.id LIMIT ${w.p(limit)}`,
      w.values,
    ),
  ]);
  return { ...(totals ?? { total: 0, lacking: 0, bands: [0, 0, 0, 0, 0, 0] }), list };
}

/** Visible toilets with a position (one more than `limit` tells the caller it was cut). */
export function mapPoints(q: Queryable, scope: string, limit: number) {
  const w = new Params();
  return q.query<MapPoint>(
    `SELECT t.id, t.name, t.lng, t.lat, t.pname, t.cityname, t.address, t.status,
            coalesce(${onlineSql('g')}, false) AS online, t.gateway_id
       FROM toilets t LEFT JOIN devices g ON g.id = t.gateway_id AND NOT g.is_delete
      WHERE NOT t.is_delete AND t.lat IS NOT NULL AND t.lng IS NOT NULL
        AND t.lat BETWEEN -90 AND 90 AND t.lng BETWEEN -180 AND 180 AND ${toiletVisible(w, scope)}
      ORDER BY t.id LIMIT ${w.p(limit + 1)}`,
    w.values,
  );
}

export function provinceCounts(q: Queryable, scope: string) {
  const w = new Params();
  return q.query<{ pname: string; count: number }>(
    `SELECT t.pname, count(*)::int AS count FROM toilets t
      WHERE NOT t.is_delete AND t.pname <> '' AND ${toiletVisible(w, scope)}
      GROUP BY t.pname ORDER BY count DESC, t.pname`,
    w.values,
  );
}
