import { z } from 'zod';
import { boolField, idField, intField, keywordsField, pageOf, pageQuery } from './envelope.ts';
import { idList } from './devices.ts';
import { WEEKDAY_BITS } from '../media-schedule.ts';

/**
 * Streaming media, part B (issue 17): the screens (multimedia gateways, gateway type 43 or
 * 40, and stand-alone players, device kind `player`), playlists, schedules, the manifests
 * pushed to the screens and proof of play. The content libraries are part A (`api/media.ts`).
 */
export const MEDIA_PLAYER_API = {
  /** Gateways of type 40/43 and stand-alone players in one list. */
  players: '/api/v1/media/players',
  player: '/api/v1/media/get-screen',
  command: '/api/v1/media/player-command',
  playlists: '/api/v1/media/playlists',
  playlist: '/api/v1/media/get-playlist',
  addPlaylist: '/api/v1/media/add-playlist',
  updatePlaylist: '/api/v1/media/update-playlist',
  groups: '/api/v1/media/player-groups',
  addGroup: '/api/v1/media/add-player-group',
  updateGroup: '/api/v1/media/update-player-group',
  schedules: '/api/v1/media/schedules',
  addSchedule: '/api/v1/media/add-schedule',
  updateSchedule: '/api/v1/media/update-schedule',
  publish: '/api/v1/media/publish',
  playReport: '/api/v1/media/play-report',
  /** Signed per player (manifest URLs): no session. */
  content: '/api/v1/media/content',
  live: '/api/v1/media/live-data',
} as const;

/** The gateway types that drive screens (SPEC §3: 43 multimedia edition, 40 lite). */
export const SCREEN_GATEWAY_TYPES = [43, 40] as const;
export const SCREEN_TYPES = ['43', '40', 'player'] as const;
export const SCREEN_TYPE_LABELS: Record<(typeof SCREEN_TYPES)[number], string> = {
  '43': '控制中心多媒体版 (43)',
  '40': '智能网关简易版 (40)',
  player: '独立播放器',
};

/** What a player last said about its manifest (report field `manifest.state`). */
export const DELIVERY_STATES = ['sent', 'downloading', 'ready', 'playing', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const DELIVERY_LABELS: Record<DeliveryState, string> = {
  sent: '已下发',
  downloading: '下载中',
  ready: '已就绪',
  playing: '播放中',
  failed: '失败',
};

/** Player commands (`type: 'player'` on the down topic, docs/protocol.md). */
export const PLAYER_OPS = { restart: 0, volume: 1, screen: 2, sync: 3, screenSchedule: 4 } as const;
export const PLAYER_OP_LABELS: Record<keyof typeof PLAYER_OPS, string> = {
  restart: '重启',
  volume: '音量',
  screen: '开关屏',
  sync: '立即同步',
  screenSchedule: '开关屏时间',
};

export const PLAYLIST_LAYOUTS = ['full', 'zones'] as const;
export const PLAYLIST_LAYOUT_LABELS: Record<(typeof PLAYLIST_LAYOUTS)[number], string> = {
  full: '全屏',
  zones: '主区 + 滚动字幕 + 实时数据区',
};
export const TRANSITIONS = ['none', 'fade', 'slide'] as const;
export const TRANSITION_LABELS: Record<(typeof TRANSITIONS)[number], string> = {
  none: '无',
  fade: '淡入淡出',
  slide: '滑动',
};

export const PLAYLIST_LIMITS = {
  playlistItems: 100,
  itemSeconds: { min: 1, max: 3600 },
  /** Seconds a picture or text shows when no duration is given. */
  defaultSeconds: 10,
  priority: { min: 0, max: 100 },
  /** How long a manifest's content links stay valid (a player refetches on the next manifest). */
  linkTtlSeconds: 7 * 24 * 3600,
  /** How long a manifest waits for an offline player. */
  manifestTtlMs: 30 * 24 * 3600 * 1000,
} as const;

const hhmm = (label: string) =>
  z
    .string({ error: `请输入${label}` })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label}格式应为 HH:MM`);
const day = (label: string) =>
  z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 YYYY-MM-DD`)
      .nullable()
      .optional(),
  );

