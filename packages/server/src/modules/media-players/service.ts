import {
  COMMAND_TIMEOUT_MS,
  DEVICE_KINDS,
  MEDIA_STATUS,
  PLAYER_OPS,
  SCREEN_GATEWAY_TYPES,
  STATUS_FILTER,
  type AddPlaylistBody,
  type AddScheduleBody,
  type MediaPlayerListQuery,
  type PlayReportQuery,
  type PlayerCommandBody,
  type UpdatePlaylistBody,
  type UpdateScheduleBody,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest, notFound } from '../../errors.ts';
import { insertCommand } from '../jwb/repo.ts';
import { assertDeviceRight, idsWithRight } from '../access/devices.ts';
import { managedUserId, scopeOf } from '../access/users.ts';
import { owned } from '../owned/service.ts';
import { publishTo } from './manifest.ts';
import * as repo from './repo.ts';

const OFFLINE = DEVICE_KINDS.player.offline;
const page = <T>(
  r: { list: T[]; total: number; estimated?: boolean },
  q: { page: number; page_size: number },
) => ({
  ...r,
  page: q.page,
  page_size: q.page_size,
});

// ---- screens ----

function onlineOf(status: number | undefined) {
  if (!status) return undefined;
  const on = (status & STATUS_FILTER.online) !== 0;
  const off = (status & STATUS_FILTER.offline) !== 0;
  return on === off ? undefined : on;
}

export async function listScreens(ctx: AppContext, caller: Caller, q: MediaPlayerListQuery) {
  const scope = await scopeOf(ctx, caller);
  const r = await repo.listScreens(ctx.db, {
    scope,
    offlineMs: OFFLINE,
    types: SCREEN_GATEWAY_TYPES,
    keywords: q.keywords || undefined,
    type: q.type === undefined ? undefined : q.type === 'player' ? 'player' : Number(q.type),
    online: onlineOf(q.status),
    ...pageWindow(q),
  });
  return page(r, q);
}

export async function getScreen(ctx: AppContext, caller: Caller, id: number) {
  const scope = await scopeOf(ctx, caller);
  const s = await repo.findScreen(ctx.db, id, scope, OFFLINE, SCREEN_GATEWAY_TYPES);
  if (!s) throw notFound('播放器不存在');
  return s;
}

/** Restart, volume, screen on/off, its on/off times, sync now: a device command tracked to the reply. */
export async function command(ctx: AppContext, caller: Caller, b: PlayerCommandBody) {
  await getScreen(ctx, caller, b.id);
  await assertDeviceRight(ctx, caller, 'device', b.id, 'operate', { what: '下发播放器命令' });
  const op = PLAYER_OPS[b.op];
  const payload =
    b.op === 'volume'
      ? { volume: b.volume }
      : b.op === 'screen'
        ? { on: b.on }
        : b.op === 'screenSchedule'
          ? { on: b.screen_on, off: b.screen_off }
          : {};
  const id = await insertCommand(ctx.db, {
    deviceId: b.id,
    type: 'player',
    op,
    payload,
    createdBy: caller.id,
    timeoutMs: COMMAND_TIMEOUT_MS,
  });
  // Sync now also sends the screen its current manifest again.
  if (b.op === 'sync') await publishTo(ctx, [b.id], caller.id);
  void ctx.commands.deliver(b.id);
  return { command_id: id };
}

// ---- playlists ----

const playlists = owned({
  missing: '播放列表不存在',
  action: 'media.playlist',
  entity: 'media_playlist',
  table: repo.PLAYLISTS,
  find: repo.findPlaylistRecord,
  list: repo.listPlaylists,
});

/** Only the owner's approved, live content goes into a playlist (part A's review). */
async function checkItems(
  ctx: AppContext,
  userId: number,
  items: { media_id: number; duration_s: number }[],
) {
  const found = new Map(
    (
      await repo.mediaItems(
        ctx.db,
        items.map((i) => i.media_id),
      )
    ).map((m) => [m.id, m]),
  );
  for (const i of items) {
    const m = found.get(i.media_id);
    if (!m || m.is_delete || m.user_id !== userId) throw notFound(`内容 ${i.media_id} 不存在`);
    if (m.status !== MEDIA_STATUS.approved) throw badRequest(`「${m.name}」未通过审核，不能加入播放列表`);
  }
  return repo.itemsText(items);
}

