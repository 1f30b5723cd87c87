import type { MediaPlayerRow, PlayReportRow, PlaylistRow, ScheduleRow, ScheduleRule } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { insertRow, type Patchable } from '../../db/update.ts';
import { Params, keywordSql, likeSql, localTime, onlineSql, selectPage } from '../../db/sql.ts';
import { deviceSeen } from '../access/visible-repo.ts';

// ---- screens ----

/** A screen: a stand-alone player, or a gateway of a screen type (43, 40). */
const IS_SCREEN = (w: Params, types: readonly number[]) =>
  `(d.kind = 'player' OR (d.kind = 'gateway' AND d.type = ANY(${w.p(types)}::int[])))`;

/** The toilet a screen shows: the one it is placed in, or the one its gateway serves. */
const TOILET_OF = `coalesce(d.toilet_id,
  (SELECT t.id FROM toilets t WHERE t.gateway_id = d.id AND NOT t.is_delete ORDER BY t.id LIMIT 1))`;

const screenRow = (w: Params, offlineMs: number) => `d.id, d.kind, d.type, d.ser_num, d."desc", d.location,
  (extract(epoch FROM d.time) * 1000)::float8 AS time,
  coalesce(d.time >= now() - ${w.p(offlineMs)} * interval '1 millisecond', false) AS online,
  d.owners,
  tl.id AS toilet_id, coalesce(tl.name, '') AS toilet_name, d.latest,
  md.manifest_id::float8 AS manifest_id, md.state AS delivery_state, coalesce(md.progress, 0)::float8 AS delivery_progress,
  coalesce(md.error, '') AS delivery_error, ${localTime('md.updated_at')} AS delivery_at,
  md.now_item_id::float8 AS now_item_id, coalesce(mi.name, '') AS now_item_name`;

const SCREEN_FROM = `devices d
  LEFT JOIN toilets tl ON tl.id = ${TOILET_OF}
  LEFT JOIN media_deliveries md ON md.device_id = d.id
  LEFT JOIN media_items mi ON mi.id = md.now_item_id`;

export interface ScreenFilter {
  scope: string;
  offlineMs: number;
  types: readonly number[];
  keywords?: string;
  /** 'player' or a gateway type. */
  type?: 'player' | number;
  online?: boolean;
  limit: number;
  offset: number;
}

export function listScreens(q: Queryable, f: ScreenFilter) {
  const w = new Params();
  const cond = ['NOT d.is_delete', IS_SCREEN(w, f.types), deviceSeen(w, f.scope, 'd.id', { live: true })];
  if (f.type === 'player') cond.push(`d.kind = 'player'`);
  else if (f.type !== undefined) cond.push(`d.kind = 'gateway' AND d.type = ${w.p(f.type)}`);
  if (f.keywords) cond.push(keywordSql(w, 'devices', f.keywords));
  if (f.online !== undefined) cond.push(onlineSql(w, f.offlineMs, f.online));
  const where = cond.join(' AND ');
  const countValues = [...w.values];
  const select = screenRow(w, f.offlineMs);
  return selectPage<MediaPlayerRow>(q, w, f, {
    list: (page) =>
      `WITH page AS (SELECT d.id FROM devices d WHERE ${where} ORDER BY d.id DESC ${page})
       SELECT ${select} FROM page JOIN ${SCREEN_FROM} ON d.id = page.id ORDER BY d.id DESC`,
    where,
    countFrom: 'devices d',
    countValues,
  });
}

export function findScreen(
  q: Queryable,
  id: number,
  scope: string,
  offlineMs: number,
  types: readonly number[],
) {
  const w = new Params();
  const idP = w.p(id);
  const cond = ['NOT d.is_delete', IS_SCREEN(w, types), deviceSeen(w, scope, 'd.id')];
  return first<MediaPlayerRow>(
    q,
    `SELECT ${screenRow(w, offlineMs)} FROM ${SCREEN_FROM} WHERE d.id = ${idP} AND ${cond.join(' AND ')}`,
    w.values,
  );
}

