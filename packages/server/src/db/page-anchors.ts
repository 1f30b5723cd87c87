import type { Queryable } from './index.ts';

/**
 * Where the pages of a list (newest first, by id) were found lately: the id at a position of
 * the list, per database, list and filter values. A deep page then starts below the nearest
 * known id before it instead of skipping every row from the top (selectPage `anchors`): page
 * 200 of a dealer's work orders walked 4,000 rows and tested each against the dealer's
 * closure; after page 199 it walks 20. A user paging forward always has the previous page's
 * last id; a cold deep page costs what it did.
 *
 * An anchor only narrows where the list starts (`id < anchor`): the statement still applies
 * every condition, visibility included, so a stale anchor can shift a page by the rows
 * added or removed above it since, never show a row the caller may not see. What the
 * process itself changes drops them at once (`generation`, bumped by the repository's
 * writes); other processes' changes and the passing of time (overdue, offline) within
 * ANCHOR_MS, as an estimated total is kept.
 */
export class PageAnchors {
  private readonly kept = new WeakMap<Queryable, Map<string, Anchors>>();

  constructor(
    /** The owner's change counter: anchors learnt under another value are dropped. */
    private readonly generation: () => number,
    private readonly ttlMs = ANCHOR_MS,
  ) {}

  /** The known position nearest before `offset` (the row there and its id), if any. */
  find(q: Queryable, key: string, offset: number): { pos: number; id: number } | undefined {
    const a = this.kept.get(q)?.get(key);
    if (!a) return undefined;
    if (a.generation !== this.generation() || Date.now() - a.at > this.ttlMs) {
      this.kept.get(q)!.delete(key);
      return undefined;
    }
    let best: { pos: number; id: number } | undefined;
    for (const [pos, id] of a.ids) if (pos < offset && (!best || pos > best.pos)) best = { pos, id };
    return best;
  }

  /** A page was read: `ids` are the rows from position `offset` on. */
  learn(q: Queryable, key: string, offset: number, ids: readonly number[]) {
    if (!ids.length) return;
    let lists = this.kept.get(q);
    if (!lists) this.kept.set(q, (lists = new Map()));
    const generation = this.generation();
    let a = lists.get(key);
    if (!a || a.generation !== generation || Date.now() - a.at > this.ttlMs) {
      if (lists.size >= MAX_LISTS) lists.delete(lists.keys().next().value!);
      lists.set(key, (a = { generation, at: Date.now(), ids: new Map() }));
    }
    // The page's last row: where the next page starts.
    if (a.ids.size >= MAX_POSITIONS) a.ids.delete(a.ids.keys().next().value!);
    a.ids.set(offset + ids.length - 1, ids[ids.length - 1]!);
  }
}

interface Anchors {
  generation: number;
  /** When the first of them was learnt: they all go together. */
  at: number;
  /** Position in the list → the id there. */
  ids: Map<number, number>;
}

/**
 * Changes made through this process that can move rows in any list: every audited write
 * (modules/audit insertAudit: a device added, deleted or bound, an account moved) bumps it.
 * Lists whose membership follows such writes drop their anchors on it (listsGeneration).
 */
let audited = 0;
export const listsChanged = () => void audited++;
export const listsGeneration = () => audited;

const ANCHOR_MS = 10_000;
// At most ~12 MB: a key is a list statement's text and its values, a position two numbers.
const MAX_LISTS = 1_000;
const MAX_POSITIONS = 200;