// ---- players ----

export const mediaPlayerListQuery = pageQuery.extend({
  keywords: keywordsField(),
  type: z.enum(SCREEN_TYPES, '类型只能是 43、40 或 player').optional(),
  /** Online 1<<17 / offline 1<<18 (SPEC §4). */
  status: intField().pipe(z.number().int().min(0)).optional(),
});
export type MediaPlayerListQuery = z.infer<typeof mediaPlayerListQuery>;

export const mediaPlayerRow = z.object({
  id: z.number(),
  kind: z.string(),
  type: z.number().nullable(),
  ser_num: z.string(),
  desc: z.string(),
  location: z.string(),
  online: z.boolean(),
  time: z.number().nullable(),
  owners: z.string(),
  toilet_id: z.number().nullable(),
  toilet_name: z.string(),
  /** The latest value of every field the player reported (volume, resolution, storage…). */
  latest: z.record(z.string(), z.unknown()),
  manifest_id: z.number().nullable(),
  delivery_state: z.enum(DELIVERY_STATES).nullable(),
  delivery_progress: z.number(),
  delivery_error: z.string(),
  delivery_at: z.string().nullable(),
  now_item_id: z.number().nullable(),
  now_item_name: z.string(),
});
export type MediaPlayerRow = z.infer<typeof mediaPlayerRow>;
export const mediaPlayerPage = pageOf(mediaPlayerRow);

export const playerCommandBody = z
  .object({
    id: idField(),
    op: z.enum(['restart', 'volume', 'screen', 'sync', 'screenSchedule'], '未知的播放器命令'),
    volume: intField('音量')
      .pipe(z.number().int().min(0, '音量为 0–100').max(100, '音量为 0–100'))
      .optional(),
    on: boolField().optional(),
    screen_on: hhmm('开屏时间').optional(),
    screen_off: hhmm('关屏时间').optional(),
  })
  .refine((b) => b.op !== 'volume' || b.volume !== undefined, { message: '请输入音量', path: ['volume'] })
  .refine((b) => b.op !== 'screen' || b.on !== undefined, { message: '请选择开屏或关屏', path: ['on'] })
  .refine((b) => b.op !== 'screenSchedule' || (b.screen_on && b.screen_off), {
    message: '请输入开屏和关屏时间',
    path: ['screen_on'],
  });
export type PlayerCommandBody = z.infer<typeof playerCommandBody>;

// ---- playlists ----

export const playlistItemInput = z.object({
  media_id: idField(),
  /** Seconds; a video plays its own length (ignored). */
  duration_s: intField('时长')
    .pipe(
      z
        .number()
        .int()
        .min(
          PLAYLIST_LIMITS.itemSeconds.min,
          `时长为 ${PLAYLIST_LIMITS.itemSeconds.min}–${PLAYLIST_LIMITS.itemSeconds.max} 秒`,
        )
        .max(
          PLAYLIST_LIMITS.itemSeconds.max,
          `时长为 ${PLAYLIST_LIMITS.itemSeconds.min}–${PLAYLIST_LIMITS.itemSeconds.max} 秒`,
        ),
    )
    .default(PLAYLIST_LIMITS.defaultSeconds),
});

const playlistFields = {
  name: z.string({ error: '请输入名称' }).trim().min(1, '名称不能为空').max(50, '名称不能超过50个字符'),
  layout: z.enum(PLAYLIST_LAYOUTS, '布局只能是全屏或分区'),
  transition: z.enum(TRANSITIONS, '转场只能是无、淡入淡出或滑动'),
  ticker: z.string().trim().max(500, '滚动字幕不能超过500个字符'),
  items: z
    .array(playlistItemInput, { error: '请选择内容' })
    .min(1, '播放列表至少要有一项内容')
    .max(PLAYLIST_LIMITS.playlistItems, `播放列表最多 ${PLAYLIST_LIMITS.playlistItems} 项`),
};

