import type { IngestHandler, StoredReport } from '../handler.ts';
import type { Queryable } from '../../db/index.ts';
import { insertPlays, updateDeliveries, updateNowPlaying } from '../../modules/media-players/repo.ts';

/**
 * Screens (stand-alone players, multimedia gateways): proof of play (`plays`), what they did
 * with their manifest (`manifest`) and what is on screen (`now_item`), docs/protocol.md.
 */
export const screenReports: IngestHandler = {
  name: 'screen-reports',
  kinds: ['player', 'gateway'],
  store: storeScreenReports,
};

interface Play {
  item: number;
  start: number;
  duration: number;
}
interface ManifestState {
  id: number;
  state: string;
  progress?: number;
  error?: string;
}

/** Seconds or milliseconds since 1970 (below 10¹² seconds, as message `ts`). */
const isoOf = (t: number) => new Date(t < 1e12 ? t * 1000 : t).toISOString();

async function storeScreenReports(tx: Queryable, stored: StoredReport[]) {
  const plays = { d: [] as number[], i: [] as number[], s: [] as string[], n: [] as number[] };
  const seen = new Set<string>();
  // Per device the latest report's manifest state and on-screen item (arrival order).
  const states = new Map<number, ManifestState>();
  const now = new Map<number, number>();
  for (const r of stored) {
    for (const p of (r.data.plays as Play[] | undefined) ?? []) {
      const start = isoOf(p.start);
      const k = `${r.device_id}:${p.item}:${start}`;
      if (seen.has(k)) continue; // the same play twice in one batch: one row (one statement)
      seen.add(k);
      plays.d.push(r.device_id);
      plays.i.push(p.item);
      plays.s.push(start);
      plays.n.push(p.duration);
    }
    const m = r.data.manifest as ManifestState | undefined;
    if (m) states.set(r.device_id, m);
    if (typeof r.data.now_item === 'number') now.set(r.device_id, r.data.now_item);
  }
  if (plays.d.length) await insertPlays(tx, plays.d, plays.i, plays.s, plays.n);
  if (states.size) {
    const v = [...states.values()];
    await updateDeliveries(
      tx,
      [...states.keys()],
      v.map((m) => m.id),
      v.map((m) => m.state),
      v.map((m) => (m.state === 'downloading' ? (m.progress ?? 0) : m.state === 'failed' ? 0 : 100)),
      v.map((m) => (m.state === 'failed' ? m.error || '未知错误' : '')),
    );
  }
  if (now.size) await updateNowPlaying(tx, [...now.keys()], [...now.values()]);
}
