import type { Db } from '../db/index.ts';
import { createTelemetryPartition } from './repo.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Creates the telemetry partitions of this month and the next two. A month whose rows
 * already sit in the default partition cannot get its own partition; that is logged and
 * the rows stay queryable where they are.
 */
export async function ensurePartitions(db: Db, now = new Date(), warn: (msg: string) => void = () => {}) {
  for (let i = 0; i < 3; i++) {
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1));
    const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
    const name = `telemetry_y${from.getUTCFullYear()}m${pad(from.getUTCMonth() + 1)}`;
    try {
      await createTelemetryPartition(db, name, from, to);
    } catch (err) {
      warn(`telemetry partition ${name} not created: ${(err as Error).message}`);
    }
  }
}
