/** All SQL of the media content libraries (migrations 0034, 0035). */
import type { MediaItemRow, MediaKind, MediaTextBody } from '@se/core';

/** A row as stored; the service adds the signed links. */
export type ItemRow = Omit<MediaItemRow, 'file_url' | 'thumb_url'>;
import type { Queryable } from '../../db/index.ts';
import { Params, keywordSql, localTime, selectPage } from '../../db/sql.ts';
import type { Patchable } from '../../db/update.ts';
import { accountSeen } from '../access/visible-repo.ts';

/** A media_items row as the service handles it (keys kept server-side). */
export interface MediaItem {
  id: number;
  user_id: number;
  user_path: string;
  kind: MediaKind;
  name: string;
  status: number;
  reject_reason: string;
  reviewed_by: number | null;
  reviewed_at: string | null;
  storage_key: string | null;
  url: string | null;
  mime: string;
  size: number;
  thumb_key: string | null;
  poster_key: string | null;
  text_body: MediaTextBody | null;
  is_delete: boolean;
}

export const MEDIA_ITEMS: Patchable<
  'name' | 'text_body' | 'status' | 'reject_reason' | 'reviewed_by' | 'reviewed_at' | 'is_delete'
> = {
  table: 'media_items',
  columns: ['name', 'text_body', 'status', 'reject_reason', 'reviewed_by', 'reviewed_at', 'is_delete'],
  expr: { text_body: (p) => `${p}::jsonb`, reviewed_at: (p) => `${p}::timestamptz` },
};

const FROM = `media_items mi JOIN users u ON u.id = mi.user_id LEFT JOIN users r ON r.id = mi.reviewed_by`;

const ROW = `mi.id::int AS id, mi.user_id, u.user_name, mi.kind, mi.name, mi.status::int AS status,
  mi.reject_reason, mi.reviewed_by, r.user_name AS reviewer_name,
  ${localTime('mi.reviewed_at')} AS reviewed_at, mi.url, mi.storage_key IS NOT NULL AS stored,
  (mi.thumb_key IS NOT NULL OR mi.poster_key IS NOT NULL) AS has_thumb, mi.mime, mi.size::float8 AS size,
  mi.width, mi.height, mi.duration_ms, mi.codec, mi.sha256, mi.text_body,
  ${localTime('mi.created_at')} AS created_at, ${localTime('mi.updated_at')} AS updated_at`;

export interface MediaFilter {
  scope: string;
  kind?: MediaKind;
  status?: number;
  userId?: number;
  /** Leave out this account's items (a reviewer's queue: not their own). */
  notUserId?: number;
  keywords?: string;
  limit: number;
  offset: number;
}

export async function listItems(q: Queryable, f: MediaFilter) {
  const w = new Params();
  const cond = ['NOT mi.is_delete', accountSeen(w, f.scope, 'u')];
  if (f.kind) cond.push(`mi.kind = ${w.p(f.kind)}`);
  if (f.status !== undefined) cond.push(`mi.status = ${w.p(f.status)}`);
  if (f.userId !== undefined) cond.push(`mi.user_id = ${w.p(f.userId)}`);
  if (f.notUserId !== undefined) cond.push(`mi.user_id <> ${w.p(f.notUserId)}`);
  if (f.keywords) cond.push(keywordSql(w, 'media', f.keywords));
  const where = cond.join(' AND ');
  return selectPage<ItemRow>(q, w, f, {
    list: (page) => `SELECT ${ROW} FROM ${FROM} WHERE ${where} ORDER BY mi.id DESC ${page}`,
    where,
    countFrom: 'media_items mi JOIN users u ON u.id = mi.user_id',
  });
}

export async function itemRow(q: Queryable, id: number): Promise<ItemRow | undefined> {
  const [row] = await q.query<ItemRow>(`SELECT ${ROW} FROM ${FROM} WHERE mi.id = $1`, [id]);
  return row;
}

export async function findItem(q: Queryable, id: number): Promise<MediaItem | undefined> {
  const [row] = await q.query<MediaItem>(
    `SELECT mi.id::int AS id, mi.user_id, u.path AS user_path, mi.kind, mi.name, mi.status::int AS status,
       mi.reject_reason, mi.reviewed_by, mi.reviewed_at::text AS reviewed_at, mi.storage_key, mi.url, mi.mime,
       mi.size::float8 AS size, mi.thumb_key, mi.poster_key, mi.text_body, mi.is_delete
     FROM media_items mi JOIN users u ON u.id = mi.user_id WHERE mi.id = $1`,
    [id],
  );
  return row;
}

export interface NewItem {
  user_id: number;
  kind: MediaKind;
  name: string;
  storage_key?: string | null;
  url?: string | null;
  mime?: string;
  size?: number;
  width?: number | null;
  height?: number | null;
  duration_ms?: number | null;
  codec?: string;
  thumb_key?: string | null;
  poster_key?: string | null;
  sha256?: string;
  text_body?: MediaTextBody | null;
  status?: number;
}