/** Of `ids`, the live screens (players and screen gateways) with their serial numbers. */
export function screensByIds(q: Queryable, ids: number[], types: readonly number[]) {
  const w = new Params();
  return q.query<{ id: number; ser_num: string }>(
    `SELECT d.id, d.ser_num FROM devices d WHERE d.id = ANY(${w.p(ids)}::int[]) AND NOT d.is_delete AND ${IS_SCREEN(w, types)}`,
    w.values,
  );
}

// ---- playlists ----

export interface PlaylistRecord extends PlaylistRow {
  raw_items: { media_id: number; duration_s: number }[];
}

const PLAYLIST_ROW = `p.id, p.user_id, coalesce(u.user_name, '') AS user_name, p.name, p.layout, p.transition, p.ticker,
  p.items AS raw_items,
  coalesce((SELECT jsonb_agg(jsonb_build_object('media_id', (e->>'media_id')::bigint,
            'name', coalesce(mi.name, '(已删除)'), 'kind', coalesce(mi.kind, ''),
            'status', CASE WHEN mi.id IS NULL OR mi.is_delete THEN -1 ELSE mi.status END,
            'duration_s', CASE WHEN mi.kind = 'video' AND mi.duration_ms IS NOT NULL
                               THEN ceil(mi.duration_ms / 1000.0) ELSE (e->>'duration_s')::int END) ORDER BY o)
            FROM jsonb_array_elements(p.items) WITH ORDINALITY AS x(e, o)
            LEFT JOIN media_items mi ON mi.id = (e->>'media_id')::bigint), '[]'::jsonb) AS items,
  p.is_delete, ${localTime('p.updated_at')} AS updated_at`;
const PLAYLIST_FROM = `media_playlists p LEFT JOIN users u ON u.id = p.user_id`;

const withTotal = <T extends { items: { duration_s: number }[] }>(r: T) => ({
  ...r,
  total_s: r.items.reduce((s, i) => s + Number(i.duration_s), 0),
});

export async function findPlaylist(q: Queryable, id: number) {
  const r = await first<PlaylistRecord>(q, `SELECT ${PLAYLIST_ROW} FROM ${PLAYLIST_FROM} WHERE p.id = $1`, [
    id,
  ]);
  return r && withTotal(r);
}

export async function listPlaylists(
  q: Queryable,
  f: { userId: number; keywords?: string; limit: number; offset: number },
) {
  const w = new Params();
  const cond = ['NOT p.is_delete', `p.user_id = ${w.p(f.userId)}`];
  if (f.keywords) cond.push(likeSql(w, ['p.name'], f.keywords));
  const where = cond.join(' AND ');
  const r = await selectPage<PlaylistRecord>(q, w, f, {
    list: (page) => `SELECT ${PLAYLIST_ROW} FROM ${PLAYLIST_FROM} WHERE ${where} ORDER BY p.id DESC ${page}`,
    where,
    countFrom: 'media_playlists p',
  });
  return { ...r, list: r.list.map(withTotal) };
}

/** The stored row as an edit diffs it (`items` as the jsonb's text, itemsText's form). */
export function findPlaylistRecord(q: Queryable, id: number) {
  return first<{
    id: number;
    user_id: number;
    is_delete: boolean;
    name: string;
    layout: string;
    transition: string;
    ticker: string;
    items: string;
  }>(
    q,
    `SELECT id, user_id, is_delete, name, layout, transition, ticker, items::text AS items FROM media_playlists WHERE id = $1`,
    [id],
  );
}

/** Items as PostgreSQL prints the jsonb (keys by length), so an unchanged list diffs equal. */
export const itemsText = (items: { media_id: number; duration_s: number }[]) =>
  `[${items.map((i) => `{"media_id": ${i.media_id}, "duration_s": ${i.duration_s}}`).join(', ')}]`;

export function insertPlaylist(
  q: Queryable,
  v: { user_id: number; name: string; layout: string; transition: string; ticker: string; items: string },
) {
  return insertRow(q, 'media_playlists', v);
}

export const PLAYLISTS: Patchable<'name' | 'layout' | 'transition' | 'ticker' | 'items' | 'is_delete'> = {
  table: 'media_playlists',
  columns: ['name', 'layout', 'transition', 'ticker', 'items', 'is_delete'],
  expr: { items: (p) => `${p}::jsonb` },
};

