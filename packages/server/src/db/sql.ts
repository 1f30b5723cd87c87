/** SQL fragments shared by repositories. */
import { EXACT_COUNT_LIMIT, TZ_OFFSET_SQL } from '@se/core';
import type { Queryable } from './index.ts';
import { JsonRows } from './json-rows.ts';
import type { PageAnchors } from './page-anchors.ts';
import { SharedAnswers } from '../shared-answers.ts';

/** A timestamptz column as 'YYYY-MM-DD HH:mm:ss' in the product's zone, UTC+8 (SPEC §5). */
export const localTime = (col: string) =>
  `to_char((${col} AT TIME ZONE 'UTC') + ${TZ_OFFSET_SQL}, 'YYYY-MM-DD HH24:MI:SS')`;

/** A 'YYYY-MM-DD HH:mm:ss' parameter in UTC+8 as timestamptz. */
export const fromLocal = (param: string) => `((${param})::timestamp - ${TZ_OFFSET_SQL}) AT TIME ZONE 'UTC'`;

/** Escapes LIKE wildcards so user text matches literally. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The searched text of each table, as migration 0020 indexes it (`search_tokens(text)`, a GIN
 * index): a query must write this very expression for the index to answer. `a` is the alias.
 */
export const SEARCH = {
  devices: (a = 'd') => `(${a}.ser_num || ' ' || ${a}."desc" || ' ' || ${a}.location)`,
  users: (a = 'u') => `(${a}.user_name || ' ' || coalesce(${a}.email, '') || ' ' || ${a}.phone_num)`,
  userInfo: (a = 'i') => `${a}.company_name`,
  toilets: (a = 't') => `(${a}.name || ' ' || ${a}.address || ' ' || ${a}.cityname || ' ' || ${a}.adname)`,
  comments: (a = 'c') => `${a}.content`,
  messages: (a = 'm') => `(${a}.title || ' ' || ${a}.content)`,
  media: (a = 'mi') => `${a}.name`,
  maintenanceRecords: (a = 'r') => `(${a}.ser_num || ' ' || ${a}.description)`,
} as const;

/** Any of `fields` contains the keyword, taken literally, ignoring case: read row by row. */
export function likeSql(w: Params, fields: string[], keywords: string) {
  const like = `'%' || ${w.p(likeEscape(keywords))} || '%'`;
  return `(${fields.map((f) => `${f} ILIKE ${like}`).join(' OR ')})`;
}

/**
 * A keyword search through a token index, for any script (a 2-character Chinese word too):
 * the searched text of `table` (SEARCH, under its usual alias) holds every character pair of
 * the keyword — the index's test — and the keyword itself is in that text, or in one of
 * `fields` when only some parts of it are searched (each a part of it, so the index test
 * still holds for a match). A device or work-order keyword shaped like a serial number is a
 * serial-number prefix instead (SERIAL_LIKE).
 */
export function keywordSql(w: Params, table: keyof typeof SEARCH, keywords: string, fields?: string[]) {
  if (!fields && SERIAL_LIKE.test(keywords) && table in SERIAL)
    return serialPrefixSql(w, keywords, SERIAL[table as keyof typeof SERIAL]);
  const text = SEARCH[table]();
  return `(search_tokens(${text}) @> search_key(${w.p(keywords)}) AND ${likeSql(w, fields ?? [text], keywords)})`;
}

/**
 * The same test row by row, without the index: a row holds the keyword in its text (or in
 * one of `fields`), or, serial-shaped, its serial number starts with it. Every row the
 * index test finds passes it and the other way round (the index test only narrows), so a
 * list that reads its scope's rows in order (walkFirst) matches what keywordSql matches.
 */
export function keywordRowSql(w: Params, table: keyof typeof SEARCH, keywords: string, fields?: string[]) {
  if (!fields && SERIAL_LIKE.test(keywords) && table in SERIAL)
    return serialPrefixSql(w, keywords, SERIAL[table as keyof typeof SERIAL]);
  return likeSql(w, fields ?? [SEARCH[table]()], keywords);
}

/**
 * keywordRowSql's test on a text kept lower-cased (`col`: a closure row's device text,
 * migration 0062): `ILIKE` on a multi-byte database lower-cases both sides on every call and
 * then compares as `LIKE` does; here only the keyword is, once.
 */
export const keywordLowerSql = (w: Params, col: string, keywords: string) =>
  `${col} LIKE '%' || lower(${w.p(likeEscape(keywords))}) || '%'`;