export const listPlaylists = (
  ctx: AppContext,
  caller: Caller,
  q: { target_user_id?: number; keywords?: string; page: number; page_size: number },
) => playlists.list(ctx, caller, q, {});

async function playlistOut(ctx: AppContext, id: number) {
  const p = await repo.findPlaylist(ctx.db, id);
  if (!p) throw notFound('播放列表不存在');
  const { raw_items, ...row } = p;
  void raw_items;
  return row;
}

export async function getPlaylist(ctx: AppContext, caller: Caller, id: number) {
  await playlists.load(ctx, caller, id);
  return playlistOut(ctx, id);
}

export async function addPlaylist(ctx: AppContext, caller: Caller, b: AddPlaylistBody, ip: string) {
  const row = await playlists.add(ctx, caller, ip, b.target_user_id, async (userId) => {
    const v = {
      name: b.name,
      layout: b.layout,
      transition: b.transition,
      ticker: b.ticker,
      items: await checkItems(ctx, userId, b.items),
    };
    return { insert: (tx) => repo.insertPlaylist(tx, { user_id: userId, ...v }), after: v };
  });
  return playlistOut(ctx, row.id);
}

export async function updatePlaylist(ctx: AppContext, caller: Caller, b: UpdatePlaylistBody, ip: string) {
  const { id, items, ...rest } = b;
  if (b.is_delete) {
    const users = await repo.playersOfPlaylist(ctx.db, id);
    if (users.length) throw badRequest('该播放列表正在排期中使用，请先撤销相关排期');
  }
  const { change, row } = await playlists.edit(ctx, caller, ip, id, async (r) => ({
    ...rest,
    items: items ? await checkItems(ctx, r.user_id, items) : undefined,
  }));
  if (change.changed && !b.is_delete)
    await publishTo(ctx, await repo.playersOfPlaylist(ctx.db, id), caller.id);
  return b.is_delete ? { ...(await playlistOut(ctx, row.id)), is_delete: true } : playlistOut(ctx, row.id);
}

// ---- schedules ----

const schedules = owned({
  missing: '排期不存在',
  action: 'media.schedule',
  entity: 'media_schedule',
  table: repo.SCHEDULES,
  find: repo.findSchedule,
  list: repo.listSchedules,
});

/** The screens a schedule names must be screens the caller may operate. */
async function checkPlayers(ctx: AppContext, caller: Caller, ids: number[]) {
  const unique = [...new Set(ids)];
  const screens = new Set((await repo.screensByIds(ctx.db, unique, SCREEN_GATEWAY_TYPES)).map((s) => s.id));
  const scope = await scopeOf(ctx, caller);
  const ok = await idsWithRight(ctx.db, caller, scope, 'device', unique, 'operate');
  const bad = unique.filter((id) => !screens.has(id) || !ok.has(id));
  if (bad.length) throw notFound(`播放器 ${bad.join('、')} 不存在或无权操作`);
  return unique.sort((a, b) => a - b);
}

async function checkPlaylist(ctx: AppContext, caller: Caller, userId: number, playlistId: number) {
  const p = await playlists.load(ctx, caller, playlistId);
  if (p.user_id !== userId) throw notFound('播放列表不存在');
}

export const listSchedules = (
  ctx: AppContext,
  caller: Caller,
  q: { target_user_id?: number; keywords?: string; emergency?: boolean; page: number; page_size: number },
) => schedules.list(ctx, caller, q, { emergency: q.emergency });

/** A schedule's groups must be live groups of its owner. */
async function checkGroups(ctx: AppContext, userId: number, ids: number[]) {
  const unique = [...new Set(ids)];
  const found = await repo.groupsOf(ctx.db, userId, unique);
  const bad = unique.filter((id) => !found.has(id));
  if (bad.length) throw notFound(`播放器分组 ${bad.join('、')} 不存在`);
  return unique.sort((a, b) => a - b);
}

export async function addSchedule(ctx: AppContext, caller: Caller, b: AddScheduleBody, ip: string) {
  const { target_user_id, ...fields } = b;
  const row = await schedules.add(ctx, caller, ip, target_user_id, async (userId) => {
    await checkPlaylist(ctx, caller, userId, b.playlist_id);
    const v = {
      ...fields,
      date_from: b.date_from ?? null,
      date_to: b.date_to ?? null,
      player_ids: await checkPlayers(ctx, caller, b.player_ids),
      group_ids: await checkGroups(ctx, userId, b.group_ids),
    };
    return { insert: (tx) => repo.insertSchedule(tx, { user_id: userId, ...v }), after: v };
  });
  await publishTo(ctx, await repo.screensOfSchedule(ctx.db, row.id), caller.id);
  return row;
}

