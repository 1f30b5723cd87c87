import type { Queryable } from '../db/index.ts';

// The jobs' SQL: telemetry partitions and retention, and what the offline sweep announces.

/** `name` and the bounds are built by the caller from a date, never from input. */
export async function createTelemetryPartition(q: Queryable, name: string, from: Date, to: Date) {
  await q.query(
    `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF telemetry
           FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
  );
}

/** The monthly partitions of telemetry (not the default one). */
export function monthlyTelemetryPartitions(q: Queryable) {
  return q.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'telemetry'::regclass AND c.relname ~ '^telemetry_y[0-9]{4}m[0-9]{2}$'`,
  );
}

/** `name` is one of monthlyTelemetryPartitions(). */
export async function dropTelemetryPartition(q: Queryable, name: string) {
  await q.query(`DROP TABLE IF EXISTS ${name}`);
}

export async function trimTelemetryDefault(q: Queryable, before: string) {
  await q.query(`DELETE FROM telemetry_default WHERE ts < $1`, [before]);
}

export async function trimTelemetry5min(q: Queryable, before: string) {
  await q.query(`DELETE FROM telemetry_5min WHERE bucket < $1`, [before]);
}

export async function trimTelemetryHourly(q: Queryable, before: string) {
  await q.query(`DELETE FROM telemetry_hourly WHERE hour < $1`, [before]);
}

/** The devices of the given alarms, with their last report time. */
export function devicesOfAlarms(q: Queryable, alarmIds: number[]) {
  return q.query<{ id: number; kind: string; time: number }>(
    `SELECT d.id, d.kind, (extract(epoch FROM d.time) * 1000)::float8 AS time
       FROM alarms a JOIN devices d ON d.id = a.device_id WHERE a.id = ANY($1::bigint[])`,
    [alarmIds],
  );
}