export async function insertItem(q: Queryable, v: NewItem): Promise<number> {
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO media_items (user_id, kind, name, storage_key, url, mime, size, width, height, duration_ms,
       codec, thumb_key, poster_key, sha256, text_body, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16) RETURNING id::int AS id`,
    [
      v.user_id,
      v.kind,
      v.name,
      v.storage_key ?? null,
      v.url ?? null,
      v.mime ?? '',
      v.size ?? 0,
      v.width ?? null,
      v.height ?? null,
      v.duration_ms ?? null,
      v.codec ?? '',
      v.thumb_key ?? null,
      v.poster_key ?? null,
      v.sha256 ?? '',
      v.text_body ? JSON.stringify(v.text_body) : null,
      v.status ?? 0,
    ],
  );
  return row!.id;
}

/** Bytes and items an account's live stored media take, plus its quota (null: the default). */
export async function usageOf(q: Queryable, userId: number) {
  const [row] = await q.query<{ used: number; items: number; quota: number | null }>(
    `SELECT coalesce((SELECT sum(size) FROM media_items WHERE user_id = $1 AND NOT is_delete AND storage_key IS NOT NULL), 0)::float8 AS used,
       (SELECT count(*)::int FROM media_items WHERE user_id = $1 AND NOT is_delete) AS items,
       (SELECT quota_bytes::float8 FROM media_quotas WHERE user_id = $1) AS quota`,
    [userId],
  );
  return row!;
}

/** Bytes of unfinished uploads an account has reserved (counted against its quota). */
export async function reservedOf(q: Queryable, userId: number, exceptId?: string) {
  const [row] = await q.query<{ n: number }>(
    `SELECT coalesce(sum(size), 0)::float8 AS n FROM media_uploads WHERE user_id = $1 AND id <> $2`,
    [userId, exceptId ?? ''],
  );
  return row!.n;
}

export async function setQuota(q: Queryable, userId: number, bytes: number) {
  await q.query(
    `INSERT INTO media_quotas (user_id, quota_bytes) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET quota_bytes = excluded.quota_bytes`,
    [userId, bytes],
  );
}

/**
 * Names of the live playlists that use an item. Playlists are issue 17's other half
 * (`media_playlists` / `media_playlist_items`); until those tables exist nothing uses an item.
 */
export async function playlistsUsing(q: Queryable, itemId: number): Promise<string[]> {
  const [t] = await q.query<{ ok: boolean }>(
    `SELECT to_regclass('media_playlist_items') IS NOT NULL AND to_regclass('media_playlists') IS NOT NULL AS ok`,
  );
  if (!t?.ok) return [];
  const rows = await q.query<{ name: string }>(
    `SELECT DISTINCT p.name FROM media_playlist_items pi JOIN media_playlists p ON p.id = pi.playlist_id
     WHERE pi.item_id = $1 AND NOT p.is_delete ORDER BY p.name`,
    [itemId],
  );
  return rows.map((r) => r.name);
}

// ---- uploads ----

export interface UploadRow {
  id: string;
  user_id: number;
  created_by: number;
  kind: 'picture' | 'video';
  name: string;
  size: number;
  fingerprint: string;
}

const UPLOAD = `id, user_id, created_by, kind, name, size::float8 AS size, fingerprint`;

export async function findUpload(q: Queryable, id: string): Promise<UploadRow | undefined> {
  const [row] = await q.query<UploadRow>(`SELECT ${UPLOAD} FROM media_uploads WHERE id = $1`, [id]);
  return row;
}

export async function findUploadByFingerprint(
  q: Queryable,
  createdBy: number,
  userId: number,
  fingerprint: string,
) {
  const [row] = await q.query<UploadRow>(
    `SELECT ${UPLOAD} FROM media_uploads WHERE created_by = $1 AND user_id = $2 AND fingerprint = $3`,
    [createdBy, userId, fingerprint],
  );
  return row;
}

export async function insertUpload(q: Queryable, u: UploadRow) {
  await q.query(
    `INSERT INTO media_uploads (id, user_id, created_by, kind, name, size, fingerprint) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [u.id, u.user_id, u.created_by, u.kind, u.name, u.size, u.fingerprint],
  );
}

export async function deleteUpload(q: Queryable, id: string) {
  await q.query(`DELETE FROM media_uploads WHERE id = $1`, [id]);
}

/** Uploads nobody touched for `hours` (their part files are removed with them). */
export async function staleUploads(q: Queryable, hours: number) {
  return q.query<{ id: string }>(
    `SELECT id FROM media_uploads WHERE created_at < now() - make_interval(hours => $1)`,
    [hours],
  );
}
