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
  /** Surveys under way (near), per database and list. */
  private readonly surveying = new WeakMap<Queryable, Map<string, Promise<unknown>>>();

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

  /**
   * The known position nearest before `offset`, first surveyed when it lies more than
   * SURVEY_GAP rows before it (or there is none). `walk(from, n)` answers the ids of the `n`
   * rows after `from` (a known position, or the top when undefined). A survey reads up to
   * the next multiple of SURVEY_ROWS and keeps every `step`-th position, and the callers of
   * the same list meanwhile wait for it: fifty requests for pages 150 to 199 of a list
   * nobody had paged (or whose anchors had just expired) each walked 3,000–4,000 rows from
   * the top, all at once; now one walk serves them. `surveyed`: the caller waited for a
   * survey (its own or another's), so its page's statement has queued once already.
   */
  async near(
    q: Queryable,
    key: string,
    offset: number,
    step: number,
    walk: (from: { pos: number; id: number } | undefined, n: number) => Promise<readonly number[]>,
  ): Promise<{ anchor: { pos: number; id: number } | undefined; surveyed: boolean }> {
    let surveys = this.surveying.get(q);
    if (!surveys) this.surveying.set(q, (surveys = new Map()));
    // Another caller's survey may end short of this offset: then one of its own (at most twice).
    for (let waited = 0; ; waited++) {
      const from = this.find(q, key, offset);
      const start = from ? from.pos + 1 : 0;
      // Near enough, or past the list's end a survey found (the page is empty).
      if (!SURVEYS || offset - start <= SURVEY_GAP || this.endOf(q, key) <= offset)
        return { anchor: from, surveyed: waited > 0 };
      const running = surveys.get(key);
      if (running && waited < 2) {
        await running.catch(() => {});
        continue;
      }
      const n = Math.ceil(offset / SURVEY_ROWS) * SURVEY_ROWS - start;
      const surveyed = walk(from, n).then((ids) => this.learnEvery(q, key, start, ids, n, step));
      surveys.set(key, surveyed);
      try {
        await surveyed;
      } finally {
        if (surveys.get(key) === surveyed) surveys.delete(key);
      }
      return { anchor: this.find(q, key, offset), surveyed: true };
    }
  }

  /** A page was read: `ids` are the rows from position `offset` on. */
  learn(q: Queryable, key: string, offset: number, ids: readonly number[]) {
    if (!ids.length) return;
    // The page's last row: where the next page starts.
    this.anchorsOf(q, key).set(offset + ids.length - 1, ids[ids.length - 1]!);
  }

  /**
   * A survey was read: `ids` are the rows from position `offset` on, of the `asked`; every
   * `step`-th is kept, and where the list ends when it held fewer.
   */
  private learnEvery(
    q: Queryable,
    key: string,
    offset: number,
    ids: readonly number[],
    asked: number,
    step: number,
  ) {
    const a = this.anchorsOf(q, key);
    if (ids.length < asked) a.end(offset + ids.length);
    if (!ids.length) return;
    const every = Math.max(step, Math.ceil(ids.length / (MAX_POSITIONS / 2)));
    for (let i = every - 1; i < ids.length; i += every) a.set(offset + i, ids[i]!);
    a.set(offset + ids.length - 1, ids[ids.length - 1]!);
  }

  /** The positions kept for a list, started afresh when stale; at most MAX_POSITIONS. */
  private anchorsOf(q: Queryable, key: string) {
    let lists = this.kept.get(q);
    if (!lists) this.kept.set(q, (lists = new Map()));
    const generation = this.generation();
    let a = lists.get(key);
    if (!a || a.generation !== generation || Date.now() - a.at > this.ttlMs) {
      if (lists.size >= MAX_LISTS) lists.delete(lists.keys().next().value!);
      lists.set(key, (a = { generation, at: Date.now(), ids: new Map(), end: Infinity }));
    }
    const kept = a;
    return {
      set(pos: number, id: number) {
        if (!kept.ids.has(pos) && kept.ids.size >= MAX_POSITIONS)
          kept.ids.delete(kept.ids.keys().next().value!);
        kept.ids.set(pos, id);
      },
      end(pos: number) {
        kept.end = pos;
      },
    };
  }

  /** Where a survey found the list to end (its row count), while its anchors hold. */
  private endOf(q: Queryable, key: string) {
    const a = this.kept.get(q)?.get(key);
    return a && a.generation === this.generation() && Date.now() - a.at <= this.ttlMs ? a.end : Infinity;
  }
}

interface Anchors {
  generation: number;
  /** When the first of them was learnt: they all go together. */
  at: number;
  /** Position in the list → the id there. */
  ids: Map<number, number>;
  /** The list's row count, when a survey read to its end (else Infinity). */
  end: number;
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
// At most ~20 MB: a key is a list statement's text and its values, a position two numbers.
const MAX_LISTS = 1_000;
const MAX_POSITIONS = 400;
/** How far before a page its nearest known position may lie before a survey goes there (near). */
const SURVEY_GAP = 200;
/** A survey reads on to the next multiple of this many rows. */
const SURVEY_ROWS = 1_000;
/** SE_PAGE_SURVEY=0: no surveys, every deep page walks from its nearest position (the benchmarks' "before"). */
const SURVEYS = process.env.SE_PAGE_SURVEY !== '0';
