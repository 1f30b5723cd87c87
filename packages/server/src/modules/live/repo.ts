import type { AlarmRow } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, fromLocal, localTime, selectPage } from '../../db/sql.ts';
import { deviceSeen } from '../access/visible-repo.ts';
import { deviceToiletSql } from '../devices/repo.ts';

const ROW = `a.id, a.device_id, d.kind, d.ser_num, d."desc", ${deviceToiletSql('d')} AS toilet_id,
  a.type, a.status, a.message, a.detail,
  ${localTime('a.opened_at')} AS opened_at, ${localTime('a.acked_at')} AS acked_at,
  coalesce(u.user_name, '') AS acked_by_name, ${localTime('a.closed_at')} AS closed_at`;
const FROM = `alarms a JOIN devices d ON d.id = a.device_id LEFT JOIN users u ON u.id = a.acked_by`;

/** A device's alarms are visible to whoever sees the device (a sensor: its gateway). */
function alarmVisible(w: Params, scope: string) {
  return deviceSeen(w, scope, 'd.id', { live: true });
}

export async function listAlarms(
  q: Queryable,
  f: { scope: string; status: string; type?: string; deviceId?: number; limit: number; offset: number },
) {
  const w = new Params();
  const cond = ['NOT d.is_delete', alarmVisible(w, f.scope)];
  if (f.status === 'active') cond.push(`a.status <> 'closed'`);
  else if (f.status !== 'all') cond.push(`a.status = ${w.p(f.status)}`);
  if (f.type) cond.push(`a.type = ${w.p(f.type)}`);
  if (f.deviceId !== undefined) cond.push(`a.device_id = ${w.p(f.deviceId)}`);
  const where = cond.join(' AND ');
  return selectPage<AlarmRow>(q, w, f, {
    list: (page) => `SELECT ${ROW} FROM ${FROM} WHERE ${where} ORDER BY a.id DESC ${page}`,
    where,
    countFrom: 'alarms a JOIN devices d ON d.id = a.device_id',
  });
}

export async function countAlarms(q: Queryable, scope: string) {
  const w = new Params();
  const r = await first<{ open: number; active: number }>(
    q,
    `SELECT count(*) FILTER (WHERE a.status = 'open')::int AS open, count(*)::int AS active
       FROM alarms a JOIN devices d ON d.id = a.device_id
      WHERE a.status <> 'closed' AND NOT d.is_delete AND ${alarmVisible(w, scope)}`,
    w.values,
  );
  return r ?? { open: 0, active: 0 };
}

export function findAlarm(q: Queryable, id: number, scope: string) {
  const w = new Params();
  return first<AlarmRow>(
    q,
    `SELECT ${ROW} FROM ${FROM} WHERE a.id = ${w.p(id)} AND ${alarmVisible(w, scope)}`,
    w.values,
  );
}

export function alarmsByIds(q: Queryable, ids: number[]) {
  return q.query<AlarmRow>(`SELECT ${ROW} FROM ${FROM} WHERE a.id = ANY($1::bigint[])`, [ids]);
}

export function ackAlarm(q: Queryable, id: number, userId: number) {
  return q.query(
    `UPDATE alarms SET status = 'acked', acked_at = now(), acked_by = $2 WHERE id = $1 AND status = 'open'`,
    [id, userId],
  );
}

/** Where a device's history is read from (HistoryData.source). */
export type HistorySource = 'raw' | '5min' | 'hourly';

/**
 * Each source's averages per bucket of every numeric field, as SQL over the parameters
 * `id` (device), `from`, `to` and `b` (bucket ms); `seen` gates it (a one-time filter).
 */
const POINTS: Record<
  HistorySource,
  (id: string, from: string, to: string, b: string, seen: string) => string
> = {
  raw: (id, from, to, b, seen) =>
    `SELECT (floor(extract(epoch FROM t.ts) * 1000 / ${b}) * ${b})::float8 AS ts, e.key AS k, avg(e.value::text::float8)::float8 AS v
       FROM telemetry t, jsonb_each(t.data) e
      WHERE ${seen} AND t.device_id = ${id} AND t.ts >= ${from} AND t.ts < ${to} AND jsonb_typeof(e.value) = 'number'
      GROUP BY 1, 2`,
  '5min': (id, from, to, b, seen) =>
    `SELECT (floor(extract(epoch FROM r.bucket) * 1000 / ${b}) * ${b})::float8 AS ts, e.key AS k,
            (sum((e.value->>1)::float8) / sum((e.value->>0)::int))::float8 AS v
       FROM telemetry_5min r, jsonb_each(r.f) e
      WHERE ${seen} AND r.device_id = ${id} AND r.bucket >= ${from} AND r.bucket < ${to}
      GROUP BY 1, 2`,
  hourly: (id, from, to, b, seen) =>
    `SELECT (floor(extract(epoch FROM h.hour) * 1000 / ${b}) * ${b})::float8 AS ts, s.key AS k,
            (sum(s.value::text::float8) / nullif(sum((h.counts->>s.key)::float8), 0))::float8 AS v
       FROM telemetry_hourly h, jsonb_each(h.sums) s
      WHERE ${seen} AND h.device_id = ${id} AND h.hour >= ${from} AND h.hour < ${to}
      GROUP BY 1, 2`,
};

/**
 * A device's averages per bucket from `source`, in one statement with the visibility check:
 * null when the scope does not see the device (or it is deleted), else the points, oldest first.
 */
export async function history(
  q: Queryable,
  scope: string,
  f: { deviceId: number; source: HistorySource; start: Date; end: Date; bucketMs: number },
) {
  const w = new Params();
  const id = `${w.p(f.deviceId)}::int`;
  const seen = `EXISTS (SELECT 1 FROM devices d WHERE d.id = ${id} AND NOT d.is_delete AND ${deviceSeen(w, scope)})`;
  const points = POINTS[f.source](
    id,
    `${w.p(f.start.toISOString())}::timestamptz`,
    `${w.p(f.end.toISOString())}::timestamptz`,
    `${w.p(f.bucketMs)}::float8`,
    'v.seen',
  );
  const rows = await q.query<{ seen: boolean; ts: number | null; k: string | null; v: number | null }>(
    `SELECT v.seen, p.ts, p.k, p.v FROM (SELECT ${seen} AS seen) v LEFT JOIN LATERAL (${points}) p ON true ORDER BY p.ts`,
    w.values,
  );
  if (!rows[0]?.seen) return null;
  return rows.filter((r): r is { seen: boolean; ts: number; k: string; v: number } => r.k !== null);
}

/** A device's five-minute buckets as stored (count, mean, least, greatest per field), oldest first. */
export function fiveMinuteBuckets(q: Queryable, deviceId: number, start: Date, end: Date) {
  return q.query<{ bucket: number; key: string; n: number; mean: number; min: number; max: number }>(
    `SELECT (extract(epoch FROM r.bucket) * 1000)::float8 AS bucket, e.key, (e.value->>0)::int AS n,
            ((e.value->>1)::float8 / (e.value->>0)::int)::float8 AS mean,
            (e.value->>2)::float8 AS min, (e.value->>3)::float8 AS max
       FROM telemetry_5min r, jsonb_each(r.f) e
      WHERE r.device_id = $1 AND r.bucket >= $2 AND r.bucket < $3 ORDER BY r.bucket, e.key`,
    [deviceId, start.toISOString(), end.toISOString()],
  );
}

export { fromLocal };
