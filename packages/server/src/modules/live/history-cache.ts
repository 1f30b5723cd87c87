/**
 * The device history's closed buckets, kept in memory per database (issue 14): a chart of
 * 24 h or 30 d is 288 five-minute or 720 hourly rollup rows, read and averaged again by every
 * request, although all but the newest few minutes are the same as a minute ago. A bucket is
 * closed once it ends CLOSED_AFTER_MS before now; a device's closed points are kept with the
 * history revision (devices.history_rev) they were read at, and a request reads only what is
 * not closed (the window's partial first bucket, the newest minutes) plus the revision. A
 * report that lands in a closed bucket is late by more than LATE_REPORT_MS (ingest's
 * late-history step), which bumps the revision, and the next request reads the closed
 * buckets again in the same statement. Entries are dropped after MAX_AGE_MS whatever their
 * revision (retention trims old rows without telling anyone), and the least recently used
 * go first beyond MAX_ENTRIES.
 */

/** A point of the answer: `ts` (the bucket's start, ms) and each field's mean. */
export type Point = Record<string, number>;

/** Buckets that ended this long ago are closed: what lands in them later is a late report. */
export const CLOSED_AFTER_MS = 10 * 60_000;
/**
 * A report older than this when its batch is written bumps its device's history revision:
 * half of CLOSED_AFTER_MS, so a batch written (and committed) within five minutes, on server
 * copies whose clocks differ by less than that, never lands unseen in a closed bucket.
 */
export const LATE_REPORT_MS = CLOSED_AFTER_MS / 2;
const MAX_AGE_MS = 10 * 60_000;
const MAX_ENTRIES = 1000;

export interface Closed {
  /** devices.history_rev when the points were read. */
  rev: number;
  /** The buckets held: [from, to), both bucket starts. */
  from: number;
  to: number;
  points: Point[];
  /** When the oldest of the points were read (MAX_AGE_MS counts from it). */
  at: number;
  /** The points as JSON, written once (textOf). */
  text?: string;
  /** The numeric fields the points hold, found once (fieldsOf). */
  fields?: string[];
}

/**
 * The closed points as the items of a JSON array (no brackets; '' for none), written the
 * first time an answer needs them: every chart of the device until the buckets move on
 * splices the same text into its answer, instead of writing a few hundred points again
 * (JSON.stringify of the points was a fifth of the console's CPU on a chart request).
 */
export function textOf(e: Closed): string {
  return (e.text ??= e.points.map((p) => JSON.stringify(p)).join(','));
}

/** The fields of the closed points, found once. */
export function fieldsOf(e: Closed): string[] {
  return (e.fields ??= fieldsIn(e.points));
}

/** The numeric fields of `points` (every key but `ts`). */
export function fieldsIn(points: Point[], into = new Set<string>()): string[] {
  for (const p of points) for (const k in p) if (k !== 'ts') into.add(k);
  return [...into];
}

export class HistoryCache {
  private readonly entries = new Map<string, Closed>();

  /**
   * The closed points of `key` that serve a window whose first whole bucket starts at
   * `from`: held from `from` or earlier, up to `from` or later, younger than MAX_AGE_MS.
   */
  get(key: string, from: number, now: number): Closed | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (now - e.at >= MAX_AGE_MS || e.from > from || e.to < from || e.to > now) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: the first key is the one to drop.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  set(key: string, e: Closed) {
    this.entries.delete(key);
    this.entries.set(key, e);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  get size() {
    return this.entries.size;
  }
}

const caches = new WeakMap<object, HistoryCache>();

/** The cache of one database (an app, a test's app). */
export function historyCacheOf(db: object): HistoryCache {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new HistoryCache()));
  return c;
}
