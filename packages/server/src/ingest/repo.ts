import type { Queryable } from '../db/index.ts';
import { TOILET_STATUS, type DownCommand } from '@se/core';
import type { DeviceRef } from './directory.ts';

// Ingest's SQL. Callers build the column arrays; each function is one statement, so a
// batch costs exactly the round trips it did when the SQL sat in the pipeline.

/** Appends reports; answers the rows that were new (duplicates hit the unique key). */
export function insertTelemetry(
  tx: Queryable,
  deviceIds: number[],
  ts: string[],
  msgIds: string[],
  data: string[],
) {
  return tx.query<{ device_id: number; msg_id: string; ts: Date }>(
    `INSERT INTO telemetry (device_id, ts, msg_id, data)
       SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::text[], $4::jsonb[])
       ON CONFLICT DO NOTHING
       RETURNING device_id, msg_id, ts`,
    [deviceIds, ts, msgIds, data],
  );
}

/** Merges each device's newest report into `latest` (older reports fill gaps only). */
export async function mergeLatest(tx: Queryable, ids: number[], ts: string[], data: string[]) {
  await tx.query(
    `UPDATE devices d SET
           latest = CASE WHEN d.time IS NULL OR v.ts >= d.time THEN d.latest || v.data ELSE v.data || d.latest END,
           warning = CASE WHEN v.data ? 'warning' AND (d.time IS NULL OR v.ts >= d.time)
                          THEN (v.data->>'warning')::int ELSE d.warning END,
           reading = CASE WHEN v.data ? 'reading' AND (d.time IS NULL OR v.ts >= d.time)
                          THEN (v.data->>'reading')::float8 ELSE d.reading END,
           time = GREATEST(d.time, v.ts)
          FROM unnest($1::int[], $2::timestamptz[], $3::jsonb[]) AS v(id, ts, data)
         WHERE d.id = v.id`,
    [ids, ts, data],
  );
}

/** Settles pending or sent commands with the devices' replies. */
export async function settleCommands(
  tx: Queryable,
  commandIds: number[],
  deviceIds: number[],
  ok: boolean[],
  result: (string | undefined)[],
) {
  await tx.query(
    `UPDATE device_commands c SET status = CASE WHEN v.ok THEN 'done' ELSE 'failed' END, done_at = now(), result = v.result
         FROM unnest($1::bigint[], $2::int[], $3::bool[], $4::text[]) AS v(cid, did, ok, result)
        WHERE c.id = v.cid AND c.device_id = v.did AND c.status IN ('pending', 'sent')`,
    [commandIds, deviceIds, ok, result],
  );
}

/** Marks devices as seen now (a reply is a sign of life). */
export async function touchDevices(tx: Queryable, ids: number[]) {
  await tx.query(`UPDATE devices SET time = GREATEST(time, now()) WHERE id = ANY($1::int[])`, [ids]);
}

export async function addBadMessages(tx: Queryable, ids: number[], counts: number[]) {
  await tx.query(
    `UPDATE devices d SET bad_messages = d.bad_messages + v.n FROM unnest($1::int[], $2::int[]) AS v(id, n) WHERE d.id = v.id`,
    [ids, counts],
  );
}

// One pass over the batch's fields: each is added to what the hour holds (or taken as it
// is), the hour's other fields are kept by `||`. Sums and counts have the same keys.
const ROLLUP_SQL = `INSERT INTO telemetry_hourly AS h (device_id, hour, sums, counts)
     SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::jsonb[], $4::jsonb[])
     ON CONFLICT (device_id, hour) DO UPDATE SET (sums, counts) = (
       SELECT h.sums || coalesce(jsonb_object_agg(e.key, coalesce((h.sums->>e.key)::float8, 0) + e.value::float8), '{}'),
              h.counts || coalesce(jsonb_object_agg(e.key, coalesce((h.counts->>e.key)::float8, 0) + (EXCLUDED.counts->>e.key)::float8), '{}')
         FROM jsonb_each(EXCLUDED.sums) e)`;

/** Adds hourly sums and counts, key by key, to what the hour already holds. */
export async function addHourly(
  tx: Queryable,
  deviceIds: number[],
  hours: string[],
  sums: string[],
  counts: string[],
) {
  await tx.query(ROLLUP_SQL, [deviceIds, hours, sums, counts]);
}

