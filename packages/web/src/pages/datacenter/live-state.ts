import {
  DATACENTER_LIMITS,
  GAS_THRESHOLDS,
  JWB_WARNING,
  OCCUPANCY_KEYS,
  TZ_OFFSET_MS,
  airScore,
  gasLevel,
  scoreLevel,
  type AirRow,
  type AlarmRow,
  type CommentFeedRow,
  type DatacenterMap,
  type DatacenterOverview,
  type DevicePush,
  type Gas,
  type OccupancyRow,
} from '@se/core';

// How a dashboard's snapshot (the overview it fetched) follows the live pushes until the next
// fetch replaces it. Pure functions over immutable data, so they are tested without a socket;
// every list keeps its server-given bound, so a dashboard open for days holds no more than
// it did after the first fetch.

const GASES = Object.keys(GAS_THRESHOLDS) as Gas[];
const HOUR = 3_600_000;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** 'YYYY-MM-DD' of the UTC+8 day holding `ms`. */
export const localDay = (ms: number) => new Date(ms + TZ_OFFSET_MS).toISOString().slice(0, 10);

/** Pushes a batch of device pushes (gateways and dispensers) into the snapshot. */
export function applyDevicePushes(ov: DatacenterOverview, pushes: readonly DevicePush[]): DatacenterOverview {
  if (pushes.length === 0) return ov;
  let occupancy = ov.occupancy;
  let air = ov.air;
  let liquid = ov.liquid;
  let visitorsAdded = 0;
  let visitors = ov.visitors;
  const occIndex = new Map(ov.occupancy.list.map((r, i) => [r.gateway_id, i]));
  const airIndex = new Map(ov.air.list.map((r, i) => [r.gateway_id, i]));
  const liquidIndex = new Map(ov.liquid.list.map((r, i) => [r.id, i]));
  let occList: OccupancyRow[] | null = null;
  let airList: AirRow[] | null = null;
  let liquidList: typeof ov.liquid.list | null = null;
  let lacking = ov.liquid.lacking;

  for (const p of pushes) {
    if (p.kind === 'gateway') {
      const used = OCCUPANCY_KEYS.reduce((n, g) => n + (num(p.data[`${g}_times`]) ?? 0), 0);
      if (used > 0) {
        visitorsAdded += used;
        visitors = addVisitors(visitors, p);
      }
      const oi = occIndex.get(p.id);
      if (oi !== undefined) {
        occList ??= [...ov.occupancy.list];
        occList[oi] = occupancyWith(occList[oi]!, p);
      }
      const ai = airIndex.get(p.id);
      if (ai !== undefined) {
        airList ??= [...ov.air.list];
        airList[ai] = airWith(airList[ai]!, p.data);
      }
    } else if (p.kind === 'jwb') {
      const li = liquidIndex.get(p.id);
      if (li === undefined) continue;
      liquidList ??= [...ov.liquid.list];
      const before = liquidList[li]!;
      const warning = p.warning ?? before.warning;
      const after = {
        ...before,
        online: p.online,
        liquid: num(p.data.liquid) ?? before.liquid,
        warning,
      };
      lacking +=
        Number((warning & JWB_WARNING.lackOfLiquid) !== 0) -
        Number((before.warning & JWB_WARNING.lackOfLiquid) !== 0);
      liquidList[li] = after;
    }
  }

  if (occList) {
    const [c1, o1] = occupancySums(occList);
    const [c0, o0] = occupancySums(ov.occupancy.list);
    // The sums cover every toilet; only the listed ones changed here.
    occupancy = {
      cubicles: ov.occupancy.cubicles + c1 - c0,
      occupied: ov.occupancy.occupied + o1 - o0,
      list: occList.sort(byBusy),
    };
  }
  if (airList) {
    const levels = { ...ov.air.levels };
    for (const [i, r] of ov.air.list.entries()) {
      const n = airList[i]!;
      if (n === r) continue;
      levels[r.level] -= 1;
      levels[n.level] += 1;
    }
    air = { levels, list: airList.sort((a, b) => a.score - b.score || a.toilet_id - b.toilet_id) };
  }
  if (liquidList) {
    liquid = {
      ...ov.liquid,
      lacking: Math.max(0, lacking),
      list: liquidList.sort((a, b) => (a.liquid ?? Infinity) - (b.liquid ?? Infinity) || a.id - b.id),
    };
  }
  if (!occList && !airList && !liquidList && visitorsAdded === 0) return ov;
  return {
    ...ov,
    totals: { ...ov.totals, visitors_today: ov.totals.visitors_today + visitorsAdded },
    visitors,
    occupancy,
    air,
    liquid,
  };
}

function occupancySums(rows: readonly OccupancyRow[]): [number, number] {
  let cubicles = 0;
  let occupied = 0;
  for (const r of rows) {
    for (const g of OCCUPANCY_KEYS) {
      cubicles += r[g].count;
      occupied += r[g].occupy;
    }
  }
  return [cubicles, occupied];
}

const ratio = (r: OccupancyRow) => {
  const count = OCCUPANCY_KEYS.reduce((n, g) => n + r[g].count, 0);
  return count > 0 ? OCCUPANCY_KEYS.reduce((n, g) => n + r[g].occupy, 0) / count : 0;
};
const byBusy = (a: OccupancyRow, b: OccupancyRow) => ratio(b) - ratio(a) || a.toilet_id - b.toilet_id;

