import { z } from 'zod';

import { intField } from './envelope.ts';
import { alarmRow } from './live.ts';

/**
 * The data centres (/data-center, /data-center2, /display-center under the dataCenter area,
 * /st-data-center under smartToilet): one overview per dashboard plus the map points. Every
 * number is scoped to what the caller can see. Live changes arrive over /ws afterwards.
 */
export const DATACENTER_API = {
  /** Totals, occupancy, air ranking, alarms, ratings, dispensers, recent comments. */
  overview: '/api/v1/datacenter/overview',
  /** Toilets with a position, for the map. */
  map: '/api/v1/datacenter/map',
  /** The same two for the toilet/gateway data centre (/st-data-center, smartToilet area). */
  stOverview: '/api/v1/toilet/data-center',
  stMap: '/api/v1/toilet/data-center-map',
} as const;

/** Days of the ratings trend; rows of each list a dashboard gets. */
export const DATACENTER_LIMITS = {
  ratingDays: 30,
  occupancy: 30,
  air: 30,
  liquid: 20,
  alarms: 20,
  comments: 20,
  mapPoints: 5000,
} as const;

const groupCounts = z.object({ count: z.number(), occupy: z.number() });

export const occupancyRow = z.object({
  toilet_id: z.number(),
  name: z.string(),
  gateway_id: z.number(),
  online: z.boolean(),
  male: groupCounts,
  female: groupCounts,
  others: groupCounts,
});
export type OccupancyRow = z.infer<typeof occupancyRow>;

const level = z.enum(['good', 'fair', 'poor']);

export const airRow = z.object({
  toilet_id: z.number(),
  name: z.string(),
  gateway_id: z.number(),
  /** Latest gas readings of the toilet's gateway (absent gases are omitted). */
  gases: z.record(z.string(), z.number()),
  /** airScore() of the readings, 0.41…1. */
  score: z.number(),
  level,
  /** Per-gas level (gasLevel()). */
  gas_levels: z.record(z.string(), level),
});
export type AirRow = z.infer<typeof airRow>;

export const ratingDay = z.object({
  /** 'YYYY-MM-DD', UTC+8 */
  day: z.string(),
  count: z.number(),
  /** Average stars of the day; null without comments. */
  avg: z.number().nullable(),
});
export type RatingDay = z.infer<typeof ratingDay>;

export const liquidRow = z.object({
  id: z.number(),
  ser_num: z.string(),
  desc: z.string(),
  online: z.boolean(),
  /** Latest liquid margin, 0…MAX_LIQUID_MARGIN; null when never reported. */
  liquid: z.number().nullable(),
  warning: z.number(),
});
export type LiquidRow = z.infer<typeof liquidRow>;

export const commentFeedRow = z.object({
  id: z.number(),
  toilet_id: z.number().nullable(),
  toilet_name: z.string(),
  equipment_id: z.number().nullable(),
  star_level: z.number(),
  content: z.string(),
  badattitude: z.boolean(),
  inefficiency: z.boolean(),
  poorsanitary: z.boolean(),
  smelly: z.boolean(),
  /** UTC+8 'YYYY-MM-DD HH:mm:ss' */
  created_at: z.string(),
});
export type CommentFeedRow = z.infer<typeof commentFeedRow>;

export const deviceKindTotal = z.object({ kind: z.string(), total: z.number(), online: z.number() });
export type DeviceKindTotal = z.infer<typeof deviceKindTotal>;

export const visitorHour = z.object({
  /** Start of the hour, ms */
  hour: z.number(),
  male: z.number(),
  female: z.number(),
  others: z.number(),
});
export type VisitorHour = z.infer<typeof visitorHour>;

/**
 * A dashboard's fetch: `since` (ms since the epoch) asks for numbers computed no earlier than
 * then — a refetch that a live push caused (a new gateway reporting) must not get the shared
 * answer from before that push. Without it a shared answer up to a few seconds old may come.
 */
export const datacenterQuery = z.object({
  since: intField('since').pipe(z.number().int().min(0)).optional(),
});
export type DatacenterQuery = z.infer<typeof datacenterQuery>;

export const datacenterOverview = z.object({
  /** Server time the numbers were taken, ms. */
  generated_at: z.number(),
  totals: z.object({
    toilets: z.number(),
    /** Toilets with each status flag set (TOILET_STATUS). */
    cleaning: z.number(),
    repair: z.number(),
    alarm: z.number(),
    devices: z.array(deviceKindTotal),
    /** Uses counted today (UTC+8) from the gateways' *_times counters. */
    visitors_today: z.number(),
    /** Open (unacknowledged) and active (open or acknowledged) alarms. */
    alarms_open: z.number(),
    alarms_active: z.number(),
    comments_today: z.number(),
  }),
  /** Today's uses per hour (UTC+8). */
  visitors: z.array(visitorHour),
  occupancy: z.object({
    /** Sums over every visible toilet. */
    cubicles: z.number(),
    occupied: z.number(),
    /** The busiest toilets first. */
    list: z.array(occupancyRow),
  }),
  air: z.object({
    /** Toilets per level. */
    levels: z.object({ good: z.number(), fair: z.number(), poor: z.number() }),
    /** Worst air first. */
    list: z.array(airRow),
  }),
  alarms: z.array(alarmRow),
  ratings: z.object({
    days: z.array(ratingDay),
    flags: z.object({
      badattitude: z.number(),
      inefficiency: z.number(),
      poorsanitary: z.number(),
      smelly: z.number(),
    }),
    /** Comments per star level 1…5 over the same days (index 0 = 1 star). */
    stars: z.array(z.number()),
  }),
  liquid: z.object({
    total: z.number(),
    /** Dispensers with the lack-of-liquid bit (32768). */
    lacking: z.number(),
    /** Dispensers per fill band: 0–20 %, 20–40 %, 40–60 %, 60–80 %, 80–100 %, never reported. */
    bands: z.array(z.number()),
    /** The emptiest first. */
    list: z.array(liquidRow),
  }),
  comments: z.array(commentFeedRow),
});
export type DatacenterOverview = z.infer<typeof datacenterOverview>;

export const mapPoint = z.object({
  id: z.number(),
  name: z.string(),
  lng: z.number(),
  lat: z.number(),
  pname: z.string(),
  cityname: z.string(),
  address: z.string(),
  status: z.number(),
  /** The toilet's gateway reported within the offline threshold. */
  online: z.boolean(),
  gateway_id: z.number().nullable(),
});
export type MapPoint = z.infer<typeof mapPoint>;

export const datacenterMap = z.object({
  points: z.array(mapPoint),
  /** More toilets have a position than the points carry. */
  truncated: z.boolean(),
  /** Toilets per province (pname as stored), positioned or not. */
  provinces: z.array(z.object({ pname: z.string(), count: z.number() })),
});
export type DatacenterMap = z.infer<typeof datacenterMap>;