/** Media items by id with what a playlist needs to check them. */
export function mediaItems(q: Queryable, ids: number[]) {
  return q.query<{
    id: number;
    user_id: number;
    kind: string;
    name: string;
    status: number;
    is_delete: boolean;
  }>(
    `SELECT id::float8 AS id, user_id, kind, name, status, is_delete FROM media_items WHERE id = ANY($1::bigint[])`,
    [ids],
  );
}

// ---- schedules ----

const SCHEDULE_ROW = `s.id, s.user_id, coalesce(u.user_name, '') AS user_name, s.name, s.playlist_id,
  coalesce(p.name, '') AS playlist_name, s.priority, to_char(s.date_from, 'YYYY-MM-DD') AS date_from,
  to_char(s.date_to, 'YYYY-MM-DD') AS date_to, s.weekdays, s.time_from, s.time_to, s.emergency, s.player_ids,
  coalesce((SELECT string_agg(d.ser_num, ',' ORDER BY d.id) FROM devices d WHERE d.id = ANY(s.player_ids)), '') AS players,
  s.group_ids,
  coalesce((SELECT string_agg(g.name, ',' ORDER BY g.id) FROM media_player_groups g
             WHERE g.id = ANY(s.group_ids) AND NOT g.is_delete), '') AS groups,
  s.is_delete, ${localTime('s.updated_at')} AS updated_at`;
const SCHEDULE_FROM = `media_schedules s LEFT JOIN users u ON u.id = s.user_id LEFT JOIN media_playlists p ON p.id = s.playlist_id`;

export function findSchedule(q: Queryable, id: number) {
  return first<ScheduleRow>(q, `SELECT ${SCHEDULE_ROW} FROM ${SCHEDULE_FROM} WHERE s.id = $1`, [id]);
}

export function listSchedules(
  q: Queryable,
  f: { userId: number; keywords?: string; emergency?: boolean; limit: number; offset: number },
) {
  const w = new Params();
  const cond = ['NOT s.is_delete', `s.user_id = ${w.p(f.userId)}`];
  if (f.keywords) cond.push(likeSql(w, ['s.name'], f.keywords));
  if (f.emergency !== undefined) cond.push(`s.emergency = ${w.p(f.emergency)}`);
  const where = cond.join(' AND ');
  return selectPage<ScheduleRow>(q, w, f, {
    list: (page) =>
      `SELECT ${SCHEDULE_ROW} FROM ${SCHEDULE_FROM} WHERE ${where} ORDER BY s.emergency DESC, s.id DESC ${page}`,
    where,
    countFrom: 'media_schedules s',
  });
}

export function insertSchedule(q: Queryable, v: Record<string, unknown>) {
  return insertRow(q, 'media_schedules', v);
}

export const SCHEDULES: Patchable<
  | 'name'
  | 'playlist_id'
  | 'priority'
  | 'date_from'
  | 'date_to'
  | 'weekdays'
  | 'time_from'
  | 'time_to'
  | 'emergency'
  | 'player_ids'
  | 'group_ids'
  | 'is_delete'
> = {
  table: 'media_schedules',
  columns: [
    'name',
    'playlist_id',
    'priority',
    'date_from',
    'date_to',
    'weekdays',
    'time_from',
    'time_to',
    'emergency',
    'player_ids',
    'group_ids',
    'is_delete',
  ],
  expr: {
    date_from: (p) => `${p}::date`,
    date_to: (p) => `${p}::date`,
    player_ids: (p) => `${p}::int[]`,
    group_ids: (p) => `${p}::int[]`,
  },
};

/** The live schedules of a user's (the publish-everything button). */
export async function playersOfUser(q: Queryable, userId: number) {
  const rows = await q.query<{ id: number }>(
    `SELECT DISTINCT ss.device_id AS id FROM media_schedules s JOIN media_schedule_screens ss ON ss.schedule_id = s.id
      WHERE s.user_id = $1 AND NOT s.is_delete`,
    [userId],
  );
  return rows.map((r) => r.id);
}