function occupancyWith(row: OccupancyRow, p: DevicePush): OccupancyRow {
  const next: OccupancyRow = { ...row, online: p.online };
  for (const g of OCCUPANCY_KEYS) {
    const count = num(p.data[`${g}_count`]) ?? row[g].count;
    const occupy = num(p.data[`${g}_occupy`]) ?? row[g].occupy;
    next[g] = { count, occupy: Math.min(occupy, count) };
  }
  return next;
}

/** An air row with new readings: score and levels as the server computes them. */
export function airWith(row: AirRow, data: Record<string, unknown>): AirRow {
  const gases = { ...row.gases };
  let changed = false;
  for (const g of GASES) {
    const v = num(data[g]);
    if (v !== null) {
      gases[g] = v;
      changed = true;
    }
  }
  if (!changed) return row;
  const gas_levels: AirRow['gas_levels'] = {};
  for (const [g, v] of Object.entries(gases)) gas_levels[g] = gasLevel(g as Gas, v);
  const score = Math.round(airScore(gases) * 1000) / 1000;
  const level = Object.values(gas_levels).includes('poor') ? 'poor' : scoreLevel(score);
  return { ...row, gases, gas_levels, score, level };
}

/** Adds a push's uses to its hour of today's curve (at most 24 hours: a day's worth). */
function addVisitors(visitors: DatacenterOverview['visitors'], p: DevicePush) {
  const hour = Math.floor(p.time / HOUR) * HOUR;
  const add = (v: DatacenterOverview['visitors'][number]) => ({
    hour: v.hour,
    male: v.male + (num(p.data.male_times) ?? 0),
    female: v.female + (num(p.data.female_times) ?? 0),
    others: v.others + (num(p.data.others_times) ?? 0),
  });
  const i = visitors.findIndex((v) => v.hour === hour);
  if (i >= 0) return visitors.map((v, j) => (j === i ? add(v) : v));
  // A report from another day (a late one, or after midnight before the next fetch) is not
  // today's curve; the next fetch starts the new day.
  const last = visitors.at(-1);
  if (last && (hour < last.hour || localDay(hour) !== localDay(last.hour))) return visitors;
  return [...visitors, add({ hour, male: 0, female: 0, others: 0 })].slice(-24);
}

/** An alarm opened, acknowledged or closed: the feed (newest first, bounded) and the counts. */
export function applyAlarm(ov: DatacenterOverview, a: AlarmRow): DatacenterOverview {
  const before = ov.alarms.find((x) => x.id === a.id);
  let { alarms_open, alarms_active } = ov.totals;
  const was = before?.status ?? (a.status === 'open' ? null : undefined);
  // Unknown earlier state (an alarm older than the feed changing): the next fetch counts it.
  if (was !== undefined) {
    if (was === 'open') alarms_open -= 1;
    if (was === 'open' || was === 'acked') alarms_active -= 1;
    if (a.status === 'open') alarms_open += 1;
    if (a.status === 'open' || a.status === 'acked') alarms_active += 1;
  }
  const rest = ov.alarms.filter((x) => x.id !== a.id);
  const alarms = before
    ? ov.alarms.map((x) => (x.id === a.id ? a : x))
    : [a, ...rest].slice(0, DATACENTER_LIMITS.alarms);
  return {
    ...ov,
    alarms,
    totals: {
      ...ov.totals,
      alarms_open: Math.max(0, alarms_open),
      alarms_active: Math.max(0, alarms_active),
    },
  };
}

/** A new comment: the feed, today's count, the day's average, flags and stars. */
export function applyComment(ov: DatacenterOverview, c: CommentFeedRow): DatacenterOverview {
  if (ov.comments.some((x) => x.id === c.id)) return ov;
  const comments = [c, ...ov.comments].slice(0, DATACENTER_LIMITS.comments);
  const day = c.created_at.slice(0, 10);
  const last = ov.ratings.days.at(-1);
  if (!last || last.day !== day) return { ...ov, comments };
  const count = last.count + 1;
  const avg = Math.round((((last.avg ?? 0) * last.count + c.star_level) / count) * 100) / 100;
  const flags = { ...ov.ratings.flags };
  for (const f of Object.keys(flags) as (keyof typeof flags)[]) if (c[f]) flags[f] += 1;
  const stars = ov.ratings.stars.map((n, i) => (i === c.star_level - 1 ? n + 1 : n));
  return {
    ...ov,
    comments,
    totals: { ...ov.totals, comments_today: ov.totals.comments_today + 1 },
    ratings: { days: [...ov.ratings.days.slice(0, -1), { day, count, avg }], flags, stars },
  };
}

/** The map's points follow their gateways' online state. */
export function applyMapPushes(map: DatacenterMap, pushes: readonly DevicePush[]): DatacenterMap {
  const online = new Map<number, boolean>();
  for (const p of pushes) if (p.kind === 'gateway') online.set(p.id, p.online);
  if (online.size === 0) return map;
  let changed = false;
  const points = map.points.map((pt) => {
    const o = pt.gateway_id !== null ? online.get(pt.gateway_id) : undefined;
    if (o === undefined || o === pt.online) return pt;
    changed = true;
    return { ...pt, online: o };
  });
  return changed ? { ...map, points } : map;
}
