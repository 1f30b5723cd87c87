import { FIVE_MINUTES } from '@se/core';
import { addFiveMinute } from '../repo.ts';
import type { IngestHandler, StoredReport } from '../handler.ts';
import type { Queryable } from '../../db/index.ts';

/**
 * Every kind: the batch's numeric fields folded into each device's five-minute buckets
 * (count, sum, least, greatest per field), one row per device and bucket, one statement a
 * batch, in the batch's transaction. The device history reads these for ranges beyond a few
 * hours (modules/live).
 */
export const fiveMinuteRollup: IngestHandler = {
  name: 'five-minute-rollup',
  kinds: 'all',
  derive: rollup,
};

/** [n, sum, min, max] */
type Stat = [number, number, number, number];

async function rollup(tx: Queryable, stored: StoredReport[]) {
  const acc = new Map<string, { device: number; bucket: number; f: Record<string, Stat> }>();
  for (const s of stored) {
    const bucket = Math.floor(s.ts / FIVE_MINUTES) * FIVE_MINUTES;
    const id = `${s.device_id}|${bucket}`;
    let a = acc.get(id);
    for (const [key, v] of Object.entries(s.data)) {
      if (typeof v !== 'number') continue;
      if (!a) acc.set(id, (a = { device: s.device_id, bucket, f: {} }));
      const st = a.f[key];
      if (!st) a.f[key] = [1, v, v, v];
      else {
        st[0]++;
        st[1] += v;
        if (v < st[2]) st[2] = v;
        if (v > st[3]) st[3] = v;
      }
    }
  }
  if (!acc.size) return;
  const rows = [...acc.values()];
  await addFiveMinute(
    tx,
    rows.map((r) => r.device),
    rows.map((r) => new Date(r.bucket).toISOString()),
    rows.map((r) => JSON.stringify(r.f)),
  );
}
