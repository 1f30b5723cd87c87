import { z } from 'zod';

import { idField, intField } from './envelope.ts';

/**
 * Meter usage (issue 15): what electric and water meters consumed per hour, day and month,
 * derived at ingest from their cumulative `reading` (ingest/handlers/meters.ts). Days and
 * months are China Standard Time (UTC+8, no daylight saving). Calls sit beside the meters'
 * own device calls, under /api/v1/campus/meters.
 */
export const METERS_API = {
  /** One meter's usage per day or month over a range (chart + table). */
  usage: '/api/v1/campus/meters/usage',
  /** The same rows as a spreadsheet (CSV). */
  usageExport: '/api/v1/campus/meters/usage-export',
} as const;

export const USAGE_GRAINS = ['hour', 'day', 'month'] as const;
export type UsageGrain = (typeof USAGE_GRAINS)[number];

/** China Standard Time offset: days and months of usage begin at 00:00 UTC+8. */
export const CST_OFFSET_MS = 8 * 3_600_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Start (epoch ms) of the UTC+8 hour, day or month holding `ms`. */
export function periodStart(grain: UsageGrain, ms: number): number {
  if (grain === 'hour') return Math.floor(ms / HOUR) * HOUR;
  if (grain === 'day') return Math.floor((ms + CST_OFFSET_MS) / DAY) * DAY - CST_OFFSET_MS;
  const d = new Date(ms + CST_OFFSET_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - CST_OFFSET_MS;
}

/** The UTC+8 hour of day (0–23) of `ms`. */
export const cstHour = (ms: number) => new Date(ms + CST_OFFSET_MS).getUTCHours();

/**
 * How usage is derived and when meters alarm. A gap between two readings longer than
 * `gapMs` is spread evenly over its hours and those hours are marked `gap`; one longer than
 * `maxSpreadMs` is not spread (the usage is put on the hour of the later reading, marked).
 */
export const METER_USAGE = {
  gapMs: 2 * HOUR,
  maxSpreadMs: 31 * DAY,
  /** Water night flow: usage in 02:00–04:00 (UTC+8) above this (m³) on this many nights in a row. */
  nightFlow: { fromHour: 2, toHour: 4, minUsage: 0.005, nights: 3 },
  /**
   * Electricity after-hours base load: the mean hourly use of 00:00–05:00 above `share` of
   * the mean hourly use of 08:00–18:00 the day before (and at least `minDayMean` kWh/h, so
   * an idle meter does not alarm on noise).
   */
  baseLoad: { nightFrom: 0, nightTo: 5, dayFrom: 8, dayTo: 18, share: 0.5, minDayMean: 0.2 },
} as const;

export const meterUsageQuery = z.object({
  id: idField(),
  grain: z.enum(['hour', 'day', 'month'], { message: '粒度须为 hour、day 或 month' }).default('day'),
  /** Range in epoch ms; defaults: the last 30 days (day), 12 months (month), 48 hours (hour). */
  from: intField('开始时间').pipe(z.number().min(0).max(8.64e15)).optional(),
  to: intField('结束时间').pipe(z.number().min(0).max(8.64e15)).optional(),
});
export type MeterUsageQuery = z.input<typeof meterUsageQuery>;

export const usageRow = z.object({
  /** Period start, ISO. */
  period_start: z.string(),
  usage: z.number(),
  /** Part of the usage was spread over a reporting gap (an estimate between two readings). */
  gap: z.boolean(),
  /** Times the reading fell (meter reset or replaced) in the period. */
  resets: z.number(),
});
export type UsageRow = z.infer<typeof usageRow>;

export const meterUsage = z.object({
  device_id: z.number(),
  kind: z.string(),
  unit: z.string(),
  grain: z.enum(USAGE_GRAINS),
  from: z.string(),
  to: z.string(),
  total: z.number(),
  rows: z.array(usageRow),
});
export type MeterUsage = z.infer<typeof meterUsage>;

/** Units of usage by meter kind. */
export const METER_UNITS: Record<string, string> = { electric_meter: 'kWh', water_meter: 'm³' };
