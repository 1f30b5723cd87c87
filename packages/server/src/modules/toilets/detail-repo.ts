import {
  DOCUMENT_DEFAULTS,
  OFFLINE_MS,
  PLACEABLE_KINDS,
  type LiveDevice,
  type PlaceableRow,
  type RecentComment,
  type StatusLogRow,
  type ToiletDocument,
  type ToiletPart,
} from '@se/core';
import { insertRow, type Patchable } from '../../db/update.ts';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, keywordSql, localTime, selectPage } from '../../db/sql.ts';
import { deviceSeen, toiletSeen } from '../access/visible-repo.ts';

// ---- document ----

const DOC = `id, is_delete, male_count, female_count, others_count, open_time, close_time, content`;

/** The toilet's document, or the SPEC defaults when it has none yet. */
export async function findDocument(q: Queryable, toiletId: number): Promise<ToiletDocument> {
  const row = await first<ToiletDocument>(q, `SELECT ${DOC} FROM toilet_documents WHERE toilet_id = $1`, [
    toiletId,
  ]);
  return (
    row ?? {
      id: null,
      is_delete: false,
      male_count: 0,
      female_count: 0,
      others_count: 0,
      open_time: DOCUMENT_DEFAULTS.open_time,
      close_time: DOCUMENT_DEFAULTS.close_time,
      content: '',
    }
  );
}

const DOC_COLUMNS = [
  'male_count',
  'female_count',
  'others_count',
  'open_time',
  'close_time',
  'content',
] as const;
type DocColumn = (typeof DOC_COLUMNS)[number];

/** Creates the document on first save; later saves change only the fields given. */
export async function upsertDocument(q: Queryable, toiletId: number, v: Partial<Record<DocColumn, unknown>>) {
  const cols = DOC_COLUMNS.filter((c) => v[c] !== undefined);
  const values = cols.map((c) => v[c]);
  const insertCols = ['toilet_id', ...cols];
  const set = cols.length ? cols.map((c) => `${c} = EXCLUDED.${c}`).join(', ') + ',' : '';
  await q.query(
    `INSERT INTO toilet_documents (${insertCols.join(', ')})
     VALUES (${insertCols.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT (toilet_id) DO UPDATE SET ${set} is_delete = false, updated_at = now()`,
    [toiletId, ...values],
  );
}

// ---- parts ----

const PART = `p.id, p.toilet_id, p.type, p.name, p.state, p.note, ${localTime('p.updated_at')} AS updated_at`;

export function listParts(q: Queryable, toiletId: number) {
  return q.query<ToiletPart>(
    `SELECT ${PART} FROM toilet_parts p WHERE p.toilet_id = $1 AND NOT p.is_delete ORDER BY p.type, p.id`,
    [toiletId],
  );
}

export function findPart(q: Queryable, id: number) {
  return first<ToiletPart & { is_delete: boolean }>(
    q,
    `SELECT ${PART}, p.is_delete FROM toilet_parts p WHERE p.id = $1`,
    [id],
  );
}

export function insertPart(
  q: Queryable,
  v: { toilet_id: number; type: number; name: string; state: number; note: string },
) {
  return insertRow(q, 'toilet_parts', {
    toilet_id: v.toilet_id,
    type: v.type,
    name: v.name,
    state: v.state,
    note: v.note,
  });
}

/** Patched by the service (modules/audit/mutate.ts). */
export const PARTS: Patchable<'type' | 'name' | 'state' | 'note' | 'is_delete'> = {
  table: 'toilet_parts',
  columns: ['type', 'name', 'state', 'note', 'is_delete'],
};

// ---- status ----

/**
 * Switches one operator flag in SQL (an alarm raised meanwhile stays) and answers the
 * status before and after; nothing when the toilet is gone.
 */
export function switchFlag(q: Queryable, id: number, flag: number, on: boolean) {
  return first<{ before: number; after: number }>(
    q,
    `UPDATE toilets t SET status = CASE WHEN $3 THEN t.status | $2 ELSE t.status & ~$2::int END, updated_at = now()
       FROM (SELECT id, status AS before FROM toilets WHERE id = $1 FOR UPDATE) old
      WHERE t.id = old.id
      RETURNING old.before, t.status AS after`,
    [id, flag, on],
  );
}

export function insertStatusLog(
  q: Queryable,
  rows: { toilet_id: number; flag: number; on: boolean; note: string; user_id: number }[],
) {
  if (!rows.length) return Promise.resolve([]);
  return q.query(
    `INSERT INTO toilet_status_log (toilet_id, flag, "on", note, user_id)
     SELECT * FROM unnest($1::int[], $2::int[], $3::bool[], $4::text[], $5::int[])`,
    [
      rows.map((r) => r.toilet_id),
      rows.map((r) => r.flag),
      rows.map((r) => r.on),
      rows.map((r) => r.note),
      rows.map((r) => r.user_id),
    ],
  );
}

