import type { CommentFilter, CommentRow, CommentStats } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import {
  Params,
  WALK_NEED,
  fromLocal,
  keywordRowSql,
  keywordSql,
  localTime,
  selectPage,
  walkFirst,
} from '../../db/sql.ts';
import { commentProbed, commentSeen, reviewScopeOver } from '../access/visible-repo.ts';
import { TOILET_DEVICE_JOIN } from '../rules/repo.ts';

// A terminal's rating carries toilet_id when the terminal was placed in a toilet
// (devices.toilet_id) at the time; the ingest writes it.
const FROM = `comments c
  LEFT JOIN toilets t ON t.id = c.toilet_id
  LEFT JOIN devices e ON e.id = c.equipment_id`;

const ROW = `c.id, c.is_delete, c.content, c.star_level, c.sex, c.badattitude, c.inefficiency,
  c.poorsanitary, c.smelly, c.equipment_id, coalesce(e.ser_num, '') AS equipment_ser_num,
  t.id AS toilet_id, coalesce(t.name, '') AS toilet_name, c.source,
  ${localTime('c.created_at')} AS created_at`;

/**
 * A review is visible when its toilet or its terminal is, and is not deleted: bound in the
 * caller's subtree, or anywhere for '/' (develop). Conditions on `c` alone, the id sets
 * built once (ARRAY(...)), so counts need no join and the toilet and terminal indexes
 * serve a caller with few of them.
 */
function reviewVisible(w: Params, scope: string, probed = false) {
  if (probed) return commentProbed(w, scope, 'c', { live: true });
  if (scope === '/') {
    // Deleted toilets and terminals are few: compare against those.
    return `((c.toilet_id IS NOT NULL AND c.toilet_id <> ALL(ARRAY(SELECT id FROM toilets WHERE is_delete)))
          OR (c.equipment_id IS NOT NULL AND c.equipment_id <> ALL(ARRAY(SELECT id FROM devices WHERE is_delete))))`;
  }
  return commentSeen(w, scope, 'c', { live: true });
}

export interface ListFilter extends Omit<CommentFilter, 'sort'> {
  scope: string;
  /** The scope sees at most WALK_SCOPE toilets and rating terminals (access seesFewReviewPlaces). */
  few?: boolean;
}

/**
 * The filter as conditions on `c` only. `indexed`: the keyword through its token index and
 * visibility through the scope's id sets; else both row by row (keywordRowSql,
 * commentProbed), for rows read in order off another index.
 */
function whereOf(w: Params, f: ListFilter, indexed = true) {
  const cond = [reviewVisible(w, f.scope, !indexed && f.scope !== '/')];
  if (!f.show_hidden) cond.push('NOT c.is_delete');
  if (f.toilet_id !== undefined) cond.push(`c.toilet_id = ${w.p(f.toilet_id)}`);
  if (f.equipment_id !== undefined) cond.push(`c.equipment_id = ${w.p(f.equipment_id)}`);
  if (f.star_levels?.length) cond.push(`c.star_level = ANY(${w.p(f.star_levels)}::int[])`);
  if (f.flags?.length) cond.push(`(${f.flags.map((k) => `c.${k}`).join(' OR ')})`);
  if (f.source) cond.push(`c.source = ${w.p(f.source)}`);
  if (f.start) cond.push(`c.created_at >= ${fromLocal(w.p(f.start))}`);
  if (f.end) cond.push(`c.created_at <= ${fromLocal(w.p(f.end))}`);
  if (f.keywords) cond.push((indexed ? keywordSql : keywordRowSql)(w, 'comments', f.keywords));
  return cond.join(' AND ');
}

const ORDER = {
  time: 'c.created_at DESC, c.id DESC',
  star_asc: 'c.star_level ASC, c.created_at DESC, c.id DESC',
  star_desc: 'c.star_level DESC, c.created_at DESC, c.id DESC',
} as const;

/** A scope seeing more toilets and rating terminals than this walks the newest reviews. */
export const WALK_SCOPE = 100;