/** The live schedules of a playlist: whose screens a playlist edit republishes. */
export async function playersOfPlaylist(q: Queryable, playlistId: number) {
  const rows = await q.query<{ id: number }>(
    `SELECT DISTINCT ss.device_id AS id FROM media_schedules s JOIN media_schedule_screens ss ON ss.schedule_id = s.id
      WHERE s.playlist_id = $1 AND NOT s.is_delete`,
    [playlistId],
  );
  return rows.map((r) => r.id);
}

// ---- player groups ----

export interface GroupRecord {
  id: number;
  user_id: number;
  name: string;
  player_ids: number[];
  players: string;
  is_delete: boolean;
  updated_at: string;
}

const GROUP_ROW = `g.id, g.user_id, g.name, g.player_ids, g.is_delete, ${localTime('g.updated_at')} AS updated_at,
  coalesce((SELECT string_agg(d.ser_num, ',' ORDER BY d.id) FROM devices d WHERE d.id = ANY(g.player_ids)), '') AS players`;

export function findGroup(q: Queryable, id: number) {
  return first<GroupRecord>(q, `SELECT ${GROUP_ROW} FROM media_player_groups g WHERE g.id = $1`, [id]);
}

export function listGroups(
  q: Queryable,
  f: { userId: number; keywords?: string; limit: number; offset: number },
) {
  const w = new Params();
  const cond = ['NOT g.is_delete', `g.user_id = ${w.p(f.userId)}`];
  if (f.keywords) cond.push(likeSql(w, ['g.name'], f.keywords));
  const where = cond.join(' AND ');
  return selectPage<GroupRecord>(q, w, f, {
    list: (page) =>
      `SELECT ${GROUP_ROW} FROM media_player_groups g WHERE ${where} ORDER BY g.id DESC ${page}`,
    where,
    countFrom: 'media_player_groups g',
  });
}

export function insertGroup(q: Queryable, v: { user_id: number; name: string; player_ids: number[] }) {
  return insertRow(q, 'media_player_groups', v);
}

export const GROUPS: Patchable<'name' | 'player_ids' | 'is_delete'> = {
  table: 'media_player_groups',
  columns: ['name', 'player_ids', 'is_delete'],
  expr: { player_ids: (p) => `${p}::int[]` },
};

/** Of `ids`, the live groups owned by `userId`. */
export async function groupsOf(q: Queryable, userId: number, ids: number[]) {
  const rows = await q.query<{ id: number }>(
    `SELECT id FROM media_player_groups WHERE id = ANY($1::int[]) AND user_id = $2 AND NOT is_delete`,
    [ids, userId],
  );
  return new Set(rows.map((r) => r.id));
}

/** The screens a live schedule reaches now (none once withdrawn). */
export async function screensOfSchedule(q: Queryable, id: number) {
  const rows = await q.query<{ id: number }>(
    `SELECT device_id AS id FROM media_schedule_screens WHERE schedule_id = $1`,
    [id],
  );
  return rows.map((r) => r.id);
}

