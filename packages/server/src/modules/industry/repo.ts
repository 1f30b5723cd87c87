import type { MonitorRow } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { Params, keywordSql, onlineSql, selectPage } from '../../db/sql.ts';
import { deviceSeen } from '../access/visible-repo.ts';

// Smart industry SQL: monitors are gateways with an industrial type; where they stand comes
// from campus placements (organisation = site, building = workshop, room = work area).

export interface MonitorScope {
  /** Account scope (deviceSeen). */
  scope: string;
  /** The caller's own organisation: its placed monitors are seen too. */
  orgId: number | null;
}

/** The SQL condition "monitor d is seen": bound to the scope, or placed in the caller's organisation. */
function monitorSeen(w: Params, s: MonitorScope) {
  const seen = deviceSeen(w, s.scope, 'd.id', { kind: 'gateway', live: true });
  return s.orgId === null ? seen : `(${seen} OR p.org_id = ${w.p(s.orgId)}::int)`;
}

export interface MonitorFilter {
  keywords?: string;
  orgId?: number;
  buildingId?: number;
  roomId?: number;
  industrialType?: string;
  online?: boolean;
  offlineMs: number;
  limit: number;
  offset: number;
}

const FROM = `devices d
  LEFT JOIN placements p ON p.device_id = d.id
  LEFT JOIN organisations o ON o.id = p.org_id
  LEFT JOIN campus_buildings b ON b.id = p.building_id
  LEFT JOIN campus_rooms r ON r.id = p.room_id`;

export function listMonitors(q: Queryable, s: MonitorScope, f: MonitorFilter) {
  const w = new Params();
  const cond = [`NOT d.is_delete`, `d.kind = 'gateway'`, `d.industrial_type IS NOT NULL`, monitorSeen(w, s)];
  if (f.keywords) cond.push(keywordSql(w, 'devices', f.keywords));
  if (f.orgId !== undefined) cond.push(`p.org_id = ${w.p(f.orgId)}::int`);
  if (f.buildingId !== undefined) cond.push(`p.building_id = ${w.p(f.buildingId)}::int`);
  if (f.roomId !== undefined) cond.push(`p.room_id = ${w.p(f.roomId)}::int`);
  if (f.industrialType) cond.push(`d.industrial_type = ${w.p(f.industrialType)}`);
  if (f.online !== undefined) cond.push(onlineSql(w, f.offlineMs, f.online));
  const where = cond.join(' AND ');
  const countValues = [...w.values];
  const online = `coalesce(d.time >= now() - ${w.p(f.offlineMs)} * interval '1 millisecond', false)`;
  return selectPage<MonitorRow>(q, w, f, {
    list: (page) =>
      `SELECT d.id, d.ser_num, d."desc", d.industrial_type, ${online} AS online,
              (extract(epoch FROM d.time) * 1000)::float8 AS time, d.latest,
              p.org_id, o.name AS org_name, p.building_id, b.name AS building_name,
              p.room_id, coalesce(nullif(r.name, ''), r.number) AS room_name,
              (SELECT count(*)::int FROM alarms a WHERE a.device_id = d.id AND a.status <> 'closed') AS open_alarms
         FROM ${FROM} WHERE ${where} ORDER BY d.id DESC ${page}`,
    where,
    countFrom: FROM,
    countValues,
  });
}

/** Sites, workshops and work areas holding monitors the caller sees (filters). */
export function siteAreas(q: Queryable, s: MonitorScope) {
  const w = new Params();
  return q.query<{
    org_id: number;
    org_name: string;
    building_id: number;
    building_name: string;
    room_id: number | null;
    room_name: string | null;
  }>(
    `SELECT DISTINCT p.org_id, o.name AS org_name, p.building_id, b.name AS building_name,
            p.room_id, coalesce(nullif(r.name, ''), r.number) AS room_name
       FROM ${FROM}
      WHERE NOT d.is_delete AND d.kind = 'gateway' AND d.industrial_type IS NOT NULL
        AND p.org_id IS NOT NULL AND NOT o.is_delete AND ${monitorSeen(w, s)}
      ORDER BY p.org_id, p.building_id, p.room_id NULLS FIRST
      LIMIT 5000`,
    w.values,
  );
}

/** The monitors of one site the caller sees, with their area. */
export function siteMonitors(q: Queryable, s: MonitorScope, orgId: number) {
  const w = new Params();
  return q.query<{
    id: number;
    building_id: number;
    building_name: string;
    room_id: number | null;
    room_name: string | null;
  }>(
    `SELECT d.id, p.building_id, b.name AS building_name, p.room_id,
            coalesce(nullif(r.name, ''), r.number) AS room_name
       FROM ${FROM}
      WHERE NOT d.is_delete AND d.kind = 'gateway' AND d.industrial_type IS NOT NULL
        AND p.org_id = ${w.p(orgId)}::int AND ${monitorSeen(w, s)}
      ORDER BY p.building_id, p.room_id, d.id`,
    w.values,
  );
}

/** Gas readings of monitors in [from, to) (times ms), oldest first. */
export function gasReadings(q: Queryable, ids: number[], from: string, to: string) {
  return q.query<{
    device_id: number;
    ts: number;
    nh3: number | null;
    h2s: number | null;
    co2: number | null;
  }>(
    `SELECT device_id, (extract(epoch FROM ts) * 1000)::float8 AS ts,
            (data->>'nh3')::float8 AS nh3, (data->>'h2s')::float8 AS h2s, (data->>'co2')::float8 AS co2
       FROM telemetry
      WHERE device_id = ANY($1::int[]) AND ts >= $2 AND ts < $3
        AND (data ? 'nh3' OR data ? 'h2s' OR data ? 'co2')
      ORDER BY device_id, ts`,
    [ids, from, to],
  );
}

/** Claims (monitor, shift) end-of-shift checks; answers those not made before. */
export function claimShiftChecks(q: Queryable, ids: number[], starts: string[]) {
  return q.query<{ device_id: number; shift_start: Date }>(
    `INSERT INTO industry_shift_checks (device_id, shift_start)
       SELECT * FROM unnest($1::int[], $2::timestamptz[])
       ON CONFLICT DO NOTHING RETURNING device_id, shift_start`,
    [ids, starts],
  );
}

export function orgName(q: Queryable, id: number) {
  return q.query<{ name: string }>(`SELECT name FROM organisations WHERE id = $1 AND NOT is_delete`, [id]);
}