/**
 * A keyword shaped like a serial number — letters, then digits, four characters or more
 * (GW0001, MT-000123, K100) — is looked up as the start of a device's serial number, ignoring
 * case: one range of the btree index of migration 0041. Through the token index its character
 * pairs ('00', '01'…) are in nearly every serial number, and at a million devices
 * intersecting them took a second. Shorter ones (B1, A12: a floor or a room in a location)
 * still search the whole text.
 */
export const SERIAL_LIKE = /^(?=.{4})[a-z]+[-_]?[0-9][a-z0-9_-]*$/i;

/** The serial-number column of the tables whose serial-shaped keywords are prefixes (btree indexed). */
const SERIAL = { devices: 'd.ser_num', maintenanceRecords: 'r.ser_num' } as const;

/**
 * Rows whose serial number (`col`: devices `d` by default) starts with `keywords`, ignoring
 * case: migration 0041's index for devices, 0049's for work orders. Written as the range the
 * planner would make of `LIKE 'gw-0012%'` (the index's byte-wise `~>=~`, `~<~`: from the
 * prefix to the prefix with its last character raised by one, exact for SERIAL_LIKE's ASCII),
 * so that a plan made without the values (a prepared statement's generic plan) still reads
 * that range of the index; with `LIKE $1` it read the whole table.
 */
export function serialPrefixSql(w: Params, keywords: string, col: string = SERIAL.devices, lowered = false) {
  // Callers test SERIAL_LIKE first; anything else (an empty or non-ASCII prefix) has no such range.
  if (!SERIAL_LIKE.test(keywords)) throw new Error(`not a serial-number prefix: ${JSON.stringify(keywords)}`);
  const from = keywords.toLowerCase();
  const to = from.slice(0, -1) + String.fromCharCode(from.charCodeAt(from.length - 1) + 1);
  const text = lowered ? col : `lower(${col})`;
  return `(${text} ~>=~ ${w.p(from)} AND ${text} ~<~ ${w.p(to)})`;
}

/**
 * How many of its scope's rows, newest first, a filtered list reads row by row before it
 * turns to its filter's own index (walkFirst). At most EXACT_COUNT_LIMIT, so a scope read
 * whole is counted exactly.
 */
export const WALK_ROWS = EXACT_COUNT_LIMIT;

/**
 * A device filter on `alias`: seen within `offlineMs` (online) or not (offline). Online is
 * `time` itself, with its five-minute bin (migration 0059: the index (kind, seen_5min))
 * as the range an index can take; the bin of a time at or after `since` is at or after
 * the bin of `since`, so the range drops no match.
 */
export function onlineSql(w: Params, offlineMs: number, online: boolean, alias = 'd') {
  const since = `now() - ${w.p(offlineMs)} * interval '1 millisecond'`;
  if (!online) return `(${alias}.time IS NULL OR ${alias}.time < ${since})`;
  return `${alias}.seen_5min >= date_bin('5 minutes', ${since}, timestamptz '2000-01-01 00:00:00+00') AND ${alias}.time >= ${since}`;
}

/**
 * Pages whose last row is further down than this go to the filter's index directly. A walk
 * that reaches them reads its WALK_ROWS first rows, then up to WALK_FAR (walkFirst).
 */
export const WALK_NEED = WALK_ROWS;

/**
 * How many rows a walk reads at most when its first WALK_ROWS rows promise the page: they
 * held at least a quarter of the rows the page needs (a keyword in a tenth of a dealer's
 * devices, page 20 of 10: 100 of 200 found in the first 1,000 rows, the rest in ~1,000 more).
 */
export const WALK_FAR = 5 * WALK_ROWS;

/**
 * A filter whose index holds at most this many matches, whoever the caller, is answered off
 * the index without a walk (walkFirst `few`): a rare keyword read the caller's first
 * WALK_ROWS rows (a dealer's toilets, ~10 ms) to find nothing there.
 */
export const FEW_MATCHES = 100;