export const addPlaylistBody = z.object({
  /** Whose playlist (a user the caller manages); default the caller. */
  target_user_id: idField().optional(),
  name: playlistFields.name,
  layout: playlistFields.layout.default('full'),
  transition: playlistFields.transition.default('none'),
  ticker: playlistFields.ticker.default(''),
  items: playlistFields.items,
});
export type AddPlaylistBody = z.infer<typeof addPlaylistBody>;

export const updatePlaylistBody = z.object({
  id: idField(),
  is_delete: boolField().optional(),
  name: playlistFields.name.optional(),
  layout: playlistFields.layout.optional(),
  transition: playlistFields.transition.optional(),
  ticker: playlistFields.ticker.optional(),
  items: playlistFields.items.optional(),
});
export type UpdatePlaylistBody = z.infer<typeof updatePlaylistBody>;

export const playlistItemRow = z.object({
  media_id: z.number(),
  name: z.string(),
  kind: z.string(),
  /** 0 待审核, 1 已通过, 2 已驳回 (part A's review). */
  status: z.number(),
  duration_s: z.number(),
});

export const playlistRow = z.object({
  id: z.number(),
  user_id: z.number(),
  user_name: z.string(),
  name: z.string(),
  layout: z.enum(PLAYLIST_LAYOUTS),
  transition: z.enum(TRANSITIONS),
  ticker: z.string(),
  items: z.array(playlistItemRow),
  total_s: z.number(),
  is_delete: z.boolean(),
  updated_at: z.string(),
});
export type PlaylistRow = z.infer<typeof playlistRow>;
export const playlistPage = pageOf(playlistRow);
export const playlistListQuery = pageQuery.extend({
  keywords: keywordsField(),
  target_user_id: idField().optional(),
});

// ---- schedules ----

const scheduleFields = {
  name: playlistFields.name,
  playlist_id: idField(),
  priority: intField('优先级').pipe(
    z
      .number()
      .int()
      .min(PLAYLIST_LIMITS.priority.min, '优先级为 0–100')
      .max(PLAYLIST_LIMITS.priority.max, '优先级为 0–100'),
  ),
  date_from: day('开始日期'),
  date_to: day('结束日期'),
  weekdays: intField('星期').pipe(
    z.number().int().min(1, '请至少选择一天').max(WEEKDAY_BITS.all, '星期取值无效'),
  ),
  time_from: hhmm('开始时间'),
  time_to: hhmm('结束时间'),
  emergency: boolField(),
  player_ids: idList('播放器'),
  group_ids: idList('播放器分组'),
};

const someScreens = (b: { player_ids?: number[]; group_ids?: number[] }) =>
  b.player_ids === undefined || b.group_ids === undefined || b.player_ids.length + b.group_ids.length > 0;
const SOME_SCREENS = { message: '请选择播放器或播放器分组', path: ['player_ids'] };

const datesInOrder = (b: { date_from?: string | null; date_to?: string | null }) =>
  !b.date_from || !b.date_to || b.date_from <= b.date_to;

export const addScheduleBody = z
  .object({
    target_user_id: idField().optional(),
    name: scheduleFields.name,
    playlist_id: scheduleFields.playlist_id,
    priority: scheduleFields.priority.default(0),
    date_from: scheduleFields.date_from,
    date_to: scheduleFields.date_to,
    weekdays: scheduleFields.weekdays.default(WEEKDAY_BITS.all),
    time_from: scheduleFields.time_from.default('00:00'),
    time_to: scheduleFields.time_to.default('00:00'),
    emergency: scheduleFields.emergency.default(false),
    player_ids: scheduleFields.player_ids,
    group_ids: scheduleFields.group_ids,
  })
  .refine(someScreens, SOME_SCREENS)
  .refine(datesInOrder, { message: '结束日期不能早于开始日期', path: ['date_to'] });
export type AddScheduleBody = z.infer<typeof addScheduleBody>;

