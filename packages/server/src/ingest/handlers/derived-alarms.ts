import type { Queryable } from '../../db/index.ts';
import { closeAlarms, insertAlarms, openAlarmsOf } from '../repo.ts';

/**
 * A state an ingest step worked out for a device's alarm of one type (night flow, base load,
 * exposure): active opens it unless one is open, inactive closes the open one. Signals of a
 * device and type apply in time order, so a breach and its end inside one batch leave a
 * closed alarm behind.
 */
export interface DerivedSignal {
  device_id: number;
  type: string;
  active: boolean;
  at: number;
  message: string;
  detail: Record<string, unknown>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Applies the signals with one read and at most two writes; answers changed alarm ids. */
export async function applyDerivedSignals(tx: Queryable, sigs: DerivedSignal[]): Promise<number[]> {
  if (!sigs.length) return [];
  const ids = [...new Set(sigs.map((s) => s.device_id))];
  const open = new Map<string, { id?: number; s?: DerivedSignal }>();
  for (const a of await openAlarmsOf(tx, ids)) open.set(`${a.device_id}|${a.type}`, { id: a.id });
  const close = new Map<number, number>();
  const insert: { s: DerivedSignal; closed: number | null }[] = [];
  for (const s of [...sigs].sort((a, b) => a.at - b.at)) {
    const key = `${s.device_id}|${s.type}`;
    const cur = open.get(key);
    if (s.active && !cur) open.set(key, { s });
    else if (!s.active && cur) {
      if (cur.id !== undefined) close.set(cur.id, s.at);
      else insert.push({ s: cur.s!, closed: s.at });
      open.delete(key);
    }
  }
  for (const cur of open.values()) if (cur.id === undefined) insert.push({ s: cur.s!, closed: null });
  const changed: number[] = [];
  if (close.size) {
    const r = await closeAlarms(tx, [...close.keys()], [...close.values()].map(iso));
    changed.push(...r.map((x) => Number(x.id)));
  }
  if (insert.length) {
    const r = await insertAlarms(
      tx,
      insert.map((i) => i.s.device_id),
      insert.map((i) => i.s.type),
      insert.map((i) => i.s.message),
      insert.map((i) => JSON.stringify(i.s.detail)),
      insert.map((i) => iso(i.s.at)),
      insert.map((i) => (i.closed === null ? null : iso(i.closed))),
    );
    changed.push(...r.map((x) => Number(x.id)));
  }
  return changed;
}
