import type { ToiletRow } from '@se/core';
import type { Patchable } from '../../db/update.ts';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import type { JsonRows } from '../../db/json-rows.ts';
import {
  Params,
  bindingPage,
  keywordSql,
  localTime,
  selectPage,
  type BindingFilter,
  type Page,
} from '../../db/sql.ts';
import { toiletAccessRows, toiletSeen } from '../access/visible-repo.ts';

const ROW = `t.id, t.public_id, t.status, t.is_delete, t.name, t.lat, t.lng, t.pname, t.cityname, t.adname, t.business_area,
  t.address, t.star_sum, t.star_count, t.img_url, t.gateway_id, coalesce(g.ser_num, '') AS gateway_ser_num,
  coalesce((SELECT string_agg(u.user_name, ',' ORDER BY u.id) FROM toilet_bindings b JOIN users u ON u.id = b.user_id
             WHERE b.toilet_id = t.id), '') AS owners,
  ${localTime('t.created_at')} AS created_at`;
const GATEWAY = 'LEFT JOIN devices g ON g.id = t.gateway_id';
const FROM = `toilets t ${GATEWAY}`;

export interface ToiletFilter {
  scope: string;
  keywords?: string;
  status?: number;
  ownerScope?: string;
  limit: number;
  offset: number;
  exact?: boolean;
}

/**
 * The page's ids first, then the full rows (with their owner lists) of those ids only: a
 * dealer's page 25 formatted the owners of the 480 rows it skipped. The caller's toilets
 * come off the closure's index when nothing else filters; a filter (a keyword through its
 * token index) is one plain query the planner orders: toilets are a fiftieth of the devices,
 * so a scope's matches are few enough to sort, and a walk (walkFirst) cost more to plan than
 * it saved (~2 ms a request for a customer's ten toilets).
 */
export function listToilets(
  q: Queryable,
  f: ToiletFilter & { json: true },
): Promise<Page<JsonRows<ToiletRow>>>;
export function listToilets(q: Queryable, f: ToiletFilter & { json?: false }): Promise<Page<ToiletRow[]>>;
export async function listToilets(
  q: Queryable,
  f: ToiletFilter & { json?: boolean },
): Promise<Page<ToiletRow[] | JsonRows<ToiletRow>>> {
  const w = new Params();
  const filters: string[] = [];
  if (f.keywords) {
    filters.push(keywordSql(w, 'toilets', f.keywords, ['t.name', 't.address', 't.cityname', 't.adname']));
  }
  if (f.status) filters.push(`(t.status & ${w.p(f.status)}) = ${w.p(f.status)}`);
  if (f.ownerScope) filters.push(toiletSeen(w, f.ownerScope, 't.id', { live: true }));
  // Nothing to filter but the scope: the page's ids come off the closure's index alone.
  const access = filters.length === 0 ? toiletAccessRows(w, f.scope) : null;
  const where = access
    ? access.where
    : [`NOT t.is_delete`, toiletSeen(w, f.scope, 't.id', { live: true }), ...filters].join(' AND ');
  const ids = access
    ? `SELECT ${access.id} AS id FROM ${access.from} WHERE ${where} ORDER BY ${access.id} DESC`
    : `SELECT t.id FROM toilets t WHERE ${where} ORDER BY t.id DESC`;
  // The page's ids first, then its rows (the owner lists, the gateway) for those ids only:
  // rows skipped by the offset cost an index entry each, not their formatting.
  return selectPage<ToiletRow>(q, w, f, {
    list: (page) =>
      `WITH page AS (${ids} ${page})
       SELECT ${ROW} FROM page JOIN toilets t ON t.id = page.id ${GATEWAY} ORDER BY t.id DESC`,
    where,
    countFrom: access ? access.from : 'toilets t',
    json: f.json,
    // A tenant's toilets are thousands, not millions: any plan of these shapes serves every
    // value, so one is kept per connection.
    prepare: true,
    generic: true,
  });
}

export function findToilet(q: Queryable, id: number, scope: string) {
  const w = new Params();
  return first<ToiletRow>(
    q,
    `SELECT ${ROW} FROM ${FROM} WHERE t.id = ${w.p(id)} AND ${toiletSeen(w, scope)}`,
    w.values,
    { prepare: true, generic: true },
  );
}

export async function visibleToiletIds(q: Queryable, ids: number[], scope: string) {
  if (ids.length === 0) return new Set<number>();
  const w = new Params();
  const rows = await q.query<{ id: number }>(
    `SELECT t.id FROM toilets t WHERE t.id = ANY(${w.p(ids)}::int[]) AND NOT t.is_delete AND ${toiletSeen(w, scope, 't.id', { live: true })}`,
    w.values,
  );
  return new Set(rows.map((r) => r.id));
}

const COLUMNS = [
  'name',
  'lat',
  'lng',
  'pname',
  'cityname',
  'adname',
  'business_area',
  'address',
  'img_url',
  'gateway_id',
  'status',
  'is_delete',
] as const;
type Column = (typeof COLUMNS)[number];

export async function insertToilet(q: Queryable, v: Partial<Record<Column, unknown>>) {
  const cols = COLUMNS.filter((c) => v[c] !== undefined);
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO toilets (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    cols.map((c) => v[c]),
  );
  return r!.id;
}

/** Operators set cleaning (1) and repair (2); the alarm bit (4) follows the alarms only. */
const OPERATOR_FLAGS = 3;

/** Patched by the service (modules/audit/mutate.ts). */
export const TOILETS: Patchable<Column> = {
  table: 'toilets',
  columns: COLUMNS,
  // Computed in SQL so an alarm raised meanwhile is never cleared by a console save.
  expr: { status: (p) => `(${p} & ${OPERATOR_FLAGS}) | (status & ~${OPERATOR_FLAGS})` },
};

/** Binds toilets to a user; the first account a toilet is bound to is its registrant (as for devices). */
export async function bindToilets(q: Queryable, userId: number, ids: number[]) {
  if (ids.length === 0) return;
  await q.query(
    `INSERT INTO toilet_bindings (toilet_id, user_id) SELECT unnest($1::int[]), $2 ON CONFLICT DO NOTHING`,
    [ids, userId],
  );
  await q.query(`UPDATE toilets SET registered_by = $2 WHERE id = ANY($1::int[]) AND registered_by IS NULL`, [
    ids,
    userId,
  ]);
}

export function unbindToilets(q: Queryable, userId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return q.query(`DELETE FROM toilet_bindings WHERE user_id = $2 AND toilet_id = ANY($1::int[])`, [
    ids,
    userId,
  ]);
}

export function listForBinding(q: Queryable, f: BindingFilter) {
  const w = new Params();
  const cond = [`NOT t.is_delete`, toiletSeen(w, f.scope, 't.id', { live: true })];
  if (f.keywords) cond.push(keywordSql(w, 'toilets', f.keywords, ['t.name', 't.address']));
  return bindingPage(q, w, f, {
    cond,
    bound: (p) => `EXISTS (SELECT 1 FROM toilet_bindings tb WHERE tb.toilet_id = t.id AND tb.user_id = ${p})`,
    columns: `t.id, '' AS ser_num, t.name AS "desc", t.address AS location`,
    from: 'toilets t',
    order: 't.id DESC',
  });
}