export const updateScheduleBody = z
  .object({
    id: idField(),
    /** true withdraws the schedule (an emergency notice ends). */
    is_delete: boolField().optional(),
    name: scheduleFields.name.optional(),
    playlist_id: scheduleFields.playlist_id.optional(),
    priority: scheduleFields.priority.optional(),
    date_from: scheduleFields.date_from,
    date_to: scheduleFields.date_to,
    weekdays: scheduleFields.weekdays.optional(),
    time_from: scheduleFields.time_from.optional(),
    time_to: scheduleFields.time_to.optional(),
    emergency: scheduleFields.emergency.optional(),
    player_ids: scheduleFields.player_ids.optional(),
    group_ids: scheduleFields.group_ids.optional(),
  })
  .refine(datesInOrder, { message: '结束日期不能早于开始日期', path: ['date_to'] });
export type UpdateScheduleBody = z.infer<typeof updateScheduleBody>;

export const scheduleRow = z.object({
  id: z.number(),
  user_id: z.number(),
  user_name: z.string(),
  name: z.string(),
  playlist_id: z.number(),
  playlist_name: z.string(),
  priority: z.number(),
  date_from: z.string().nullable(),
  date_to: z.string().nullable(),
  weekdays: z.number(),
  time_from: z.string(),
  time_to: z.string(),
  emergency: z.boolean(),
  player_ids: z.array(z.number()),
  players: z.string(),
  group_ids: z.array(z.number()),
  groups: z.string(),
  is_delete: z.boolean(),
  updated_at: z.string(),
});
export type ScheduleRow = z.infer<typeof scheduleRow>;
export const schedulePage = pageOf(scheduleRow);
export const scheduleListQuery = pageQuery.extend({
  keywords: keywordsField(),
  target_user_id: idField().optional(),
  emergency: boolField().optional(),
});

export const publishBody = z.object({
  /** Players to send their current manifest to; empty: every player of the caller's schedules. */
  player_ids: idList('播放器'),
});

// ---- player groups ----

const groupName = z
  .string({ error: '请输入名称' })
  .trim()
  .min(1, '名称不能为空')
  .max(50, '名称不能超过50个字符');
export const addGroupBody = z.object({
  target_user_id: idField().optional(),
  name: groupName,
  player_ids: idList('播放器').pipe(z.array(z.number()).min(1, '请选择播放器')),
});
export const updateGroupBody = z.object({
  id: idField(),
  is_delete: boolField().optional(),
  name: groupName.optional(),
  player_ids: idList('播放器').pipe(z.array(z.number()).min(1, '请选择播放器')).optional(),
});
export const groupRow = z.object({
  id: z.number(),
  user_id: z.number(),
  name: z.string(),
  player_ids: z.array(z.number()),
  players: z.string(),
  is_delete: z.boolean(),
  updated_at: z.string(),
});
export type GroupRow = z.infer<typeof groupRow>;
export const groupPage = pageOf(groupRow);
export const groupListQuery = pageQuery.extend({
  keywords: keywordsField(),
  target_user_id: idField().optional(),
});

// ---- proof of play ----

export const playReportQuery = pageQuery.extend({
  by: z.enum(['item', 'player'], '统计方式只能是 item 或 player').default('item'),
  from: day('开始日期'),
  to: day('结束日期'),
});
export type PlayReportQuery = z.infer<typeof playReportQuery>;
export const playReportRow = z.object({
  id: z.number(),
  name: z.string(),
  plays: z.number(),
  seconds: z.number(),
  last_at: z.string().nullable(),
});
export type PlayReportRow = z.infer<typeof playReportRow>;
export const playReportPage = pageOf(playReportRow);

/** A manifest content link's query: item, player, expiry (unix s), HMAC. */
export const signedContentQuery = z.object({
  i: idField(),
  d: idField(),
  e: intField().pipe(z.number().int().min(0)),
  s: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, '签名无效'),
});
export const signedLiveQuery = signedContentQuery.omit({ i: true });

export const liveData = z.object({
  toilet_name: z.string(),
  nh3: z.number().nullable(),
  h2s: z.number().nullable(),
  pm25: z.number().nullable(),
  co2: z.number().nullable(),
  /** 'male' | 'female' | 'others' → occupied / cubicles. */
  occupancy: z.record(z.string(), z.object({ occupy: z.number(), count: z.number() })),
  star: z.number().nullable(),
  updated_at: z.number().nullable(),
});