/**
 * The page keys and the count source of a filtered list whose cost depends on the page and
 * on the caller's size, not on the table (issue 14). Two ways to a page:
 *
 * - the walk: the rows in list order (`walk`, an index range: the caller's closure range
 *   (user_id, kind, id), or the table's own order index for develop and for reviews), each
 *   tested row by row (`hits`); a keyword found in a tenth of the rows fills page 1 after
 *   some 200, whatever the table holds. It reads WALK_ROWS rows; when those hold too few of
 *   the `need` (offset + limit) rows but at least a quarter of them, it goes on up to
 *   WALK_FAR rows (the density it found says the page is within reach; page 20 of a dense
 *   keyword read its 10,000 matches off the index before).
 * - the index: the filter's own index (`indexed`: a keyword's tokens, the online state),
 *   each match then probed against the caller's closure row; a rare keyword reads its few
 *   matches.
 *
 * `ids(need)` is the page's keys, `need` (offset + limit) given as an expression of the page's
 * parameters (selectPage's `need`), so that one text serves every page and may be kept
 * prepared. One statement decides (a one-row CTE of one-time filters, so the way not taken costs
 * nothing): the walk when it found the rows or read all there is (fewer than WALK_ROWS rows
 * in a `scoped` walk: the caller's own rows, not a whole table's; within WALK_FAR after
 * going on), else the index; `walkIf` (a one-time condition) may rule the walk out (a scope
 * seeing few rows of a table walked whole), and so does `few` (the filter's matches whatever
 * the scope, without the probes) holding at most FEW_MATCHES rows: given as the answer
 * (fewMatches, kept a minute) or as their statement, counted in this one up to
 * FEW_MATCHES + 1, which a dense filter's bitmap pays with every index entry it has. A scoped
 * walk read whole is counted exactly off the walk (at most WALK_ROWS rows); otherwise the count is the index's matches, capped and
 * estimated by selectPage, whose estimate is the planner's for the index's matches
 * (`estimateFrom`). `hits(rel)` answers the list's key columns (`order` sorts them) for the
 * walk relation `rel` (a sub-select to alias) in list order; `indexed` the same columns,
 * unsorted.
 */
export function walkFirst(o: {
  walk: string;
  hits: (walk: string) => string;
  indexed: string;
  order: string;
  scoped?: boolean;
  walkIf?: string;
  /** The filter's matches whatever the scope, or whether they are rare (fewMatches, known already). */
  few?: string | boolean;
}) {
  const walked = `(${o.walk} LIMIT ${WALK_ROWS})`;
  const small = o.scoped === false ? 'false' : `((SELECT count(*) FROM ${walked} x) < ${WALK_ROWS})`;
  const found = '(SELECT count(*) FROM a)';
  const whole = `((SELECT count(*) FROM (${o.walk} LIMIT ${WALK_FAR}) x) < ${WALK_FAR})`;
  const rare =
    typeof o.few === 'string'
      ? `((SELECT count(*) FROM (${o.few} LIMIT ${FEW_MATCHES + 1}) x) <= ${FEW_MATCHES})`
      : String(o.few ?? false);
  // 1: the first rows; 2: they and the further ones; 3: the index.
  // The index's matches are all read and sorted (`OFFSET 0`: planned for every row, not
  // as a walk of the list's order index filtered by a condition few rows meet, which read
  // 8,000 reviews for a customer's page 2).
  const ids = (need: string) => {
    const way = `CASE WHEN ${o.walkIf ? `NOT (${o.walkIf})` : 'false'} THEN 3
                    WHEN ${small} THEN 1
                    WHEN ${rare} THEN 3
                    WHEN ${found} >= ${need} THEN 1
                    WHEN ${found} * 4 < ${need} THEN 3
                    WHEN ${found} + (SELECT count(*) FROM b) >= ${need}${o.scoped === false ? '' : ` OR ${whole}`} THEN 2
                    ELSE 3 END`;
    return `WITH a AS MATERIALIZED (${o.hits(walked)} LIMIT ${need}),
       b AS MATERIALIZED (${o.hits(`(${o.walk} OFFSET ${WALK_ROWS} LIMIT ${WALK_FAR - WALK_ROWS})`)}
                          LIMIT (SELECT ${need} - count(*) FROM a)),
       wy AS MATERIALIZED (SELECT ${way} AS way),
       k AS (SELECT * FROM a WHERE (SELECT way FROM wy) < 3
             UNION ALL
             SELECT * FROM b WHERE (SELECT way FROM wy) = 2
             UNION ALL
             SELECT * FROM (SELECT * FROM (${o.indexed} OFFSET 0) i ORDER BY ${o.order} LIMIT ${need}) i
              WHERE (SELECT way FROM wy) = 3)
     SELECT * FROM k ORDER BY ${o.order}`;
  };
  return {
    ids,
    // The index's matches; the walk's parameters mentioned (columns nobody reads) so that
    // the EXPLAIN binds the statement's every parameter.
    estimateFrom: `(SELECT i.*, (SELECT count(*) FROM (${o.hits(`(${o.walk} LIMIT 0)`)}) z) AS walked,
                           ${o.walkIf ?? 'true'} AS walk_if, ${typeof o.few === 'string' ? `(SELECT count(*) FROM (${o.few} LIMIT 0) f)` : '0'} AS few
                      FROM (${o.indexed}) i) e`,
    countFrom: `(SELECT * FROM (${o.hits(`(${o.walk})`)}) h WHERE ${small}
       UNION ALL
       SELECT * FROM (${o.indexed}) i WHERE NOT ${small}) n`,
  };
}

