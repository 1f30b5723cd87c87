import type { Db } from '../db/index.ts';

/**
 * Forgets reports older than `days`: whole monthly partitions are dropped (instant), the
 * default partition is trimmed row by row. Hourly rollups are kept three times as long.
 */
export async function applyRetention(db: Db, days: number, now = new Date()) {
  if (days <= 0) return { dropped: [] as string[] };
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const parts = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'telemetry'::regclass AND c.relname ~ '^telemetry_y[0-9]{4}m[0-9]{2}$'`,
  );
  const dropped: string[] = [];
  for (const { name } of parts) {
    const [, y, m] = /^telemetry_y(\d{4})m(\d{2})$/.exec(name)!;
    const end = new Date(Date.UTC(Number(y), Number(m), 1));
    if (end <= cutoff) {
      await db.query(`DROP TABLE IF EXISTS ${name}`);
      dropped.push(name);
    }
  }
  await db.query(`DELETE FROM telemetry_default WHERE ts < $1`, [cutoff.toISOString()]);
  await db.query(`DELETE FROM telemetry_hourly WHERE hour < $1`, [
    new Date(now.getTime() - 3 * days * 86_400_000).toISOString(),
  ]);
  return { dropped };
}