export async function listStatusLog(q: Queryable, toiletId: number, limit: number, offset: number) {
  const [list, count] = await Promise.all([
    q.query<StatusLogRow>(
      `SELECT l.id, l.toilet_id, l.flag, l."on", l.note, coalesce(u.user_name, '') AS user_name,
              ${localTime('l.created_at')} AS created_at
         FROM toilet_status_log l LEFT JOIN users u ON u.id = l.user_id
        WHERE l.toilet_id = $1 ORDER BY l.id DESC LIMIT $2 OFFSET $3`,
      [toiletId, limit, offset],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM toilet_status_log WHERE toilet_id = $1`, [
      toiletId,
    ]),
  ]);
  return { list, total: count[0]!.n };
}

// ---- devices ----

const offlineMs = (alias: string) =>
  `(CASE ${alias}.kind WHEN 'sensor' THEN ${OFFLINE_MS.sensor}
     WHEN 'electric_meter' THEN ${OFFLINE_MS.meter} WHEN 'water_meter' THEN ${OFFLINE_MS.meter}
     ELSE ${OFFLINE_MS.default} END)`;

const LIVE = `d.id, d.kind, d.ser_num, d."desc", d.location,
  (extract(epoch FROM d.time) * 1000)::float8 AS time,
  coalesce(d.time >= now() - ${offlineMs('d')} * interval '1 millisecond', false) AS online,
  d.warning, d.star_count, d.star_level, d.latest`;

/**
 * The gateway of a toilet, its sensors and the devices placed in it, in one query. They are
 * shown to whoever sees the toilet: the toilet's visibility covers what is in it.
 */
export async function toiletDevices(q: Queryable, toiletId: number, gatewayId: number | null) {
  const rows = await q.query<LiveDevice & { role: 'gateway' | 'sensor' | 'placed' }>(
    `SELECT ${LIVE},
            CASE WHEN d.id = $2 THEN 'gateway' WHEN d.kind = 'sensor' THEN 'sensor' ELSE 'placed' END AS role
       FROM devices d
      WHERE NOT d.is_delete
        AND (d.id = $2 OR (d.kind = 'sensor' AND d.gateway_id = $2) OR (d.toilet_id = $1 AND d.kind <> 'sensor'))
      ORDER BY d.kind, d.id`,
    [toiletId, gatewayId],
  );
  const strip = ({ role: _role, ...d }: LiveDevice & { role: string }) => d;
  return {
    gateway: rows.find((r) => r.role === 'gateway') ? strip(rows.find((r) => r.role === 'gateway')!) : null,
    sensors: rows.filter((r) => r.role === 'sensor').map(strip),
    devices: rows.filter((r) => r.role === 'placed').map(strip),
  };
}

export function recentComments(q: Queryable, toiletId: number, limit: number) {
  return q.query<RecentComment>(
    `SELECT c.id, c.content, c.star_level, c.badattitude, c.inefficiency, c.poorsanitary, c.smelly, c.source,
            c.equipment_id, coalesce(e.ser_num, '') AS equipment_ser_num, ${localTime('c.created_at')} AS created_at
       FROM comments c LEFT JOIN devices e ON e.id = c.equipment_id
      WHERE c.toilet_id = $1 AND NOT c.is_delete
      ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
    [toiletId, limit],
  );
}

/** Devices of a placeable kind among `ids` that the scope sees (not deleted). */
export async function visiblePlaceable(q: Queryable, ids: number[], scope: string) {
  if (!ids.length) return new Map<number, { id: number; kind: string; toilet_id: number | null }>();
  const w = new Params();
  const rows = await q.query<{ id: number; kind: string; toilet_id: number | null }>(
    `SELECT d.id, d.kind, d.toilet_id FROM devices d
      WHERE d.id = ANY(${w.p(ids)}::int[]) AND d.kind = ANY(${w.p([...PLACEABLE_KINDS])}::text[])
        AND NOT d.is_delete AND ${deviceSeen(w, scope, 'd.id', { live: true })}`,
    w.values,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export function placeDevices(q: Queryable, toiletId: number, ids: number[]) {
  if (!ids.length) return Promise.resolve([]);
  return q.query(`UPDATE devices SET toilet_id = $1, updated_at = now() WHERE id = ANY($2::int[])`, [
    toiletId,
    ids,
  ]);
}

export function unplaceDevices(q: Queryable, toiletId: number, ids: number[]) {
  if (!ids.length) return Promise.resolve([]);
  return q.query(
    `UPDATE devices SET toilet_id = NULL, updated_at = now() WHERE toilet_id = $1 AND id = ANY($2::int[])`,
    [toiletId, ids],
  );
}

/** A deleted toilet holds nothing: its devices go back to unplaced. */
export function unplaceAll(q: Queryable, toiletId: number) {
  return q.query(`UPDATE devices SET toilet_id = NULL, updated_at = now() WHERE toilet_id = $1`, [toiletId]);
}

/** The caller's devices of one kind for the placement dialog, each saying where it is. */
export async function listPlaceable(
  q: Queryable,
  f: { scope: string; toiletId: number; kind: string; keywords?: string; limit: number; offset: number },
) {
  const w = new Params();
  const seen = deviceSeen(w, f.scope, 'd.id', { kind: f.kind, live: true });
  const cond = [`NOT d.is_delete`, `d.kind = ${w.p(f.kind)}`, seen];
  if (f.keywords) cond.push(keywordSql(w, 'devices', f.keywords));
  const where = cond.join(' AND ');
  const countValues = [...w.values];
  const here = w.p(f.toiletId);
  const seenToilet = toiletSeen(w, f.scope, 't.id');
  return selectPage<PlaceableRow>(q, w, f, {
    // Where a device is placed is named only when the caller sees that toilet too.
    list: (page) =>
      `SELECT d.id, d.ser_num, d."desc", d.location, coalesce(d.toilet_id = ${here}, false) AS placed,
              coalesce(d.toilet_id <> ${here}, false) AS elsewhere, vt.id AS toilet_id, coalesce(vt.name, '') AS toilet_name
         FROM devices d
         LEFT JOIN LATERAL (SELECT t.id, t.name FROM toilets t
                             WHERE t.id = d.toilet_id AND NOT t.is_delete AND ${seenToilet}) vt ON true
        WHERE ${where}
        ORDER BY (d.toilet_id = ${here}) IS TRUE DESC, d.id DESC ${page}`,
    where,
    countFrom: 'devices d',
    countValues,
  });
}