/**
 * Whether a filter holds at most FEW_MATCHES rows whoever asks (`matches(w)` selects them,
 * its values taken by `w`), kept FEW_MS per statement and values: walkFirst's `few`. Asked
 * inside the list's statement it cost a dense filter every match's index entry on every page
 * (a keyword in a tenth of 100k devices: 10,000 entries read, 1.3 ms of a 2.3 ms page); the
 * answer only picks how the page is found (both ways list the same rows), so a minute old is
 * as good. Kept per database (SharedAnswers: callers asking at once share one statement).
 */
export function fewMatches(q: Queryable, matches: (w: Params) => string): Promise<boolean> {
  const w = new Params();
  const sql = `SELECT count(*)::int AS n FROM (${matches(w)} LIMIT ${FEW_MATCHES + 1}) x`;
  let kept = fewKept.get(q);
  if (!kept) fewKept.set(q, (kept = new SharedAnswers<boolean>(FEW_MS, FEW_MS)));
  return kept.get(`${sql}\u0000${JSON.stringify(w.values)}`, async () => {
    const [row] = await q.query<{ n: number }>(sql, w.values, { prepare: true });
    return row!.n <= FEW_MATCHES;
  });
}
const FEW_MS = 60_000;
const fewKept = new WeakMap<Queryable, SharedAnswers<boolean>>();

export const offset = (page: number, pageSize: number) => (page - 1) * pageSize;

/** A list request's page as the LIMIT and OFFSET a repository takes. */
export const pageWindow = (q: { page: number; page_size: number }) => ({
  limit: q.page_size,
  offset: offset(q.page, q.page_size),
});

