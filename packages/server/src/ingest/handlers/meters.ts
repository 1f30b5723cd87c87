import type { IngestHandler, StoredReport } from '../handler.ts';
import type { Queryable } from '../../db/index.ts';
import { applyDerivedSignals } from './derived-alarms.ts';
import { deriveUsage, type MeterState } from '../../modules/meters/usage.ts';
import { baseLoad, nightFlow, nightWindow, type NightSignal } from '../../modules/meters/night.ts';
import { addUsage, hourRows, lockStates, saveStates } from '../../modules/meters/repo.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Electric and water meters: usage per hour, day and month from the cumulative `reading`
 * (modules/meters/usage.ts), then the night checks: water night flow and electricity
 * after-hours base load (modules/meters/night.ts), opened and closed as alarms.
 */
export const meterUsage: IngestHandler = {
  name: 'meter-usage',
  kinds: ['electric_meter', 'water_meter'],
  derive: derive,
  alarm: nightAlarms,
};

async function derive(tx: Queryable, stored: StoredReport[]) {
  const reports = stored
    .filter((s) => typeof s.data.reading === 'number')
    .map((s) => ({ device_id: s.device_id, ts: s.ts, reading: s.data.reading as number }));
  if (!reports.length) return;
  const ids = [...new Set(reports.map((r) => r.device_id))];
  const states = new Map<number, MeterState>();
  for (const r of await lockStates(tx, ids))
    states.set(r.device_id, { ts: new Date(r.last_ts).getTime(), reading: Number(r.last_reading) });
  const pieces = deriveUsage(states, reports);
  if (pieces.length)
    await addUsage(
      tx,
      pieces.map((p) => p.device_id),
      pieces.map((p) => p.grain),
      pieces.map((p) => iso(p.start)),
      pieces.map((p) => p.usage),
      pieces.map((p) => p.gap),
      pieces.map((p) => p.resets),
    );
  const changed = ids.filter((id) => states.has(id));
  await saveStates(
    tx,
    changed,
    changed.map((id) => iso(states.get(id)!.ts)),
    changed.map((id) => states.get(id)!.reading),
  );
}

async function nightAlarms(tx: Queryable, stored: StoredReport[], out: { alarmIds: number[] }) {
  const newest = new Map<number, { ts: number; kind: string }>();
  for (const s of stored) {
    const n = newest.get(s.device_id);
    if (!n || s.ts > n.ts) newest.set(s.device_id, { ts: s.ts, kind: s.kind });
  }
  const ids = [...newest.keys()];
  const maxTs = Math.max(...[...newest.values()].map((n) => n.ts));
  const minTs = Math.min(...[...newest.values()].map((n) => n.ts));
  const rows = await hourRows(tx, ids, iso(nightWindow(minTs).from), iso(nightWindow(maxTs).to));
  const hours = new Map<number, Map<number, number>>();
  for (const r of rows) {
    let m = hours.get(r.device_id);
    if (!m) hours.set(r.device_id, (m = new Map()));
    m.set(new Date(r.period_start).getTime(), Number(r.usage));
  }
  const sigs: NightSignal[] = [];
  for (const [id, n] of newest) {
    const h = hours.get(id) ?? new Map();
    const s = n.kind === 'water_meter' ? nightFlow(id, h, n.ts) : baseLoad(id, h, n.ts);
    if (s) sigs.push(s);
  }
  for (const id of await applyDerivedSignals(tx, sigs)) out.alarmIds.push(id);
}
