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

/** Averages per bucket of every numeric field, from raw reports. */
export async function rawHistory(q: Queryable, deviceId: number, start: Date, end: Date, bucketMs: number) {
  return q.query<{ ts: number; k: string; v: number }>(
    `SELECT (floor(extract(epoch FROM t.ts) * 1000 / $4) * $4)::float8 AS ts, e.key AS k, avg(e.value::text::float8)::float8 AS v
       FROM telemetry t, jsonb_each(t.data) e
      WHERE t.device_id = $1 AND t.ts >= $2 AND t.ts < $3 AND jsonb_typeof(e.value) = 'number'
      GROUP BY 1, 2 ORDER BY 1`,
    [deviceId, start.toISOString(), end.toISOString(), bucketMs],
  );
}

/** Averages per bucket (a whole number of hours) from the hourly rollup. */
export async function hourlyHistory(
  q: Queryable,
  deviceId: number,
  start: Date,
  end: Date,
  bucketMs: number,
) {
  return q.query<{ ts: number; k: string; v: number }>(
    `SELECT (floor(extract(epoch FROM h.hour) * 1000 / $4) * $4)::float8 AS ts, s.key AS k,
            (sum(s.value::text::float8) / nullif(sum((h.counts->>s.key)::float8), 0))::float8 AS v
       FROM telemetry_hourly h, jsonb_each(h.sums) s
      WHERE h.device_id = $1 AND h.hour >= $2 AND h.hour < $3
      GROUP BY 1, 2 ORDER BY 1`,
    [deviceId, start.toISOString(), end.toISOString(), bucketMs],
  );
}

export { fromLocal };
