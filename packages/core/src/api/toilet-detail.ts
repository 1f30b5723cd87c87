import { z } from 'zod';
import { AIR_LEVELS, airScore, gasLevel, scoreLevel, type AirLevel, type Gas } from '../air.ts';
import { TOILET_PART_TYPES, TOILET_STATUS } from '../devices.ts';
import { boolField, idField, intField, keywordsField, pageQuery } from './envelope.ts';
import { deviceRow, linkChange, toiletRow } from './devices.ts';

/**
 * Toilet operations (issue 6): the detail of one toilet — its document (opening hours,
 * cubicle counts), parts, operator status changes, devices placed in it, recent reviews —
 * and the display tokens that sign a screen inside the toilet into /eternal-page.
 */

export const TOILET_DETAIL_API = {
  detail: '/api/v1/toilet/get-toilet-detail',
  updateDocument: '/api/v1/toilet/update-document',
  addPart: '/api/v1/toilet/add-part',
  updatePart: '/api/v1/toilet/update-part',
  setStatus: '/api/v1/toilet/set-status',
  statusLog: '/api/v1/toilet/status-log',
  placeable: '/api/v1/toilet/placeable-devices',
  place: '/api/v1/toilet/place-devices',
  displayTokens: '/api/v1/toilet/display-tokens',
  addDisplayToken: '/api/v1/toilet/add-display-token',
  revokeDisplayToken: '/api/v1/toilet/revoke-display-token',
  /** Public: what a display screen shows, for `token`. */
  display: '/api/v1/display/toilet',
} as const;

/**
 * The public review page a toilet's QR code opens (pages/public/AddComment reads `toilet_id`),
 * by the toilet's public id: internal ids count up and are refused there.
 */
export const commentPath = (publicId: string) => `/add-comment?toilet_id=${encodeURIComponent(publicId)}`;
/** The display screen's address for a token. */
export const displayPath = (token: string) => `/eternal-page?token=${encodeURIComponent(token)}`;

/** The message a revoked or unknown display token gets; the screen shows it as it is. */
export const DISPLAY_TOKEN_INVALID = '显示令牌已失效';

/** Device kinds that can be placed in a toilet; a gateway links through the toilet, sensors through their gateway. */
export const PLACEABLE_KINDS = [
  'jwb',
  'evaluate',
  'paper_machine',
  'electric_meter',
  'water_meter',
  'attendance',
  'player',
] as const;
export type PlaceableKind = (typeof PLACEABLE_KINDS)[number];

// ---- document (SPEC §3 "Document") ----

export const DOCUMENT_DEFAULTS = { open_time: '00:00', close_time: '23:59' } as const;