/**
 * Merges each (device, 5-minute bucket) row's fields `{key: [n, sum, min, max]}` into the
 * five-minute rollup (migration 0058): counts and sums added, least and greatest kept, fields
 * the bucket does not hold yet taken as they are. The rows are distinct within a call.
 */
export async function addFiveMinute(tx: Queryable, deviceIds: number[], buckets: string[], fields: string[]) {
  await tx.query(
    `INSERT INTO telemetry_5min AS r (device_id, bucket, f)
     SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::jsonb[])
     ON CONFLICT (device_id, bucket) DO UPDATE
        SET f = r.f || (SELECT coalesce(jsonb_object_agg(e.key, CASE WHEN o.v IS NULL THEN e.value ELSE jsonb_build_array(
                  (o.v->>0)::int + (e.value->>0)::int, (o.v->>1)::float8 + (e.value->>1)::float8,
                  least((o.v->>2)::float8, (e.value->>2)::float8), greatest((o.v->>3)::float8, (e.value->>3)::float8)) END), '{}')
                  FROM jsonb_each(EXCLUDED.f) e, LATERAL (SELECT r.f->e.key AS v) o)`,
    [deviceIds, buckets, fields],
  );
}

/** One comment per rating; the toilet is read from the terminal's row in the same statement. */
export function insertRatingComments(
  tx: Queryable,
  equipmentIds: number[],
  stars: number[],
  contents: string[],
  badattitude: boolean[],
  inefficiency: boolean[],
  poorsanitary: boolean[],
  smelly: boolean[],
  createdAt: string[],
) {
  return tx.query<{
    id: string | number;
    equipment_id: number;
    toilet_id: number | null;
    star_level: number;
  }>(
    `INSERT INTO comments (equipment_id, star_level, content, badattitude, inefficiency, poorsanitary, smelly, created_at, toilet_id)
     SELECT v.*, d.toilet_id
       FROM unnest($1::int[], $2::int[], $3::text[], $4::bool[], $5::bool[], $6::bool[], $7::bool[], $8::timestamptz[])
            AS v(equipment_id, star_level, content, badattitude, inefficiency, poorsanitary, smelly, created_at)
       JOIN devices d ON d.id = v.equipment_id
     RETURNING id, equipment_id, toilet_id, star_level`,
    [equipmentIds, stars, contents, badattitude, inefficiency, poorsanitary, smelly, createdAt],
  );
}

export async function addDeviceStars(tx: Queryable, ids: number[], n: number[], sums: number[]) {
  await tx.query(
    `UPDATE devices d SET star_level = (d.star_level * d.star_count + v.sum) / (d.star_count + v.n), star_count = d.star_count + v.n
       FROM unnest($1::int[], $2::int[], $3::float8[]) AS v(id, n, sum) WHERE d.id = v.id`,
    [ids, n, sums],
  );
}

export async function addToiletStars(tx: Queryable, ids: number[], n: number[], sums: number[]) {
  await tx.query(
    `UPDATE toilets t SET star_sum = t.star_sum + v.sum, star_count = t.star_count + v.n
         FROM unnest($1::int[], $2::int[], $3::int[]) AS v(id, n, sum) WHERE t.id = v.id`,
    [ids, n, sums],
  );
}

export function openAlarmsOf(tx: Queryable, deviceIds: number[]) {
  return tx.query<{ id: number; device_id: number; type: string }>(
    `SELECT id, device_id, type FROM alarms WHERE device_id = ANY($1::int[]) AND status <> 'closed'`,
    [deviceIds],
  );
}

/** Closes alarms at the given times; answers the ids that were still open. */
export function closeAlarms(tx: Queryable, ids: number[], at: string[]) {
  return tx.query<{ id: number }>(
    `UPDATE alarms a SET status = 'closed', closed_at = v.at
         FROM unnest($1::bigint[], $2::timestamptz[]) AS v(id, at)
        WHERE a.id = v.id AND a.status <> 'closed' RETURNING a.id`,
    [ids, at],
  );
}