export async function updateSchedule(ctx: AppContext, caller: Caller, b: UpdateScheduleBody, ip: string) {
  const { id, ...fields } = b;
  let before: number[] = [];
  const { change, row } = await schedules.edit(ctx, caller, ip, id, async (r) => {
    before = await repo.screensOfSchedule(ctx.db, r.id);
    if (b.playlist_id !== undefined) await checkPlaylist(ctx, caller, r.user_id, b.playlist_id);
    const dates = { date_from: r.date_from, date_to: r.date_to, ...pick(b, ['date_from', 'date_to']) };
    if (dates.date_from && dates.date_to && dates.date_from > dates.date_to)
      throw badRequest('结束日期不能早于开始日期');
    return {
      ...fields,
      date_from: b.date_from === undefined ? undefined : b.date_from,
      date_to: b.date_to === undefined ? undefined : b.date_to,
      player_ids: b.player_ids ? await checkPlayers(ctx, caller, b.player_ids) : undefined,
      group_ids: b.group_ids ? await checkGroups(ctx, r.user_id, b.group_ids) : undefined,
    };
  });
  if (change.changed) {
    const after = await repo.screensOfSchedule(ctx.db, row.id);
    await publishTo(ctx, [...new Set([...before, ...after])], caller.id);
  }
  return row;
}

// ---- player groups ----

const groups = owned({
  missing: '播放器分组不存在',
  action: 'media.group',
  entity: 'media_player_group',
  table: repo.GROUPS,
  find: repo.findGroup,
  list: repo.listGroups,
});

export const listGroups = (
  ctx: AppContext,
  caller: Caller,
  q: { target_user_id?: number; keywords?: string; page: number; page_size: number },
) => groups.list(ctx, caller, q, {});

export async function addGroup(
  ctx: AppContext,
  caller: Caller,
  b: { target_user_id?: number; name: string; player_ids: number[] },
  ip: string,
) {
  return groups.add(ctx, caller, ip, b.target_user_id, async (userId) => {
    const v = { name: b.name, player_ids: await checkPlayers(ctx, caller, b.player_ids) };
    return { insert: (tx) => repo.insertGroup(tx, { user_id: userId, ...v }), after: v };
  });
}

/** Edits or deletes a group; its schedules' screens, old and new, get their manifests again. */
export async function updateGroup(
  ctx: AppContext,
  caller: Caller,
  b: { id: number; is_delete?: boolean; name?: string; player_ids?: number[] },
  ip: string,
) {
  if (b.is_delete && (await repo.groupInUse(ctx.db, b.id)))
    throw badRequest('该分组正在排期中使用，请先修改或撤销相关排期');
  let before: number[] = [];
  const { change, row } = await groups.edit(ctx, caller, ip, b.id, async (g) => {
    before = g.player_ids;
    return {
      name: b.name,
      is_delete: b.is_delete,
      player_ids: b.player_ids ? await checkPlayers(ctx, caller, b.player_ids) : undefined,
    };
  });
  if (change.changed && b.player_ids)
    await publishTo(ctx, [...new Set([...before, ...row.player_ids])], caller.id);
  return row;
}

const pick = <T extends object, K extends keyof T>(o: T, keys: K[]) =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Partial<Pick<T, K>>;

/** Sends the named screens (or every screen of the caller's schedules) their current manifest. */
export async function publish(ctx: AppContext, caller: Caller, ids: number[]) {
  const players = ids.length
    ? await checkPlayers(ctx, caller, ids)
    : await repo.playersOfUser(ctx.db, await managedUserId(ctx, caller, undefined));
  await publishTo(ctx, players, caller.id);
  return { published: players.length };
}

// ---- proof of play ----

export async function playReport(ctx: AppContext, caller: Caller, q: PlayReportQuery, exact = false) {
  const scope = await scopeOf(ctx, caller);
  const r = await repo.playReport(ctx.db, {
    by: q.by,
    scope,
    from: q.from ?? undefined,
    to: q.to ?? undefined,
    ...pageWindow(q),
    exact,
  });
  return page(r, q);
}