/** Whether a live schedule targets the group (deleting it is refused then). */
export async function groupInUse(q: Queryable, id: number) {
  const r = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM media_schedules WHERE $1 = ANY(group_ids) AND NOT is_delete`,
    [id],
  );
  return r!.n > 0;
}

// ---- manifests ----

/** A schedule as a manifest carries it, with the screens it reaches (its own and its groups'). */
export type ManifestSchedule = ScheduleRule & { player_ids: number[] };

/** Every live schedule on any of these screens (one query for a whole fan-out). */
export function schedulesOn(q: Queryable, deviceIds: number[]) {
  return q.query<ManifestSchedule>(
    `SELECT s.id, s.playlist_id, s.priority, to_char(s.date_from, 'YYYY-MM-DD') AS date_from,
            to_char(s.date_to, 'YYYY-MM-DD') AS date_to, s.weekdays, s.time_from, s.time_to, s.emergency,
            array_agg(ss.device_id) AS player_ids
       FROM media_schedules s JOIN media_playlists p ON p.id = s.playlist_id AND NOT p.is_delete
       JOIN media_schedule_screens ss ON ss.schedule_id = s.id AND ss.device_id = ANY($1::int[])
      WHERE NOT s.is_delete GROUP BY s.id ORDER BY s.id`,
    [deviceIds],
  );
}

export interface ManifestPlaylistItem {
  playlist_id: number;
  position: number;
  duration_s: number;
  id: number;
  kind: string;
  name: string;
  status: number;
  is_delete: boolean;
  storage_key: string | null;
  url: string | null;
  mime: string;
  size: number;
  sha256: string;
  duration_ms: number | null;
  text_body: unknown;
}

export function playlistsForManifest(q: Queryable, ids: number[]) {
  return q.query<{ id: number; name: string; layout: string; transition: string; ticker: string }>(
    `SELECT id, name, layout, transition, ticker FROM media_playlists WHERE id = ANY($1::int[])`,
    [ids],
  );
}

export function playlistItemsForManifest(q: Queryable, ids: number[]) {
  return q.query<ManifestPlaylistItem>(
    `SELECT p.id AS playlist_id, x.o::int AS position, coalesce((x.e->>'duration_s')::int, 10) AS duration_s,
            mi.id::float8 AS id, mi.kind, mi.name, mi.status, mi.is_delete, mi.storage_key, mi.url, mi.mime,
            mi.size::float8 AS size, mi.sha256, mi.duration_ms, mi.text_body
       FROM media_playlists p CROSS JOIN LATERAL jsonb_array_elements(p.items) WITH ORDINALITY AS x(e, o)
       JOIN media_items mi ON mi.id = (x.e->>'media_id')::bigint
      WHERE p.id = ANY($1::int[]) ORDER BY p.id, x.o`,
    [ids],
  );
}

/**
 * Queues one manifest per screen (a device command of type 'manifest') and records it as the
 * screen's delivery (已下发), superseding any earlier manifest still waiting: one statement
 * each for the whole fan-out. Answers the command ids per device.
 */
export async function queueManifests(
  q: Queryable,
  deviceIds: number[],
  payloads: unknown[],
  createdBy: number | null,
  ttlMs: number,
) {
  await q.query(
    `UPDATE device_commands SET status = 'failed', done_at = now(), result = '已被新的播放清单取代'
      WHERE device_id = ANY($1::int[]) AND type = 'manifest' AND status = 'pending'`,
    [deviceIds],
  );
  const rows = await q.query<{ id: number; device_id: number }>(
    `INSERT INTO device_commands (device_id, type, op, payload, created_by, expires_at)
     SELECT d, 'manifest', NULL, p, $3, now() + $4 * interval '1 millisecond'
       FROM unnest($1::int[], $2::jsonb[]) AS v(d, p)
     RETURNING id::float8 AS id, device_id`,
    [deviceIds, payloads.map((p) => JSON.stringify(p)), createdBy, ttlMs],
  );
  await q.query(
    `INSERT INTO media_deliveries (device_id, manifest_id, state, progress, error, updated_at)
     SELECT d, m, 'sent', 0, '', now() FROM unnest($1::int[], $2::bigint[]) AS v(d, m)
     ON CONFLICT (device_id) DO UPDATE SET manifest_id = excluded.manifest_id, state = 'sent',
       progress = 0, error = '', updated_at = now()`,
    [rows.map((r) => r.device_id), rows.map((r) => r.id)],
  );
  return rows;
}

// ---- ingest (player reports) ----

/** Proof of play, one statement per batch; a resent report is stored once. */
export function insertPlays(
  q: Queryable,
  devices: number[],
  items: number[],
  starts: string[],
  seconds: number[],
) {
  return q.query(
    `INSERT INTO media_plays (device_id, item_id, started_at, duration_s)
     SELECT * FROM unnest($1::int[], $2::bigint[], $3::timestamptz[], $4::real[])
     ON CONFLICT DO NOTHING`,
    [devices, items, starts, seconds],
  );
}

/**
 * What screens said about their manifests (one statement per batch): only about the
 * manifest they were last sent, so a late report on an older one changes nothing.
 */
export function updateDeliveries(
  q: Queryable,
  devices: number[],
  manifests: number[],
  states: string[],
  progress: number[],
  errors: string[],
) {
  return q.query(
    `UPDATE media_deliveries md SET state = v.s, progress = v.p, error = v.e, updated_at = now()
       FROM unnest($1::int[], $2::bigint[], $3::text[], $4::real[], $5::text[]) AS v(d, m, s, p, e)
      WHERE md.device_id = v.d AND md.manifest_id = v.m`,
    [devices, manifests, states, progress, errors],
  );
}

export function updateNowPlaying(q: Queryable, devices: number[], items: number[]) {
  return q.query(
    `UPDATE media_deliveries md SET now_item_id = NULLIF(v.i, 0) FROM unnest($1::int[], $2::bigint[]) AS v(d, i)
      WHERE md.device_id = v.d`,
    [devices, items],
  );
}

// ---- proof-of-play report ----

export interface PlayReportFilter {
  by: 'item' | 'player';
  scope: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
  exact?: boolean;
}

/** Plays and seconds per item or per screen, over the screens the scope sees. */
export function playReport(q: Queryable, f: PlayReportFilter) {
  const w = new Params();
  const cond = [deviceSeen(w, f.scope, 'mp.device_id')];
  // Local days (China time): the dates the report form names.
  if (f.from)
    cond.push(`mp.started_at >= (${w.p(f.from)}::date::timestamp - interval '8 hours') AT TIME ZONE 'UTC'`);
  if (f.to)
    cond.push(`mp.started_at < (${w.p(f.to)}::date::timestamp + interval '16 hours') AT TIME ZONE 'UTC'`);
  const where = cond.join(' AND ');
  const key = f.by === 'item' ? 'mp.item_id' : 'mp.device_id';
  const name =
    f.by === 'item'
      ? `coalesce((SELECT mi.name FROM media_items mi WHERE mi.id = g.id), '#' || g.id)`
      : `coalesce((SELECT d.ser_num || CASE WHEN d."desc" <> '' THEN ' ' || d."desc" ELSE '' END FROM devices d WHERE d.id = g.id), '#' || g.id)`;
  return selectPage<PlayReportRow>(q, w, f, {
    list: (page) =>
      `SELECT g.id::float8 AS id, ${name} AS name, g.plays, g.seconds, ${localTime('g.last_at')} AS last_at
         FROM (SELECT ${key} AS id, count(*)::int AS plays, round(sum(mp.duration_s))::float8 AS seconds,
                      max(mp.started_at) AS last_at
                 FROM media_plays mp WHERE ${where} GROUP BY ${key}) g
        ORDER BY g.plays DESC, g.id ${page}`,
    where: `${where} GROUP BY ${key}`,
    countFrom: 'media_plays mp',
  });
}

// ---- live data zone ----

export function liveDataOf(q: Queryable, deviceId: number) {
  return first<{
    toilet_name: string;
    latest: Record<string, unknown> | null;
    star_sum: number;
    star_count: number;
    time: number | null;
  }>(
    q,
    `SELECT tl.name AS toilet_name, g.latest, tl.star_sum::float8 AS star_sum, tl.star_count,
            (extract(epoch FROM g.time) * 1000)::float8 AS time
       FROM devices d JOIN toilets tl ON tl.id = ${TOILET_OF}
       LEFT JOIN devices g ON g.id = tl.gateway_id
      WHERE d.id = $1 AND NOT d.is_delete`,
    [deviceId],
  );
}

/** A stored item a signed link names: the file's key and type. */
export function storedItem(q: Queryable, id: number) {
  return first<{ storage_key: string | null; mime: string; name: string; is_delete: boolean }>(
    q,
    `SELECT storage_key, mime, name, is_delete FROM media_items WHERE id = $1`,
    [id],
  );
}

/** Whether a live schedule puts item `itemId` on screen `deviceId` (a signed link's item). */
export async function itemScheduledOn(q: Queryable, deviceId: number, itemId: number) {
  const r = await first<{ ok: boolean }>(
    q,
    `SELECT EXISTS (SELECT 1 FROM media_schedules s JOIN media_playlists p ON p.id = s.playlist_id
                     JOIN media_schedule_screens ss ON ss.schedule_id = s.id AND ss.device_id = $1
                     WHERE NOT s.is_delete
                       AND p.items @> jsonb_build_array(jsonb_build_object('media_id', $2::bigint))) AS ok`,
    [deviceId, itemId],
  );
  return r!.ok;
}
