import {
  DATACENTER_LIMITS,
  GAS_THRESHOLDS,
  OCCUPANCY_KEYS,
  TZ_OFFSET_MS,
  airScore,
  gasLevel,
  scoreLevel,
  type AirRow,
  type DatacenterMap,
  type DatacenterOverview,
  type Gas,
  type OccupancyRow,
  MAX_LIQUID_MARGIN,
} from '@se/core';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AppContext, Caller } from '../../context.ts';
import { countAlarms, listAlarms } from '../live/repo.ts';
import * as repo from './repo.ts';
import { scopeOf } from '../access/users.ts';
import { SharedAnswers } from '../../shared-answers.ts';

const DAY = 86_400_000;
const GASES = Object.keys(GAS_THRESHOLDS) as Gas[];

/** Start of the UTC+8 day that holds `now`, as an instant. */
export function localDayStart(now: number): number {
  return Math.floor((now + TZ_OFFSET_MS) / DAY) * DAY - TZ_OFFSET_MS;
}

/** 'YYYY-MM-DD' of the UTC+8 day that holds `ms`. */
export function localDay(ms: number): string {
  return new Date(ms + TZ_OFFSET_MS).toISOString().slice(0, 10);
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Occupancy of one toilet from its gateway's latest report; null when it never sent any. */
export function toiletOccupancy(s: repo.ToiletState): OccupancyRow | null {
  let seen = false;
  const groups = {} as Record<(typeof OCCUPANCY_KEYS)[number], { count: number; occupy: number }>;
  for (const g of OCCUPANCY_KEYS) {
    const count = num(s.latest[`${g}_count`]);
    const occupy = num(s.latest[`${g}_occupy`]);
    if (count !== null || occupy !== null) seen = true;
    groups[g] = { count: count ?? 0, occupy: Math.min(occupy ?? 0, count ?? Infinity) };
  }
  if (!seen) return null;
  return { toilet_id: s.toilet_id, name: s.name, gateway_id: s.gateway_id, online: s.online, ...groups };
}

/** Air quality of one toilet from its gateway's latest gases; null without any gas reading. */
export function airOf(s: repo.ToiletState): AirRow | null {
  const gases: Partial<Record<Gas, number>> = {};
  const levels: AirRow['gas_levels'] = {};
  for (const g of GASES) {
    const v = num(s.latest[g]);
    if (v === null) continue;
    gases[g] = v;
    levels[g] = gasLevel(g, v);
  }
  if (Object.keys(gases).length === 0) return null;
  const score = Math.round(airScore(gases) * 1000) / 1000;
  // A reading past a high threshold makes the toilet poor whatever the weighted score says
  // (PM2.5 and CO₂ weigh nothing in the score but still have bands).
  const worst = Object.values(levels).includes('poor') ? 'poor' : scoreLevel(score);
  return {
    toilet_id: s.toilet_id,
    name: s.name,
    gateway_id: s.gateway_id,
    gases,
    score,
    level: worst,
    gas_levels: levels,
  };
}

/**
 * Toilets the overview reads and folds at a time. Ten thousand toilets' latest reports read
 * and folded in one piece held the server's event loop for 50–130 ms (bench:event-loop);
 * between pages it answers other requests.
 */
export const STATES_PAGE = 1000;

/** Occupancy and air rows of every visible toilet that reported them, page by page. */
async function toiletRows(ctx: AppContext, scope: Scope) {
  const occupancy: OccupancyRow[] = [];
  const air: AirRow[] = [];
  for (let after = 0; ;) {
    const page = await repo.toiletStates(ctx.db, scope, after, STATES_PAGE);
    for (const s of page) {
      const o = toiletOccupancy(s);
      if (o) occupancy.push(o);
      const a = airOf(s);
      if (a) air.push(a);
    }
    if (page.length < STATES_PAGE) return { occupancy, air };
    after = page[page.length - 1]!.toilet_id;
    await yieldToEventLoop();
  }
}

const ratio = (r: OccupancyRow) => {
  const count = r.male.count + r.female.count + r.others.count;
  return count > 0 ? (r.male.occupy + r.female.occupy + r.others.occupy) / count : 0;
};

/** An app's shared overview and map answers (per scope: what both depend on besides the clock). */
interface Shared {
  overview: SharedAnswers<DatacenterOverview>;
  map: SharedAnswers<DatacenterMap>;
}
const sharedByApp = new WeakMap<AppContext, Shared>();

/**
 * The app's shared answers: a burst of dashboards opening at once costs one computation per
 * scope, and `computed` counts the computations.
 */
export function sharedAnswers(ctx: AppContext): Shared {
  let s = sharedByApp.get(ctx);
  if (!s) {
    const fresh = ctx.config.datacenterCacheMs;
    const failed = (err: unknown) => ctx.log.warn({ err }, 'data-centre background refresh failed');
    s = {
      overview: new SharedAnswers(fresh, fresh * 5, failed),
      map: new SharedAnswers(fresh, fresh * 5, failed),
    };
    sharedByApp.set(ctx, s);
  }
  return s;
}

/** What a caller may see (modules/access). */
type Scope = Awaited<ReturnType<typeof scopeOf>>;

/** The key of what a caller may see: two callers with the same key get the same numbers. */
const scopeKey = (scope: Scope) => JSON.stringify(scope);

/** `since`: numbers computed no earlier than then (capped at now: a fast client clock gets fresh ones). */
export async function overview(ctx: AppContext, caller: Caller, since = 0): Promise<DatacenterOverview> {
  const scope = await scopeOf(ctx, caller);
  const notBefore = Math.min(since, Date.now());
  return sharedAnswers(ctx).overview.get(scopeKey(scope), () => computeOverview(ctx, scope), notBefore);
}

async function computeOverview(ctx: AppContext, scope: Scope): Promise<DatacenterOverview> {
  const now = Date.now();
  const today = localDayStart(now);
  const ratingsFrom = today - (DATACENTER_LIMITS.ratingDays - 1) * DAY;
  const L = DATACENTER_LIMITS;
  const [toilets, devices, visitors, rows, alarmCount, alarms, days, liquid, comments] = await Promise.all([
    repo.toiletTotals(ctx.db, scope),
    repo.deviceTotals(ctx.db, scope),
    repo.visitorHours(ctx.db, scope, new Date(today)),
    toiletRows(ctx, scope),
    countAlarms(ctx.db, scope),
    listAlarms(ctx.db, { scope, status: 'all', limit: L.alarms, offset: 0 }),
    repo.ratingDays(ctx.db, scope, new Date(ratingsFrom)),
    repo.liquidLevels(ctx.db, scope, MAX_LIQUID_MARGIN, L.liquid),
    repo.recentComments(ctx.db, scope, L.comments),
  ]);

  const { occupancy, air } = rows;
  let cubicles = 0;
  let occupied = 0;
  for (const r of occupancy) {
    for (const g of OCCUPANCY_KEYS) {
      cubicles += r[g].count;
      occupied += r[g].occupy;
    }
  }
  occupancy.sort((a, b) => ratio(b) - ratio(a) || a.toilet_id - b.toilet_id);

  const levels = { good: 0, fair: 0, poor: 0 };
  for (const a of air) levels[a.level] += 1;
  air.sort((a, b) => a.score - b.score || a.toilet_id - b.toilet_id);

  // Every day of the window, with or without comments.
  const byDay = new Map(days.map((d) => [d.day, d]));
  const flags = { badattitude: 0, inefficiency: 0, poorsanitary: 0, smelly: 0 };
  const stars = [0, 0, 0, 0, 0];
  for (const d of days) {
    for (const f of Object.keys(flags) as (keyof typeof flags)[]) flags[f] += d[f];
    [d.s1, d.s2, d.s3, d.s4, d.s5].forEach((n, i) => (stars[i]! += n));
  }
  const ratingDays = Array.from({ length: L.ratingDays }, (_, i) => {
    const day = localDay(ratingsFrom + i * DAY);
    const d = byDay.get(day);
    return {
      day,
      count: d?.count ?? 0,
      avg: d && d.count > 0 ? Math.round((d.star_sum / d.count) * 100) / 100 : null,
    };
  });

  const visitorsToday = visitors.reduce((n, h) => n + h.male + h.female + h.others, 0);
  return {
    generated_at: now,
    totals: {
      ...toilets,
      devices,
      visitors_today: Math.round(visitorsToday),
      alarms_open: alarmCount.open,
      alarms_active: alarmCount.active,
      comments_today: byDay.get(localDay(now))?.count ?? 0,
    },
    visitors: visitors.map((h) => ({
      hour: h.hour,
      male: Math.round(h.male),
      female: Math.round(h.female),
      others: Math.round(h.others),
    })),
    occupancy: { cubicles, occupied, list: occupancy.slice(0, L.occupancy) },
    air: { levels, list: air.slice(0, L.air) },
    alarms: alarms.list,
    ratings: { days: ratingDays, flags, stars },
    liquid,
    comments,
  };
}

export async function map(ctx: AppContext, caller: Caller, since = 0): Promise<DatacenterMap> {
  const scope = await scopeOf(ctx, caller);
  const notBefore = Math.min(since, Date.now());
  return sharedAnswers(ctx).map.get(scopeKey(scope), () => computeMap(ctx, scope), notBefore);
}

async function computeMap(ctx: AppContext, scope: Scope): Promise<DatacenterMap> {
  const limit = DATACENTER_LIMITS.mapPoints;
  const [points, provinces] = await Promise.all([
    repo.mapPoints(ctx.db, scope, limit),
    repo.provinceCounts(ctx.db, scope),
  ]);
  return { points: points.slice(0, limit), truncated: points.length > limit, provinces };
}
