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

/** A time range [from, to) in ms; `to` Infinity for no end. */
export interface Span {
  from: number;
  to: number;
}

/**
 * A stored row of a source: its time (ms), its fields as stored — raw reports' values, the
 * five-minute rollup's `[n, sum, min, max]`, the hourly rollup's sums — and the hourly
 * rollup's counts (null for the others).
 */
export type HistoryRow = [at: number, f: Record<string, unknown>, c: Record<string, unknown> | null];

/**
 * Each source's rows in one range, over the parameters `id` (device) and `from`, and `to`
 * unless the range has no end (its condition, or '').
 */
const ROWS: Record<HistorySource, (id: string, from: string, to: (col: string) => string) => string> = {
  raw: (id, from, to) =>
    `SELECT date_part('epoch', t.ts) * 1000 AS at, t.data AS f, NULL::jsonb AS c
       FROM telemetry t WHERE t.device_id = ${id} AND t.ts >= ${from}${to('t.ts')}`,
  '5min': (id, from, to) =>
    `SELECT date_part('epoch', r.bucket) * 1000 AS at, r.f, NULL::jsonb AS c
       FROM telemetry_5min r WHERE r.device_id = ${id} AND r.bucket >= ${from}${to('r.bucket')}`,
  hourly: (id, from, to) =>
    `SELECT date_part('epoch', h.hour) * 1000 AS at, h.sums AS f, h.counts AS c
       FROM telemetry_hourly h WHERE h.device_id = ${id} AND h.hour >= ${from}${to('h.hour')}`,
};

/**
 * A device's stored rows from `source` over `spans`, in one statement with the visibility
 * check and the device's history revision (devices.history_rev): null when the scope does
 * not see the device (or it is deleted). The rows as stored, each span a range of the
 * source's (device, time) primary key, sent as one JSON text: averaging them per bucket is
 * the caller's. On PGlite a statement's cost is mostly its result rows (720 hourly rows as
 * rows of jsonb cost ~7× the same as one text), and a plan grouping by bucket read the
 * hourly rollup by a parallel scan of the whole table on PostgreSQL.
 */
export async function history(
  q: Queryable,
  scope: string,
  f: { deviceId: number; source: HistorySource; spans: Span[] },
) {
  const w = new Params();
  const id = `${w.p(f.deviceId)}::int`;
  const at = (ms: number) => `${w.p(new Date(ms).toISOString())}::timestamptz`;
  const arms = f.spans
    .filter((s) => s.to > s.from)
    .map((s) => {
      const end = Number.isFinite(s.to) ? at(s.to) : null;
      return ROWS[f.source](id, at(s.from), (col) => (end ? ` AND ${col} < ${end}` : ''));
    });
  const rows = arms.length
    ? `(SELECT json_agg(json_build_array(x.at, x.f, x.c))::text FROM (${arms.join(' UNION ALL ')}) x)`
    : 'NULL::text';
  const r = await first<{ rev: number; rows: string | null }>(
    q,
    `SELECT d.history_rev AS rev, ${rows} AS rows
       FROM devices d WHERE d.id = ${id} AND NOT d.is_delete AND ${deviceSeen(w, scope)}`,
    w.values,
    { prepare: true, generic: true },
  );
  if (!r) return null;
  return { rev: r.rev, rows: r.rows ? (JSON.parse(r.rows) as HistoryRow[]) : [] };
}

/** Marks the devices' history as changed where the history cache may hold it (a late report). */
export async function bumpHistoryRev(tx: Queryable, deviceIds: number[]) {
  await tx.query(`UPDATE devices SET history_rev = history_rev + 1 WHERE id = ANY($1::int[])`, [deviceIds]);
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
