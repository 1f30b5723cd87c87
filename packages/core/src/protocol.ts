import { z } from 'zod';
import { MAX_LIQUID_MARGIN } from './devices.ts';

/** MQTT topics of a device (ARCHITECTURE §5, docs/protocol.md). */
export const TOPIC = {
  up: (serNum: string) => `d/${serNum}/up`,
  down: (serNum: string) => `d/${serNum}/down`,
  /** The shared subscription server copies use on an external broker. */
  sharedUp: (group: string) => `$share/${group}/d/+/up`,
} as const;

export const UP_TOPIC = /^d\/([A-Za-z0-9_.:-]{1,64})\/up$/;

/**
 * The largest device message, in bytes: an MQTT PUBLISH payload or one message of an HTTP
 * report. The biggest real message (an evaluation with 500 characters of comment) stays
 * under 4 KB; anything past this is an attack or a bug, refused before it is parsed.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** The largest HTTP report body (a batch of up to 500 messages). */
export const MAX_REPORT_BODY_BYTES = 1024 * 1024;

/** The HTTP header that carries a device token on POST /api/v1/device/report. */
export const DEVICE_TOKEN_HEADER = 'x-device-token';

const num = (min: number, max: number) => z.number().finite().min(min).max(max);
const flag = z
  .union([z.literal(0), z.literal(1), z.boolean()])
  .transform((v) => (v === true || v === 1 ? 1 : 0));
const count = z.number().int().min(0).max(1_000_000);

const gases = {
  nh3: num(0, 1000).optional(),
  h2s: num(0, 1000).optional(),
  voc: num(0, 10_000).optional(),
  pm25: num(0, 100_000).optional(),
  co2: num(0, 100_000).optional(),
};

const occupancy = Object.fromEntries(
  ['male', 'female', 'others'].flatMap((g) => [
    [`${g}_count`, count.optional()],
    [`${g}_occupy`, count.optional()],
    [`${g}_time`, count.optional()],
    [`${g}_times`, count.optional()],
  ]),
) as Record<
  `${'male' | 'female' | 'others'}_${'count' | 'occupy' | 'time' | 'times'}`,
  z.ZodOptional<typeof count>
>;

/**
 * A screen's status and proof of play (issue 17, docs/protocol.md): stand-alone players
 * (kind `player`) and multimedia gateways report these.
 */
const screen = {
  /** Items played since the last report: media item, start (s or ms since 1970), seconds. */
  plays: z
    .array(
      z.object({
        item: z.number().int().min(1).max(2_147_483_647),
        start: z.number().finite().positive(),
        duration: z.number().finite().min(0).max(86_400),
      }),
    )
    .max(200)
    .optional(),
  /** What the player did with a manifest (its `manifest_id`). */
  manifest: z
    .object({
      id: z.number().int().min(1),
      state: z.enum(['downloading', 'ready', 'playing', 'failed']),
      progress: z.number().min(0).max(100).optional(),
      error: z.string().max(200).optional(),
    })
    .optional(),
  now_item: z.number().int().min(0).max(2_147_483_647).optional(),
  volume: z.number().int().min(0).max(100).optional(),
  screen_on: flag.optional(),
  screen_schedule: z.string().max(20).optional(),
  resolution: z.string().max(20).optional(),
  /** Free storage, MB. */
  storage_free: num(0, 1e9).optional(),
};

/** What each kind reports in `data` (unknown keys are dropped). */
export const REPORT_DATA = {
  gateway: z.object({
    ...gases,
    smk_alarm: flag.optional(),
    alarm: flag.optional(),
    ...occupancy,
    pot_int: count.optional(),
    ...screen,
  }),
  sensor: z.object({ ...gases, smk_alarm: flag.optional(), alarm: flag.optional() }),
  jwb: z.object({
    warning: z.number().int().min(0).max(0x7fffffff).optional(),
    liquid: num(0, MAX_LIQUID_MARGIN).optional(),
    state: z.number().int().min(0).max(255).optional(),
    ...gases,
  }),
  evaluate: z.object({
    star_level: z.number().int().min(1).max(5),
    badattitude: flag.optional(),
    inefficiency: flag.optional(),
    poorsanitary: flag.optional(),
    smelly: flag.optional(),
    content: z.string().max(500).optional(),
  }),
  electric_meter: z.object({ reading: num(0, 1e12) }),
  water_meter: z.object({ reading: num(0, 1e12) }),
  paper_machine: z.object({
    level: num(0, 100).optional(),
    warning: z.number().int().min(0).max(0x7fffffff).optional(),
  }),
  /**
   * Clock-in terminals (issue 16): one punch per report. `employee_no` is the employee
   * number, `badge` the card or face id the terminal read; at least one. `punched_at`
   * (seconds or ms) defaults to the message's `ts`.
   */
  attendance: z
    .object({
      employee_no: z.string().trim().max(32).optional(),
      badge: z.string().trim().max(64).optional(),
      method: z.enum(['face', 'card', 'fingerprint', 'qr']).default('card'),
      punched_at: z.number().finite().positive().optional(),
      photo: z.string().trim().max(200).optional(),
    })
    .refine((d) => !!(d.employee_no || d.badge), { message: '打卡记录缺少工号或卡号' }),
  player: z.object(screen),
} as const;
export type ReportKind = keyof typeof REPORT_DATA;

const messageId = z.union([z.string().trim().min(1).max(64), z.number().int().min(0)]).transform(String);
/** Seconds or milliseconds (SPEC §5: below 1e12 means seconds). */
const timestamp = z.number().finite().positive();

/** One message from a device: a report, or the reply that closes a command. */
export const deviceMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('report'),
    id: messageId,
    ts: timestamp,
    data: z.record(z.string(), z.unknown()),
  }),
  z.object({
    type: z.literal('reply'),
    id: messageId,
    ts: timestamp,
    command_id: z.number().int().min(1),
    ok: z.boolean(),
    result: z.string().max(500).default(''),
  }),
]);
export type DeviceMessage = z.infer<typeof deviceMessage>;

/** A command as the server sends it on d/<ser_num>/down. */
export interface DownCommand {
  command_id: number;
  type: string;
  op: number | null;
  payload: unknown;
}

/** POST /api/v1/device/report: one message, or `messages` for a batch (at most 500). */
export const httpReportBody = z
  .object({
    ser_num: z.string().trim().min(1, '序列号不能为空').max(64),
    messages: z.array(z.unknown()).min(1, '消息不能为空').max(500, '一次最多500条消息').optional(),
  })
  .passthrough();

export const httpReportResult = z.object({
  accepted: z.number(),
  duplicates: z.number(),
  rejected: z.array(z.object({ index: z.number(), error: z.string() })),
});

export const DEVICE_REPORT_API = '/api/v1/device/report';
