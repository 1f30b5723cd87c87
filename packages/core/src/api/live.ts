import { z } from 'zod';

import { dateTimeField, idField, pageQuery } from './envelope.ts';

const dateTime = dateTimeField();

/** The bucket of the five-minute rollup the device history reads beyond a few hours. */
export const FIVE_MINUTES = 300_000;

/** Chart ranges of the device detail; longer ones read the five-minute, then the hourly rollup. */
export const HISTORY_RANGES = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 604_800_000,
  '30d': 2_592_000_000,
} as const;
export type HistoryRange = keyof typeof HISTORY_RANGES;

export const historyQuery = z.object({
  device_id: idField(),
  range: z.enum(['1h', '24h', '7d', '30d'], '范围只能是 1h、24h、7d、30d').optional(),
  /** Or an explicit window (UTC+8). */
  start: dateTime.optional(),
  end: dateTime.optional(),
});

/** Points of numeric fields, averaged per bucket; `ts` is the bucket start in ms. */
export const historyData = z.object({
  bucket_ms: z.number(),
  /** Raw reports, the five-minute rollup or the hourly one. */
  source: z.enum(['raw', '5min', 'hourly']),
  fields: z.array(z.string()),
  points: z.array(z.record(z.string(), z.number())),
});
export type HistoryData = z.infer<typeof historyData>;

export const ALARM_TYPE_LABELS = {
  air: '空气质量',
  fire: '火警',
  help: '求助',
  warning: '设备告警',
  offline: '离线',
  /** A toilet's cleaner patrol is overdue (issue 16). */
  patrol: '巡检超时',
  night_flow: '夜间流水',
  base_load: '夜间基础负荷',
  exposure: '职业接触超限',
  exposure_mac: '超过最高容许浓度',
} as const;
export type AlarmType = keyof typeof ALARM_TYPE_LABELS;

export const ALARM_STATUS_LABELS = { open: '未处理', acked: '已确认', closed: '已恢复' } as const;
export type AlarmStatus = keyof typeof ALARM_STATUS_LABELS;

export const alarmRow = z.object({
  id: z.number(),
  device_id: z.number(),
  kind: z.string(),
  ser_num: z.string(),
  desc: z.string(),
  /** The toilet the device is in (a link to the place; its name is the device's desc). */
  toilet_id: z.number().nullable(),
  type: z.string(),
  status: z.string(),
  message: z.string(),
  detail: z.unknown(),
  opened_at: z.string(),
  acked_at: z.string().nullable(),
  acked_by_name: z.string(),
  closed_at: z.string().nullable(),
});
export type AlarmRow = z.infer<typeof alarmRow>;

export const alarmListQuery = pageQuery.extend({
  /** 'active' = open or acked (default), or one status. */
  status: z.enum(['active', 'open', 'acked', 'closed', 'all'], '状态取值无效').default('active'),
  type: z.enum(Object.keys(ALARM_TYPE_LABELS) as [AlarmType, ...AlarmType[]], '类型取值无效').optional(),
  device_id: idField().optional(),
});

export const ackAlarmBody = z.object({ id: idField() });

/** open: not yet acknowledged; active: open or acknowledged (not closed). */
export const alarmCount = z.object({ open: z.number(), active: z.number() });
export type AlarmCount = z.infer<typeof alarmCount>;

export const LIVE_API = {
  history: '/api/v1/device/history',
  alarms: '/api/v1/alarm/alarms',
  ackAlarm: '/api/v1/alarm/ack-alarm',
  alarmCount: '/api/v1/alarm/count',
  ws: '/ws',
} as const;
