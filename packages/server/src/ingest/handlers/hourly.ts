import { addHourly } from '../repo.ts';
import type { IngestHandler, StoredReport } from '../handler.ts';
import type { Queryable } from '../../db/index.ts';

const HOUR = 3_600_000;

/** Every kind: the batch's numeric fields added to each device's hourly sums and counts. */
export const hourlyRollup: IngestHandler = {
  name: 'hourly-rollup',
  kinds: 'all',
  derive: rollup,
};

async function rollup(tx: Queryable, stored: StoredReport[]) {
  const acc = new Map<
    string,
    { device: number; hour: number; sums: Record<string, number>; counts: Record<string, number> }
  >();
  for (const s of stored) {
    const hour = Math.floor(s.ts / HOUR) * HOUR;
    const key = `${s.device_id}|${hour}`;
    let a = acc.get(key);
    if (!a) acc.set(key, (a = { device: s.device_id, hour, sums: {}, counts: {} }));
    for (const [k, v] of Object.entries(s.data)) {
      if (typeof v !== 'number') continue;
      a.sums[k] = (a.sums[k] ?? 0) + v;
      a.counts[k] = (a.counts[k] ?? 0) + 1;
    }
  }
  const rows = [...acc.values()].filter((a) => Object.keys(a.sums).length);
  if (!rows.length) return;
  await addHourly(
    tx,
    rows.map((r) => r.device),
    rows.map((r) => new Date(r.hour).toISOString()),
    rows.map((r) => JSON.stringify(r.sums)),
    rows.map((r) => JSON.stringify(r.counts)),
  );
}
