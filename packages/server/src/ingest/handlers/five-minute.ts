import { FIVE_MINUTES } from '@se/core';
import { addFiveMinute } from '../repo.ts';
import type { IngestHandler, StoredReport } from '../handler.ts';
import type { Queryable } from '../../db/index.ts';

/**
 * Every kind: the batch's numeric fields folded into each device's five-minute buckets
 * (count, sum, least, greatest), one statement a batch, in the batch's transaction. The
 * device history reads these for ranges beyond a few hours (modules/live).
 */
export const fiveMinuteRollup: IngestHandler = {
  name: 'five-minute-rollup',
  kinds: 'all',
  derive: rollup,
};

async function rollup(tx: Queryable, stored: StoredReport[]) {
  const acc = new Map<
    string,
    { device: number; bucket: number; key: string; n: number; sum: number; min: number; max: number }
  >();
  for (const s of stored) {
    const bucket = Math.floor(s.ts / FIVE_MINUTES) * FIVE_MINUTES;
    for (const [key, v] of Object.entries(s.data)) {
      if (typeof v !== 'number') continue;
      const id = `${s.device_id}|${bucket}|${key}`;
      const a = acc.get(id);
      if (!a) acc.set(id, { device: s.device_id, bucket, key, n: 1, sum: v, min: v, max: v });
      else {
        a.n++;
        a.sum += v;
        if (v < a.min) a.min = v;
        if (v > a.max) a.max = v;
      }
    }
  }
  if (!acc.size) return;
  const rows = [...acc.values()];
  await addFiveMinute(tx, {
    device: rows.map((r) => r.device),
    bucket: rows.map((r) => new Date(r.bucket).toISOString()),
    key: rows.map((r) => r.key),
    n: rows.map((r) => r.n),
    sum: rows.map((r) => r.sum),
    min: rows.map((r) => r.min),
    max: rows.map((r) => r.max),
  });
}
