import { z } from 'zod';

import { boolField, idField, keywordsField, pageQuery } from './envelope.ts';

/**
 * Smart industry (issue 15): industrial gas monitors are gateways with an industrial type
 * (SPEC §3: unlimited/null or BH-50, INDUSTRIAL_TYPES); an industrial site is an
 * organisation, its workshops and work areas are the organisation's buildings and rooms,
 * and monitors are placed there like any campus device.
 */
export const INDUSTRY_API = {
  /** Monitors with latest readings, levels and open alarms. */
  monitors: '/api/v1/industry/monitors',
  /** Sites (organisations) and their areas that hold monitors the caller sees, for filters. */
  sites: '/api/v1/industry/sites',
  /** Occupational exposure per work area and shift of one site and day. */
  exposure: '/api/v1/industry/exposure',
} as const;

/** Molar volume at 25 °C and 101.3 kPa (L/mol): mg/m³ = ppm × M / 24.45 (GBZ 2.1-2019). */
export const MOLAR_VOLUME_25C = 24.45;

export const EXPOSURE_GASES = ['nh3', 'h2s', 'co2'] as const;
export type ExposureGas = (typeof EXPOSURE_GASES)[number];

/**
 * Occupational exposure limits of GBZ 2.1-2019 (table 1), mg/m³: PC-TWA (8-hour
 * time-weighted average), PC-STEL (15-minute short-term), MAC (ceiling, never to be
 * exceeded). Molar masses g/mol. See docs/industry.md.
 */
export const EXPOSURE_LIMITS: Record<
  ExposureGas,
  { label: string; molar: number; twa: number | null; stel: number | null; mac: number | null }
> = {
  nh3: { label: '氨', molar: 17.03, twa: 20, stel: 30, mac: null },
  h2s: { label: '硫化氢', molar: 34.08, twa: null, stel: null, mac: 10 },
  co2: { label: '二氧化碳', molar: 44.01, twa: 9000, stel: 18000, mac: null },
};

export const ppmToMgm3 = (gas: ExposureGas, ppm: number) =>
  (ppm * EXPOSURE_LIMITS[gas].molar) / MOLAR_VOLUME_25C;

/** Shifts of a day (UTC+8 hours), 8 hours each: the TWA period. */
export const SHIFTS = [
  { key: 'night', label: '夜班', from: 0, to: 8 },
  { key: 'day', label: '早班', from: 8, to: 16 },
  { key: 'evening', label: '中班', from: 16, to: 24 },
] as const;
export type ShiftKey = (typeof SHIFTS)[number]['key'];

/** A reading is taken to hold until the next one, at most this long (a monitor's silence is not exposure). */
export const EXPOSURE_HOLD_MS = 5 * 60_000;

export type ExposureLevel = 'normal' | 'attention' | 'over';
export const EXPOSURE_LEVEL_LABELS: Record<ExposureLevel, string> = {
  normal: '正常',
  attention: '注意',
  over: '超限',
};

/**
 * The level of one instantaneous reading against the gas's short-term limit (MAC, else
 * PC-STEL): under half of it normal, under it attention, else over.
 */
export function exposureLevel(gas: ExposureGas, ppm: number): ExposureLevel {
  const l = EXPOSURE_LIMITS[gas];
  const limit = l.mac ?? l.stel ?? l.twa;
  if (limit === null) return 'normal';
  const mg = ppmToMgm3(gas, ppm);
  if (mg > limit) return 'over';
  return mg >= limit / 2 ? 'attention' : 'normal';
}

export const monitorListQuery = pageQuery.extend({
  keywords: keywordsField(),
  org_id: idField().optional(),
  building_id: idField().optional(),
  room_id: idField().optional(),
  industrial_type: z.string().trim().max(20).optional(),
  online: boolField().optional(),
});

export const monitorRow = z.object({
  id: z.number(),
  ser_num: z.string(),
  desc: z.string(),
  industrial_type: z.string().nullable(),
  online: z.boolean(),
  time: z.number().nullable(),
  latest: z.record(z.string(), z.unknown()),
  org_id: z.number().nullable(),
  org_name: z.string().nullable(),
  building_id: z.number().nullable(),
  building_name: z.string().nullable(),
  room_id: z.number().nullable(),
  room_name: z.string().nullable(),
  open_alarms: z.number(),
});
export type MonitorRow = z.infer<typeof monitorRow>;

export const siteRow = z.object({
  id: z.number(),
  name: z.string(),
  buildings: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      rooms: z.array(z.object({ id: z.number(), name: z.string() })),
    }),
  ),
});
export type SiteRow = z.infer<typeof siteRow>;

export const exposureQuery = z.object({
  org_id: idField(),
  /** The day, YYYY-MM-DD (UTC+8). */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD'),
});
export type ExposureQuery = z.infer<typeof exposureQuery>;

const gasFigures = z.object({
  /** 8-hour TWA, mg/m³ (null: no readings). */
  twa: z.number().nullable(),
  /** Worst 15-minute average, mg/m³ (null: no fully covered 15 minutes). */
  stel: z.number().nullable(),
  /** Highest reading, mg/m³. */
  max: z.number().nullable(),
  /** Verdict against the limits: ok, over (TWA, STEL or MAC breached), or unknown. */
  verdict: z.enum(['ok', 'over', 'unknown']),
  breaches: z.array(z.string()),
});
export type GasFigures = z.infer<typeof gasFigures>;

export const exposureRow = z.object({
  building_id: z.number().nullable(),
  building_name: z.string(),
  room_id: z.number().nullable(),
  room_name: z.string(),
  shift: z.enum(['night', 'day', 'evening']),
  shift_label: z.string(),
  monitors: z.number(),
  /** Minutes of the shift with readings (worst monitor's area figure uses its own coverage). */
  covered_min: z.number(),
  /** The shift has not ended yet: the TWA so far (over 8 h), not final. */
  partial: z.boolean(),
  gases: z.record(z.string(), gasFigures),
});
export type ExposureRow = z.infer<typeof exposureRow>;

export const exposureReport = z.object({
  org_id: z.number(),
  org_name: z.string(),
  date: z.string(),
  rows: z.array(exposureRow),
});
export type ExposureReport = z.infer<typeof exposureReport>;