/** Collects parameters while a query is assembled: `p(value)` answers its placeholder. */
export class Params {
  readonly values: unknown[] = [];
  p(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** What `selectPage` is given to build a list's statement. */
export interface PageStatement {
  /**
   * The page's statement around its `LIMIT … OFFSET …` clause; `need` is the rows down to the
   * page's last (offset + limit) as an expression of the same parameters, for a statement
   * whose text then stays the same whatever the page (walkFirst's `ids`). With `anchors`,
   * `below` is null or the placeholder of an id the page starts below (the list is newest
   * first by id): the statement then selects only rows whose id is below it.
   */
  list: (limit: string, need: string, below: string | null) => string;
  where: string;
  countFrom: string | null;
  countValues?: unknown[];
  /** What the planner estimates past the limit instead of `countFrom WHERE where` (walkFirst). */
  estimateFrom?: string;
  /**
   * The rows as the JSON array text the database writes (JsonRows), for an API answer to
   * carry as it is; else parsed rows.
   */
  json?: boolean;
  /**
   * The statements' shape is fixed and their plans do not depend on the values (a page off
   * one index, a small scope's own rows): kept prepared on PostgreSQL (db QueryOptions).
   */
  prepare?: boolean;
  /** With `prepare`: one plan serves every value, so it always runs its generic plan (db QueryOptions). */
  generic?: boolean;
  /**
   * The page's rows from its ids (rowsByIdsSql): `list` then selects the page's `id`s alone,
   * and this statement takes them as `$1::int[]` and answers their rows in that order. A list
   * whose filter is planned on every call (its best index depends on the values) sends it as
   * a second statement, always kept prepared (its generic plan: rows by their ids, whatever
   * the ids), and so plans the filter alone: planning the rows' joins cost more than running
   * the page (a work order's eight joined names: 2.0–2.6 ms of planning against 0.6 ms for
   * the ids). A page kept prepared on its generic plan (`prepare`, `generic`) and sent as
   * `json` reads its rows in its own statement.
   */
  rows?: string;
  /**
   * Where this list's pages were found lately (PageAnchors; needs `rows`): a page past one
   * starts below the nearest id known before it, and each page read leaves its last id.
   */
  anchors?: PageAnchors;
}

/**
 * The rows statement of a list (PageStatement.rows): `select` (columns of `alias` and of
 * `joins`) for the ids in `$1::int[]`, in that order.
 */
export const rowsByIdsSql = (select: string, table: string, alias: string, joins = '') =>
  `SELECT ${select} FROM ${IDS_GIVEN} WITH ORDINALITY k (id, n)
     JOIN ${table} ${alias} ON ${alias}.id = k.id ${joins} ORDER BY k.n`;
const IDS_GIVEN = 'unnest($1::int[])';
/** Whether a prepared page's rows ride in its statement (selectPage); SE_PAGE_ROWS_JOINED=0: the benchmarks' "before". */
const ROWS_JOINED = process.env.SE_PAGE_ROWS_JOINED !== '0';

/**
 * A rows statement (rowsByIdsSql) reading its ids from the expression `ids` instead of `$1`,
 * to ride inside the page's own statement; null for one not built by rowsByIdsSql.
 */
const rowsOfIds = (rows: string, ids: string) =>
  rows.includes(IDS_GIVEN) ? rows.replace(IDS_GIVEN, () => `unnest(${ids})`) : null;

/**
 * A page's rows by their ids: one plan serves every list of ids, sent ahead of other requests'
 * first statements (QueryOptions.followUp): the page's ids have been answered already.
 */
const BY_IDS = { prepare: true, generic: true, followUp: true };

/** A page's ids as one array, in its order. */
const idsOf = (sql: string) => `(SELECT coalesce(array_agg(l.id), '{}') FROM (${sql}) l)`;

/** A page of `selectPage`: its rows (objects, or JSON text) and the total. */
export interface Page<L> {
  list: L;
  total: number;
  estimated?: boolean;
}

type PageLimits = { limit: number; offset: number; exact?: boolean };

/**
 * One page of a filtered list and the number of rows its filter matches, in one statement.
 * `list` builds the page query around the `LIMIT … OFFSET …` clause it is given (the two
 * parameters follow `w`'s); the total counts `SELECT … FROM countFrom WHERE where` over
 * `countValues` (default `w.values`), or is -1 when `countFrom` is null (not asked for).
 * The count stops after EXACT_COUNT_LIMIT rows: past it the total is the planner's estimate
 * of the same query and `estimated` is true, so a tenant of 10M rows costs no more to count
 * than one of a thousand. `exact` counts every row (an export's progress bar, which walks
 * them all anyway).
 *
 * One round trip a request (docs/architecture.md): the capped count rides in the page's
 * statement (pageAndCount), and an estimate already made is reused for ESTIMATE_MS, so only
 * the first request of a large list in that time pays a second statement (its EXPLAIN).
 * With `json` the page's rows come back as one JSON array text (JsonRows), in list order.
 * With `rows` the page's ids come first and their rows by a second, prepared statement: a
 * second round trip is cheaper than planning the rows' joins with a filter planned every call.
 */
export function selectPage<T>(
  q: Queryable,
  w: Params,
  page: PageLimits,
  s: PageStatement & { json: true },
): Promise<Page<JsonRows<T>>>;
export function selectPage<T>(
  q: Queryable,
  w: Params,
  page: PageLimits,
  s: PageStatement & { json?: false },
): Promise<Page<T[]>>;
export function selectPage<T>(
  q: Queryable,
  w: Params,
  page: PageLimits,
  s: PageStatement,
): Promise<Page<T[] | JsonRows<T>>>;
export async function selectPage<T>(
  q: Queryable,
  w: Params,
  page: PageLimits,
  s: PageStatement,
): Promise<Page<T[] | JsonRows<T>>> {
  const n = w.values.length;
  const limit = `LIMIT $${n + 1} OFFSET $${n + 2}`;
  const need = `($${n + 1}::int + $${n + 2}::int)`;
  // A page past a known position starts below the id there (PageAnchors): the rows before
  // it are not walked again.
  const anchors = s.rows ? s.anchors : undefined;
  const listKey = anchors ? `${s.list(limit, need, null)}\u0000${JSON.stringify(w.values)}` : '';
  // A page far below every known position (or with none) is found by a survey first, shared
  // by the callers of the same list (PageAnchors.near): the ids down to it, in one walk.
  const planned = { prepare: s.prepare, generic: s.generic };
  /** The list statement `rows` rows long after `skip`, below the position `from` or from the top. */
  const listAt = (from: { pos: number; id: number } | undefined, rows: number, skip: number) => ({
    sql: s.list(limit, need, from ? `$${n + 3}` : null),
    values: from ? [...w.values, rows, skip, from.id] : [...w.values, rows, skip],
  });
  const survey = (from: { pos: number; id: number } | undefined, rows: number) => {
    const l = listAt(from, rows, 0);
    return q
      .query<{ ids: number[] }>(`SELECT ${idsOf(l.sql)} AS ids`, l.values, planned)
      .then(([row]) => row!.ids);
  };
  const { anchor, surveyed } =
    anchors && page.offset > 0
      ? await anchors.near(q, listKey, page.offset, page.limit, survey)
      : { anchor: undefined, surveyed: false };
  const { sql: listSql, values } = listAt(
    anchor,
    page.limit,
    anchor ? page.offset - anchor.pos - 1 : page.offset,
  );
  // After a survey the page has queued once: its statements go ahead of first ones (followUp).
  const opts = { ...planned, ...(surveyed ? { followUp: true } : {}) };
  /** The page's rows, given the page's ids when `s.rows` builds them. */
  const byIds = async (ids: number[]): Promise<T[] | JsonRows<T>> => {
    anchors?.learn(q, listKey, page.offset, ids);
    if (s.json) {
      if (!ids.length) return new JsonRows<T>('[]');
      const [row] = await q.query<{ list: string }>(`SELECT ${jsonArray(s.rows!)} AS list`, [ids], BY_IDS);
      return new JsonRows<T>(row!.list);
    }
    return ids.length ? q.query<T>(s.rows!, [ids], BY_IDS) : [];
  };
  // A page kept prepared on its generic plan takes its rows in the same statement: the joins
  // are planned once either way, and a second statement was a second round trip and a second
  // wake-up of each side (loopback sends were a quarter of the console's CPU on a dealer's
  // work-order pages). A page planned on every call keeps its rows apart (PageStatement.rows).
  const joined =
    s.rows && s.json && s.prepare && s.generic && ROWS_JOINED ? rowsOfIds(s.rows, 'p.ids') : null;
  const withRows = joined ? `, ${jsonArray(joined)} AS list` : '';
  /** The page's rows from a statement's answer: its `list` when joined, else by its ids. */
  const rowsFrom = (row: { ids: number[]; list?: string }) => {
    if (!joined) return byIds(row.ids);
    anchors?.learn(q, listKey, page.offset, row.ids);
    return new JsonRows<T>(row.list!);
  };
  const rowsOf = async (): Promise<T[] | JsonRows<T>> => {
    if (s.rows) {
      const [row] = await q.query<{ ids: number[]; list?: string }>(
        `SELECT p.ids${withRows} FROM (SELECT ${idsOf(listSql)} AS ids) p`,
        values,
        opts,
      );
      return rowsFrom(row!);
    }
    return s.json
      ? new JsonRows<T>(
          (await q.query<{ list: string }>(`SELECT ${jsonArray(listSql)} AS list`, values, opts))[0]!.list,
        )
      : q.query<T>(listSql, values, opts);
  };
  if (s.countFrom === null) return { list: await rowsOf(), total: -1 };
  const from = `FROM ${s.countFrom} WHERE ${s.where}`;
  const countValues = s.countValues ?? w.values;
  if (page.exact) return pageAndCount();
  const known = knownEstimate(q, from, countValues);
  if (known !== undefined) return { list: await rowsOf(), total: known, estimated: true };
  // The same count already under way (callers paging one list at once, an estimate just
  // expired): the page alone, the count shared.
  const key = estimateKey(from, countValues);
  let pending = counting.get(q);
  if (!pending) counting.set(q, (pending = new Map()));
  const shared = pending.get(key);
  if (shared) {
    const [list, count] = await Promise.all([rowsOf(), shared]);
    return { list, ...count };
  }
  let settle!: (count: Promise<{ total: number; estimated?: boolean }>) => void;
  const counted = new Promise<{ total: number; estimated?: boolean }>((resolve) => (settle = resolve));
  counted.catch(() => {}); // its sharers see the failure; none may be waiting
  pending.set(key, counted);
  const answer = pageAndCount();
  settle(answer.then(({ total, estimated }) => ({ total, estimated })));
  try {
    return await answer;
  } finally {
    pending.delete(key);
  }

  /** The page and its count, in one statement when the count's placeholders are the page's. */
  async function pageAndCount(): Promise<Page<T[] | JsonRows<T>>> {
    if (!countValues.every((v, i) => v === w.values[i])) {
      const [list, count] = await Promise.all([
        rowsOf(),
        cappedCount(q, from, countValues, page.exact, s.estimateFrom, s.prepare),
      ]);
      return { list, ...count };
    }
    const capped = page.exact ? `SELECT 1 ${from}` : `SELECT 1 ${from} LIMIT ${EXACT_COUNT_LIMIT + 1}`;
    const count = `WITH c AS (SELECT count(*)::int AS n FROM (${capped}) c)`;
    let total: number;
    let list: T[] | JsonRows<T>;
    // A list that ends on this page (fewer rows than the page holds, or none from the top)
    // has as many rows as come before and on it: the count is not run (a filter matching
    // nothing in a customer's 5,000 work orders read them all twice, for the page and for its
    // count of 0). The page comes first, materialized (inlined, the CASE's two references each
    // planned the list again), and the count only when needed; `__total` is null without it.
    const ended = (rows: string) =>
      `${rows} < $${n + 1} AND (${rows} > 0 OR ${anchor ? 'false' : `$${n + 2}::int = 0`})`;
    const countUnless = (rows: string) =>
      `CASE WHEN ${ended(rows)} THEN NULL ELSE (SELECT count(*)::int FROM (${capped}) c) END`;
    /** The page and, unless it ended, the count (null): by ids then rows, or as JSON text. */
    const pageFirst = async (): Promise<{
      list: T[] | JsonRows<T>;
      rows: number;
      counted: number | null;
    }> => {
      if (s.rows) {
        const [row] = await q.query<{ __total: number | null; ids: number[]; list?: string }>(
          `WITH p AS MATERIALIZED (SELECT ${idsOf(listSql)} AS ids)
           SELECT ${countUnless('cardinality(p.ids)')} AS __total, p.ids${withRows} FROM p`,
          values,
          opts,
        );
        return { list: await rowsFrom(row!), rows: row!.ids.length, counted: row!.__total };
      }
      const [row] = await q.query<{ __total: number | null; list: string; n: number }>(
        `WITH p AS MATERIALIZED (SELECT coalesce(json_agg(x), '[]')::text AS list, count(*)::int AS n
                                   FROM (${listSql}) x)
         SELECT ${countUnless('p.n')} AS __total, p.list, p.n FROM p`,
        values,
        opts,
      );
      return { list: new JsonRows<T>(row!.list), rows: row!.n, counted: row!.__total };
    };
    if (s.rows || s.json) {
      const got = await pageFirst();
      list = got.list;
      if (got.counted === null) {
        estimatesOf(q).delete(estimateKey(from, countValues));
        return { list, total: page.offset + got.rows };
      }
      total = got.counted;
    } else {
      const rows = await q.query<T & { __total: number; __rn: number | null }>(
        `${count}
       SELECT c.n AS __total, p.* FROM c
         LEFT JOIN LATERAL (SELECT l.*, row_number() OVER () AS __rn FROM (${listSql}) l) p ON true
        ORDER BY p.__rn`,
        values,
        opts,
      );
      total = rows[0]!.__total;
      list = rows.filter((r) => r.__rn !== null).map(({ __total: _t, __rn: _r, ...row }) => row as T);
    }
    if (page.exact || total <= EXACT_COUNT_LIMIT) {
      estimatesOf(q).delete(estimateKey(from, countValues));
      return { list, total };
    }
    return { list, ...(await estimate(q, from, countValues, s.estimateFrom)) };
  }
}

/**
 * The counts under way, per database and count (estimateKey): a caller whose count is
 * already being taken shares it (selectPage). A hundred callers paging one large list
 * the moment its estimate expired, or before it was first made, each ran the capped count
 * and its EXPLAIN (a keyword in 10,000 of a dealer's devices: 15 ms a count, their p99 850 ms).
 */
const counting = new WeakMap<Queryable, Map<string, Promise<{ total: number; estimated?: boolean }>>>();

/**
 * The rows of `listSql` as one JSON array text, in its order (a scalar sub-select): each
 * row an object of its columns, as JSON.stringify would write the parsed row.
 */
const jsonArray = (listSql: string) => `(SELECT coalesce(json_agg(x), '[]')::text FROM (${listSql}) x)`;

/** The rows of `SELECT … ${from}` counted up to EXACT_COUNT_LIMIT, estimated past it (or all: `exact`). */
export async function cappedCount(
  q: Queryable,
  from: string,
  values: unknown[],
  exact = false,
  estimateFrom?: string,
  prepare?: boolean,
): Promise<{ total: number; estimated?: boolean }> {
  if (exact) {
    const [all] = await q.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, values, { prepare });
    return { total: all!.n };
  }
  const known = knownEstimate(q, from, values);
  if (known !== undefined) return { total: known, estimated: true };
  const [capped] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${EXACT_COUNT_LIMIT + 1}) c`,
    values,
    { prepare },
  );
  if (capped!.n <= EXACT_COUNT_LIMIT) {
    estimatesOf(q).delete(estimateKey(from, values));
    return { total: capped!.n };
  }
  return estimate(q, from, values, estimateFrom);
}

const estimateKey = (from: string, values: unknown[]) => `${from}\u0000${JSON.stringify(values)}`;

function knownEstimate(q: Queryable, from: string, values: unknown[]) {
  const known = estimatesOf(q).get(estimateKey(from, values));
  return known && Date.now() - known.at < ESTIMATE_MS ? known.total : undefined;
}

/**
 * The planner's row estimate of `SELECT 1 ${from}` (at least past the limit), or of
 * `SELECT 1 FROM ${estimateFrom}` when given, kept ESTIMATE_MS.
 */
async function estimate(q: Queryable, from: string, values: unknown[], estimateFrom?: string) {
  const explained = estimateFrom ? `FROM ${estimateFrom}` : from;
  const [plan] = await q.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 ${explained}`,
    values,
  );
  const json = plan!['QUERY PLAN'];
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as [{ Plan: { 'Plan Rows': number } }];
  const total = Math.max(EXACT_COUNT_LIMIT + 1, Math.round(parsed[0].Plan['Plan Rows']));
  const estimates = estimatesOf(q);
  if (estimates.size >= ESTIMATES_MAX) estimates.delete(estimates.keys().next().value!);
  estimates.set(estimateKey(from, values), { total, at: Date.now() });
  return { total, estimated: true as const };
}

