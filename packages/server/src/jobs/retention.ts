import type { Db } from '../db/index.ts';
import {
  dropTelemetryPartition,
  monthlyTelemetryPartitions,
  trimTelemetry5min,
  trimTelemetryDefault,
  trimTelemetryHourly,
} from './repo.ts';

/**
 * Forgets reports older than `days`: whole monthly partitions are dropped (instant), the
 * default partition is trimmed row by row, the five-minute rollup with them. Hourly rollups
 * are kept three times as long.
 */
export async function applyRetention(db: Db, days: number, now = new Date()) {
  if (days <= 0) return { dropped: [] as string[] };
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const parts = await monthlyTelemetryPartitions(db);
  const dropped: string[] = [];
  for (const { name } of parts) {
    const [, y, m] = /^telemetry_y(\d{4})m(\d{2})$/.exec(name)!;
    const end = new Date(Date.UTC(Number(y), Number(m), 1));
    if (end <= cutoff) {
      await dropTelemetryPartition(db, name);
      dropped.push(name);
    }
  }
  await trimTelemetryDefault(db, cutoff.toISOString());
  await trimTelemetry5min(db, cutoff.toISOString());
  await trimTelemetryHourly(db, new Date(now.getTime() - 3 * days * 86_400_000).toISOString());
  return { dropped };
}