export async function listComments(
  q: Queryable,
  f: ListFilter & { sort: keyof typeof ORDER; limit: number; offset: number },
) {
  const w = new Params();
  const where = whereOf(w, f);
  // The page's ids first (the filter is on `c` alone), then the full rows for those ids:
  // a keyword matching thousands sorts their keys, not their formatted rows.
  const rows = (ids: string, page: string) =>
    `WITH page AS (${ids} ${page})
     SELECT ${ROW} FROM page JOIN (${FROM}) ON c.id = page.id ORDER BY ${ORDER[f.sort]}`;
  if (f.few && f.sort === 'time') {
    // A small scope (a customer's): its reviews off the indexes of its few toilets and
    // terminals (the id sets of reviewVisible), all of them sorted (`OFFSET 0`: not a walk of
    // the table's newest, which read 8,000 reviews for a customer's page 2). One statement of
    // one shape whatever the page, kept prepared, where walkFirst's planned its other ways too.
    return selectPage<CommentRow>(q, w, f, {
      list: (page) =>
        rows(
          `SELECT m.id FROM (SELECT c.id, c.created_at FROM comments c WHERE ${where} OFFSET 0) m
            ORDER BY m.created_at DESC, m.id DESC`,
          page,
        ),
      where,
      countFrom: 'comments c',
      prepare: true,
      generic: true,
    });
  }
  if (f.sort !== 'time' || f.offset + f.limit > WALK_NEED) {
    return selectPage<CommentRow>(q, w, f, {
      list: (page) => rows(`SELECT c.id FROM comments c WHERE ${where} ORDER BY ${ORDER[f.sort]}`, page),
      where,
      countFrom: 'comments c',
    });
  }
  // Newest first near the top: the newest reviews tested row by row (a dealer sees most of
  // them; a word in a fifth of them fills page 1 after ~100), or the filter's indexes when
  // they hold too few of the caller's matches (walkFirst) or the caller sees few toilets
  // and terminals (a customer: its toilets' reviews off their index, sorted).
  const byRow = whereOf(w, f, false);
  const range = [
    ...(f.start ? [`c.created_at >= ${fromLocal(w.p(f.start))}`] : []),
    ...(f.end ? [`c.created_at <= ${fromLocal(w.p(f.end))}`] : []),
    'true',
  ].join(' AND ');
  const { ids, countFrom, estimateFrom } = walkFirst({
    // Whole rows, tested as read (the walk's LIMIT keeps the filter above it), from the end
    // of the asked time range on (a range of the index, not rows tested).
    walk: `SELECT c.* FROM comments c WHERE ${range} ORDER BY c.created_at DESC, c.id DESC`,
    hits: (rel) =>
      `SELECT c.id, c.created_at FROM ${rel} c WHERE ${byRow} ORDER BY c.created_at DESC, c.id DESC`,
    indexed: `SELECT c.id, c.created_at FROM comments c WHERE ${where}`,
    order: 'created_at DESC, id DESC',
    scoped: false,
    walkIf: reviewScopeOver(w, f.scope, WALK_SCOPE),
  });
  return selectPage<CommentRow>(q, w, f, {
    list: (page, need) => rows(ids(need), page),
    where: 'true',
    countFrom,
    estimateFrom,
    // One text at every page (`need` a parameter), each way's plan fixed by its shape: kept
    // prepared (a dealer paging the newest reviews, PostgreSQL: 807-883 → 1,261-1,446 req/s).
    prepare: true,
  });
}