/**
 * Estimates already made, per database, by query and values, for ESTIMATE_MS: a total past
 * EXACT_COUNT_LIMIT is shown as "约 N 条" and a few seconds old is as good, while the capped
 * count and the EXPLAIN behind it cost two statements on every page of a large list (100
 * callers paging the same list make one). Exact totals are never kept: they change with
 * every row added or removed and are cheap to count. Per database: two databases in one
 * process (test suites sharing a worker) ask the same statements with the same ids, and
 * one's estimate answered the other's list of seven records as "约 1,200 条".
 */
const estimated = new WeakMap<Queryable, Map<string, { total: number; at: number }>>();
const estimatesOf = (q: Queryable) => {
  let kept = estimated.get(q);
  if (!kept) estimated.set(q, (kept = new Map()));
  return kept;
};
const ESTIMATE_MS = 10_000;
const ESTIMATES_MAX = 5_000;

/** What a binding picker filters on: rows the caller sees, to bind to `targetUserId`. */
export interface BindingFilter {
  scope: string;
  targetUserId: number;
  keywords?: string;
  onlyBound: boolean;
  limit: number;
  offset: number;
}

/**
 * One page of a binding picker (devices or toilets to bind to `f.targetUserId`), each row
 * with whether it is bound already; `bound(p)` is the condition "bound to user `p`".
 */
export function bindingPage(
  q: Queryable,
  w: Params,
  f: BindingFilter,
  s: { cond: string[]; bound: (p: string) => string; columns: string; from: string; order: string },
) {
  const cond = f.onlyBound ? [...s.cond, s.bound(w.p(f.targetUserId))] : s.cond;
  const where = cond.join(' AND ');
  const countValues = [...w.values];
  const isBind = s.bound(w.p(f.targetUserId));
  return selectPage<{ id: number; ser_num: string; desc: string; location: string; is_bind: boolean }>(
    q,
    w,
    f,
    {
      list: (page) =>
        `SELECT ${s.columns}, ${isBind} AS is_bind FROM ${s.from} WHERE ${where} ORDER BY ${s.order} ${page}`,
      where,
      countFrom: s.from,
      countValues,
    },
  );
}
