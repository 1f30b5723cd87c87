import { CST_OFFSET_MS, METER_USAGE, periodStart } from '@se/core';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface HourUsage {
  device_id: number;
  start: number;
  usage: number;
}

export interface NightSignal {
  device_id: number;
  type: 'night_flow' | 'base_load';
  /** undefined: not known (hours missing), which neither opens nor closes. */
  active: boolean;
  at: number;
  message: string;
  detail: Record<string, unknown>;
}

/** Start of the UTC+8 day holding `ms` plus `h` hours. */
const at = (dayStart: number, h: number) => dayStart + h * HOUR;

/** The latest UTC+8 day whose `hour`:00 is not after `ms`. */
function lastDayWith(ms: number, hour: number) {
  const d = periodStart('day', ms);
  return at(d, hour) <= ms ? d : d - DAY;
}

function sumHours(rows: Map<number, number>, from: number, to: number) {
  let sum = 0;
  let n = 0;
  for (let h = from; h < to; h += HOUR) {
    const u = rows.get(h);
    if (u === undefined) continue;
    sum += u;
    n++;
  }
  return { sum, n, hours: (to - from) / HOUR };
}

/** The hour range the night checks read for meters whose newest report is at `ms`. */
export function nightWindow(ms: number) {
  return { from: periodStart('day', ms) - (METER_USAGE.nightFlow.nights + 1) * DAY, to: ms + HOUR };
}

/**
 * Water: usage in 02:00–04:00 on each of the last N nights (the newest night whose 04:00
 * has passed at `now`) above `minUsage` opens night flow; a fully reported night below
 * it closes it. Hours without any reading make the night unknown (no flow counted).
 */
export function nightFlow(device: number, hours: Map<number, number>, now: number): NightSignal | null {
  const nf = METER_USAGE.nightFlow;
  const last = lastDayWith(now, nf.toHour);
  const nights: number[] = [];
  let known = true;
  for (let i = 0; i < nf.nights; i++) {
    const d = last - i * DAY;
    const s = sumHours(hours, at(d, nf.fromHour), at(d, nf.toHour));
    if (s.n < s.hours) {
      if (i === 0) known = false;
      nights.push(Number.NaN);
    } else nights.push(s.sum);
  }
  const flowing = nights.filter((u) => u > nf.minUsage).length;
  const day = new Date(last + CST_OFFSET_MS).toISOString().slice(0, 10);
  const detail = { nights: nights.map((u) => (Number.isNaN(u) ? null : Math.round(u * 1000) / 1000)), day };
  if (flowing === nf.nights)
    return {
      device_id: device,
      type: 'night_flow',
      active: true,
      at: at(last, nf.toHour),
      message: `夜间流水：连续 ${nf.nights} 晚 ${nf.fromHour}:00–${nf.toHour}:00 有用水（最近一晚 ${detail.nights[0]} m³），疑似漏水`,
      detail,
    };
  if (!known || nights[0]! > nf.minUsage) return null;
  return {
    device_id: device,
    type: 'night_flow',
    active: false,
    at: at(last, nf.toHour),
    message: '',
    detail,
  };
}

/**
 * Electricity: the mean hourly use of 00:00–05:00 against the mean hourly use of
 * 08:00–18:00 the day before; above `share` of it (with a day mean of at least
 * `minDayMean`) opens after-hours base load, below it closes. Needs every hour reported.
 */
export function baseLoad(device: number, hours: Map<number, number>, now: number): NightSignal | null {
  const bl = METER_USAGE.baseLoad;
  const d = lastDayWith(now, bl.nightTo);
  const night = sumHours(hours, at(d, bl.nightFrom), at(d, bl.nightTo));
  const day = sumHours(hours, at(d - DAY, bl.dayFrom), at(d - DAY, bl.dayTo));
  if (night.n < night.hours || day.n < day.hours) return null;
  const nightMean = night.sum / night.hours;
  const dayMean = day.sum / day.hours;
  const detail = {
    night_mean: Math.round(nightMean * 1000) / 1000,
    day_mean: Math.round(dayMean * 1000) / 1000,
    share: bl.share,
    day: new Date(d + CST_OFFSET_MS).toISOString().slice(0, 10),
  };
  const active = dayMean >= bl.minDayMean && nightMean > bl.share * dayMean;
  return {
    device_id: device,
    type: 'base_load',
    active,
    at: at(d, bl.nightTo),
    message: active
      ? `夜间基础负荷偏高：0:00–5:00 平均 ${detail.night_mean} kWh/h，超过白天平均 ${detail.day_mean} kWh/h 的 ${bl.share * 100}%`
      : '',
    detail,
  };
}