export async function countComments(q: Queryable, f: ListFilter) {
  const w = new Params();
  const r = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM comments c WHERE ${whereOf(w, f)}`,
    w.values,
  );
  return r[0]!.n;
}

/**
 * One page of the export, newest first, after the (created_at, id) of the previous page's
 * last row: each page is an index range, however deep the export goes.
 */
export function exportPage(
  q: Queryable,
  f: ListFilter,
  after: { created_at: string; id: number } | null,
  limit: number,
) {
  const w = new Params();
  let where = whereOf(w, f);
  if (after) {
    where += ` AND (c.created_at, c.id) < (${w.p(after.created_at)}::timestamptz, ${w.p(after.id)})`;
  }
  return q.query<CommentRow & { cursor: string }>(
    `SELECT ${ROW}, to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor
       FROM ${FROM} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT ${w.p(limit)}`,
    w.values,
  );
}

/** Columns counting the grouped comments `c` per star level and per complaint flag. */
export const STAR_COUNTS = `${[1, 2, 3, 4, 5].map((s) => `count(*) FILTER (WHERE c.star_level = ${s})::int AS s${s}`).join(', ')},
  count(*) FILTER (WHERE c.badattitude)::int AS badattitude,
  count(*) FILTER (WHERE c.inefficiency)::int AS inefficiency,
  count(*) FILTER (WHERE c.poorsanitary)::int AS poorsanitary,
  count(*) FILTER (WHERE c.smelly)::int AS smelly`;

/** A row of STAR_COUNTS. */
export interface StarCounts {
  s1: number;
  s2: number;
  s3: number;
  s4: number;
  s5: number;
  badattitude: number;
  inefficiency: number;
  poorsanitary: number;
  smelly: number;
}

export async function statsOf(q: Queryable, f: ListFilter): Promise<CommentStats> {
  const w = new Params();
  const r = await first<StarCounts & { n: number; average: number }>(
    q,
    `SELECT count(*)::int AS n, coalesce(round(avg(c.star_level), 2), 0)::float8 AS average,
            ${STAR_COUNTS}
       FROM comments c WHERE ${whereOf(w, f)}`,
    w.values,
  );
  return {
    count: r!.n,
    average: r!.average,
    stars: [r!.s1, r!.s2, r!.s3, r!.s4, r!.s5],
    flags: {
      badattitude: r!.badattitude,
      inefficiency: r!.inefficiency,
      poorsanitary: r!.poorsanitary,
      smelly: r!.smelly,
    },
  };
}

export function findComment(q: Queryable, id: number, scope: string) {
  const w = new Params();
  return first<CommentRow>(
    q,
    `SELECT ${ROW} FROM ${FROM} WHERE c.id = ${w.p(id)} AND ${reviewVisible(w, scope)}`,
    w.values,
  );
}

// ---- the public review page ----

export interface ToiletCardRow {
  id: number;
  public_id: string;
  name: string;
  pname: string;
  cityname: string;
  adname: string;
  address: string;
  star_sum: number;
  star_count: number;
}

/** The columns of a toilet's public face (its review page, its display screen). */
export const CARD = 'id, public_id, name, pname, cityname, adname, address, star_sum, star_count';

export const findLiveToilet = (q: Queryable, publicId: string) =>
  first<ToiletCardRow>(q, `SELECT ${CARD} FROM toilets WHERE public_id = $1 AND NOT is_delete`, [publicId]);

/**
 * Locks the toilet's row for the rest of the transaction: submissions to one toilet take
 * turns, so the limits below count every earlier one and the star totals add up.
 */
export const lockLiveToilet = (q: Queryable, publicId: string) =>
  first<{ id: number }>(q, `SELECT id FROM toilets WHERE public_id = $1 AND NOT is_delete FOR UPDATE`, [
    publicId,
  ]);

/** Reviews of the toilet in the last hour from this visitor and from this IP. */
export async function recentCounts(q: Queryable, toiletId: number, visitorId: string, ipHash: string) {
  const r = await first<{ visitor: number; ip: number }>(
    q,
    `SELECT count(*) FILTER (WHERE visitor_id = $2)::int AS visitor, count(*) FILTER (WHERE ip_hash = $3)::int AS ip
       FROM comments
      WHERE toilet_id = $1 AND created_at > now() - interval '1 hour' AND (visitor_id = $2 OR ip_hash = $3)`,
    [toiletId, visitorId, ipHash],
  );
  return r!;
}

/**
 * The evaluation terminal a toilet's QR reviews count on for formula rules (docs/toilet-operations.md
 * "Review rules"): the toilet's first live one, placed in it or under its gateway; none without.
 */
export async function reviewTerminalOf(q: Queryable, toiletId: number): Promise<number | undefined> {
  const r = await first<{ id: number }>(
    q,
    `SELECT d.id FROM toilets t JOIN devices d ON ${TOILET_DEVICE_JOIN}
      WHERE t.id = $1 AND d.kind = 'evaluate' AND NOT d.is_delete ORDER BY d.id LIMIT 1`,
    [toiletId],
  );
  return r?.id;
}

export async function insertPublicComment(
  q: Queryable,
  v: {
    toilet_id: number;
    star_level: number;
    badattitude: boolean;
    inefficiency: boolean;
    poorsanitary: boolean;
    smelly: boolean;
    content: string;
    sex: number;
    visitor_id: string;
    ip_hash: string;
  },
) {
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO comments (toilet_id, star_level, badattitude, inefficiency, poorsanitary, smelly, content, sex,
                           visitor_id, ip_hash, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'qr') RETURNING id`,
    [
      v.toilet_id,
      v.star_level,
      v.badattitude,
      v.inefficiency,
      v.poorsanitary,
      v.smelly,
      v.content,
      v.sex,
      v.visitor_id,
      v.ip_hash,
    ],
  );
  return r!.id;
}

/** Adds (sign 1) or takes away (sign -1) one rating of `stars` from a toilet's totals. */
export const addToToilet = (q: Queryable, toiletId: number, stars: number, sign: 1 | -1) =>
  first<ToiletCardRow>(
    q,
    `UPDATE toilets SET star_sum = greatest(star_sum + $2, 0), star_count = greatest(star_count + $3, 0)
      WHERE id = $1 RETURNING ${CARD}`,
    [toiletId, sign * stars, sign],
  );

/** The same for a terminal, whose star_level is an average (the ingest keeps it so). */
export const addToTerminal = (q: Queryable, deviceId: number, stars: number, sign: 1 | -1) =>
  q.query(
    `UPDATE devices SET
       star_level = CASE WHEN star_count + $3 <= 0 THEN 0
                         ELSE greatest((star_level * star_count + $2) / (star_count + $3), 0) END,
       star_count = greatest(star_count + $3, 0)
     WHERE id = $1`,
    [deviceId, sign * stars, sign],
  );

/**
 * Sets is_delete when it differs and answers what the review counted towards; undefined
 * when it already had that value (a second click, or another operator was first).
 */
export const setHidden = (q: Queryable, id: number, hidden: boolean) =>
  first<{ toilet_id: number | null; equipment_id: number | null; star_level: number }>(
    q,
    `UPDATE comments SET is_delete = $2 WHERE id = $1 AND is_delete <> $2
     RETURNING toilet_id, equipment_id, star_level`,
    [id, hidden],
  );

/** The installation's key for hashing client IPs (migration 0010). */
export async function reviewSalt(q: Queryable) {
  const r = await first<{ salt: string }>(q, `SELECT salt FROM review_secret WHERE id = 1`);
  return r!.salt;
}