/** Inserts alarms, closed ones when `closed` holds a time; the open-per-type key skips repeats. */
export function insertAlarms(
  tx: Queryable,
  deviceIds: number[],
  types: string[],
  messages: string[],
  details: string[],
  opened: string[],
  closed: (string | null)[],
) {
  return tx.query<{ id: number }>(
    `INSERT INTO alarms (device_id, type, status, message, detail, opened_at, closed_at)
       SELECT v.d, v.t, CASE WHEN v.c IS NULL THEN 'open' ELSE 'closed' END, v.m, v.j, v.o, v.c
         FROM unnest($1::int[], $2::text[], $3::text[], $4::jsonb[], $5::timestamptz[], $6::timestamptz[]) AS v(d, t, m, j, o, c)
       ON CONFLICT DO NOTHING RETURNING id`,
    [deviceIds, types, messages, details, opened, closed],
  );
}

/** The toilets a device belongs to: as gateway, as a gateway's sensor, or placed in it. */
export function toiletsOfDevices(q: Queryable, deviceIds: number[]) {
  return q.query<{ id: number }>(
    `SELECT DISTINCT t.id FROM devices d JOIN toilets t
         ON t.gateway_id = d.id OR t.gateway_id = d.gateway_id OR t.id = d.toilet_id
      WHERE d.id = ANY($1::int[])`,
    [deviceIds],
  );
}

export async function syncToiletAlarmFlag(q: Queryable, toiletIds: number[]) {
  await q.query(
    `UPDATE toilets t SET status = CASE WHEN EXISTS (
         SELECT 1 FROM alarms a JOIN devices d ON d.id = a.device_id
          WHERE a.status <> 'closed'
            AND (d.id = t.gateway_id OR d.gateway_id = t.gateway_id OR d.toilet_id = t.id))
       THEN t.status | ${TOILET_STATUS.alarm} ELSE t.status & ~${TOILET_STATUS.alarm} END
      WHERE t.id = ANY($1::int[])`,
    [toiletIds],
  );
}

/** Opens 'offline' for every device silent past its kind's threshold (or the fallback). */
export function openOfflineAlarms(
  q: Queryable,
  kinds: string[],
  ms: (number | undefined)[],
  fallbackMs: number,
) {
  return q.query<{ id: number; device_id: number }>(
    `INSERT INTO alarms (device_id, type, message, detail)
     SELECT d.id, 'offline', '设备离线', jsonb_build_object('time', d.time)
       FROM devices d
       LEFT JOIN unnest($1::text[], $2::float8[]) AS th(kind, ms) ON th.kind = d.kind
      WHERE NOT d.is_delete AND d.time IS NOT NULL
        AND d.time < now() - coalesce(th.ms, $3) * interval '1 millisecond'
     ON CONFLICT DO NOTHING
     RETURNING id, device_id`,
    [kinds, ms, fallbackMs],
  );
}

export function pendingCommands(q: Queryable, deviceId: number) {
  return q.query<DownCommand & { ser_num: string }>(
    `SELECT c.id AS command_id, c.type, c.op, c.payload, d.ser_num FROM device_commands c JOIN devices d ON d.id = c.device_id
          WHERE c.device_id = $1 AND c.status = 'pending' AND c.expires_at > now() ORDER BY c.id LIMIT 100`,
    [deviceId],
  );
}

export async function markCommandSent(q: Queryable, commandId: number) {
  await q.query(
    `UPDATE device_commands SET status = 'sent', sent_at = now() WHERE id = $1 AND status = 'pending'`,
    [commandId],
  );
}

const DEVICE_REF = `SELECT id, kind, ser_num, token, gateway_id, industrial_type FROM devices`;

/** The devices of these serial numbers that are not deleted (one query for many sign-ins). */
export function devicesBySerNums(q: Queryable, sers: string[]) {
  return q.query<DeviceRef>(`${DEVICE_REF} WHERE ser_num = ANY($1::text[]) AND NOT is_delete`, [sers]);
}

/** Up to `limit` devices that are not deleted, with ids above `afterId`, in id order. */
export function deviceRefsAfter(q: Queryable, afterId: number, limit: number) {
  return q.query<DeviceRef>(`${DEVICE_REF} WHERE id > $1 AND NOT is_delete ORDER BY id LIMIT $2`, [
    afterId,
    limit,
  ]);
}

/** Of these devices, those with a command waiting to be sent. */
export async function devicesWithPendingCommands(q: Queryable, deviceIds: number[]) {
  const rows = await q.query<{ device_id: number }>(
    `SELECT DISTINCT device_id FROM device_commands
      WHERE device_id = ANY($1::int[]) AND status = 'pending' AND expires_at > now()`,
    [deviceIds],
  );
  return rows.map((r) => r.device_id);
}