const clock = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label}格式应为 HH:MM（00:00–23:59）`);
const cubicles = (label: string) =>
  intField(label).pipe(z.number().int().min(0, `${label}不能小于0`).max(999, `${label}不能超过999`));

export const toiletDocument = z.object({
  id: z.number().nullable(),
  is_delete: z.boolean(),
  male_count: z.number(),
  female_count: z.number(),
  others_count: z.number(),
  open_time: z.string(),
  close_time: z.string(),
  content: z.string(),
});
export type ToiletDocument = z.infer<typeof toiletDocument>;

export const updateDocumentBody = z.object({
  toilet_id: idField(),
  male_count: cubicles('男厕位数').optional(),
  female_count: cubicles('女厕位数').optional(),
  others_count: cubicles('其他厕位数').optional(),
  open_time: clock('开放时间').optional(),
  close_time: clock('关闭时间').optional(),
  content: z.string().trim().max(2000, '说明不能超过2000个字符').optional(),
});
export type UpdateDocumentBody = z.infer<typeof updateDocumentBody>;

// ---- parts (SPEC §4 toilet-part types 0–6) ----

export const PART_STATES = ['正常', '故障'] as const;

const partType = intField('部件类型').pipe(
  z
    .number()
    .int()
    .min(0, '部件类型取值无效')
    .max(TOILET_PART_TYPES.length - 1, '部件类型取值无效'),
);
const partState = intField('部件状态').pipe(
  z
    .number()
    .int()
    .min(0, '部件状态取值无效')
    .max(PART_STATES.length - 1, '部件状态取值无效'),
);
const partName = z.string().trim().max(50, '部件名称不能超过50个字符');
const partNote = z.string().trim().max(200, '备注不能超过200个字符');

export const toiletPart = z.object({
  id: z.number(),
  toilet_id: z.number(),
  type: z.number(),
  name: z.string(),
  state: z.number(),
  note: z.string(),
  updated_at: z.string(),
});
export type ToiletPart = z.infer<typeof toiletPart>;

export const addPartBody = z.object({
  toilet_id: idField(),
  type: partType,
  name: partName.default(''),
  state: partState.default(0),
  note: partNote.default(''),
});
export type AddPartBody = z.infer<typeof addPartBody>;

export const updatePartBody = z.object({
  id: idField(),
  is_delete: boolField().optional(),
  type: partType.optional(),
  name: partName.optional(),
  state: partState.optional(),
  note: partNote.optional(),
});
export type UpdatePartBody = z.infer<typeof updatePartBody>;

// ---- status flags ----

/** Flags an operator sets and clears; alarm (4) follows the alarm engine. */
export const OPERATOR_STATUS_FLAGS = [TOILET_STATUS.cleaning, TOILET_STATUS.repair] as const;

export const setStatusBody = z.object({
  id: idField(),
  flag: intField('状态').pipe(
    z
      .number()
      .int()
      .refine((f) => (OPERATOR_STATUS_FLAGS as readonly number[]).includes(f), {
        message: '只能设置清洁中（1）或维修中（2），报警由设备告警决定',
      }),
  ),
  on: boolField(),
  note: z.string().trim().max(200, '备注不能超过200个字符').default(''),
});
export type SetStatusBody = z.infer<typeof setStatusBody>;

export const statusLogRow = z.object({
  id: z.number(),
  toilet_id: z.number(),
  flag: z.number(),
  on: z.boolean(),
  note: z.string(),
  user_name: z.string(),
  created_at: z.string(),
});
export type StatusLogRow = z.infer<typeof statusLogRow>;

export const statusLogQuery = pageQuery.extend({ toilet_id: idField() });

// ---- devices in the toilet ----

/** A device in the toilet: a device row's live fields (time: ms of the last report, null before). */
export const liveDevice = deviceRow.pick({
  id: true,
  kind: true,
  ser_num: true,
  desc: true,
  location: true,
  time: true,
  online: true,
  warning: true,
  star_count: true,
  star_level: true,
  latest: true,
});
export type LiveDevice = z.infer<typeof liveDevice>;

export const placeableQuery = pageQuery.extend({
  toilet_id: idField(),
  kind: z.enum(PLACEABLE_KINDS, '设备类型取值无效'),
  keywords: keywordsField(),
});

export const placeableRow = z.object({
  id: z.number(),
  ser_num: z.string(),
  desc: z.string(),
  location: z.string(),
  /** Placed in this toilet. */
  placed: z.boolean(),
  /** Placed in another toilet (placing it here moves it). */
  elsewhere: z.boolean(),
  /** The toilet it is placed in now, when the caller can see it ('' / null otherwise or when none). */
  toilet_name: z.string(),
  toilet_id: z.number().nullable(),
});
export type PlaceableRow = z.infer<typeof placeableRow>;

export const placeBody = z.object({ toilet_id: idField(), ...linkChange() });
export type PlaceBody = z.infer<typeof placeBody>;

// ---- reviews ----

export const recentComment = z.object({
  id: z.number(),
  content: z.string(),
  star_level: z.number(),
  badattitude: z.boolean(),
  inefficiency: z.boolean(),
  poorsanitary: z.boolean(),
  smelly: z.boolean(),
  source: z.string(),
  /** The terminal it was given at (a link to it), null for a scanned review. */
  equipment_id: z.number().nullable(),
  equipment_ser_num: z.string(),
  created_at: z.string(),
});
export type RecentComment = z.infer<typeof recentComment>;

// ---- the detail ----

export const toiletDetail = z.object({
  toilet: toiletRow,
  document: toiletDocument,
  parts: z.array(toiletPart),
  gateway: liveDevice.nullable(),
  sensors: z.array(liveDevice),
  devices: z.array(liveDevice),
  comments: z.array(recentComment),
  /** star_sum / star_count to one decimal; null without ratings. */
  star_average: z.number().nullable(),
  /** Whether the caller may change the document, parts, placement and display tokens. */
  can_manage: z.boolean(),
});
export type ToiletDetail = z.infer<typeof toiletDetail>;

export const toiletIdQuery = z.object({ toilet_id: idField() });

// ---- display tokens ----

export const displayTokenRow = z.object({
  id: z.number(),
  toilet_id: z.number(),
  name: z.string(),
  created_by_name: z.string(),
  created_at: z.string(),
  last_seen_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type DisplayTokenRow = z.infer<typeof displayTokenRow>;

export const addDisplayTokenBody = z.object({
  toilet_id: idField(),
  name: z.string().trim().min(1, '名称不能为空').max(50, '名称不能超过50个字符'),
});

/** The token itself is in this answer only: the server keeps its hash. */
export const newDisplayToken = displayTokenRow.extend({ token: z.string() });
export type NewDisplayToken = z.infer<typeof newDisplayToken>;

export const revokeDisplayTokenBody = z.object({ id: idField() });

export const displayQuery = z.object({
  token: z.string().trim().min(1, '缺少显示令牌').max(200, DISPLAY_TOKEN_INVALID),
});

// ---- live values shared by the detail and the display ----

export const OCCUPANCY_KEYS = ['male', 'female', 'others'] as const;
export type OccupancyKey = (typeof OCCUPANCY_KEYS)[number];
export const OCCUPANCY_LABELS: Record<OccupancyKey, string> = { male: '男', female: '女', others: '其他' };

export const occupancyGroup = z.object({
  key: z.enum(OCCUPANCY_KEYS),
  label: z.string(),
  /** Cubicles: the gateway's count, else the document's. */
  count: z.number(),
  /** Occupied now; null when the gateway has not reported it. */
  occupy: z.number().nullable(),
  /** Uses counted by the gateway. */
  times: z.number().nullable(),
});
export type OccupancyGroup = z.infer<typeof occupancyGroup>;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Occupancy per cubicle group from a gateway's latest report, with the document's counts
 * where the gateway sends none; groups without cubicles on either side are left out.
 */
export function occupancyOf(
  latest: Record<string, unknown>,
  doc: Pick<ToiletDocument, 'male_count' | 'female_count' | 'others_count'>,
): OccupancyGroup[] {
  const out: OccupancyGroup[] = [];
  for (const key of OCCUPANCY_KEYS) {
    const count = num(latest[`${key}_count`]) ?? doc[`${key}_count`];
    const occupy = num(latest[`${key}_occupy`]);
    if (!count && occupy === null) continue;
    out.push({ key, label: OCCUPANCY_LABELS[key], count, occupy, times: num(latest[`${key}_times`]) });
  }
  return out;
}

export const GASES: readonly Gas[] = ['nh3', 'h2s', 'voc', 'pm25', 'co2'];

export const airSummary = z.object({
  gases: z.array(z.object({ gas: z.string(), value: z.number(), level: z.string() })),
  score: z.number(),
  /** good / fair / poor */
  level: z.string(),
  /** 优 / 良 / 差 */
  level_text: z.string(),
});
export type AirSummary = z.infer<typeof airSummary>;

/**
 * The air of a toilet from the latest values of its gateway and sensors: per gas the worst
 * (highest) reading any of them reports, each with its band, and the airScore of those.
 * Null when none of them has reported a gas.
 */
export function airOf(latests: readonly Record<string, unknown>[]): AirSummary | null {
  const worst: Partial<Record<Gas, number>> = {};
  for (const l of latests) {
    for (const g of GASES) {
      const v = num(l[g]);
      if (v !== null && (worst[g] === undefined || v > worst[g]!)) worst[g] = v;
    }
  }
  const gases = GASES.filter((g) => worst[g] !== undefined).map((g) => ({
    gas: g,
    value: worst[g]!,
    level: gasLevel(g, worst[g]!) as string,
  }));
  if (gases.length === 0) return null;
  const score = Math.round(airScore(worst) * 100) / 100;
  const level: AirLevel = scoreLevel(score);
  return { gases, score, level, level_text: AIR_LEVELS[level] };
}

/** Average stars to one decimal, null without ratings. */
export const starAverageOrNull = (sum: number, count: number): number | null =>
  count > 0 ? Math.round((sum / count) * 10) / 10 : null;

/** Whether `now` (HH:MM, UTC+8) is within the opening hours; close before open spans midnight. */
export function isOpenAt(hhmm: string, open: string, close: string): boolean {
  if (open === close) return true;
  return open < close ? hhmm >= open && hhmm <= close : hhmm >= open || hhmm <= close;
}

export const displayData = z.object({
  /** `public_id` builds the review QR code; the internal id is not shown on a public screen. */
  toilet: z.object({ public_id: z.string(), name: z.string(), address: z.string(), status: z.number() }),
  document: toiletDocument.pick({
    open_time: true,
    close_time: true,
    male_count: true,
    female_count: true,
    others_count: true,
    content: true,
  }),
  occupancy: z.array(occupancyGroup),
  air: airSummary.nullable(),
  star_average: z.number().nullable(),
  star_count: z.number(),
  /** The gateway's state; null without a gateway. */
  gateway_online: z.boolean().nullable(),
  /** ms of the gateway's last report. */
  updated_at: z.number().nullable(),
  /** ms, the server's clock (the screen's own clock may be wrong). */
  server_time: z.number(),
  /** Seconds between polls the server asks for. */
  refresh_seconds: z.number(),
});
export type DisplayData = z.infer<typeof displayData>;
