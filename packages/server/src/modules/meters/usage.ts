import { METER_USAGE, periodStart, type UsageGrain } from '@se/core';

const HOUR = 3_600_000;

export interface MeterState {
  ts: number;
  reading: number;
}

export interface UsagePiece {
  device_id: number;
  grain: UsageGrain;
  start: number;
  usage: number;
  gap: boolean;
  resets: number;
}

export interface MeterReport {
  device_id: number;
  ts: number;
  reading: number;
}

/**
 * Usage from cumulative readings, pure: `states` holds each meter's last reading (updated in
 * place), `reports` the batch's new readings. Per pair of consecutive readings:
 * - a higher reading: the difference is spread over the hours between the two in proportion
 *   to time; a pair further apart than `gapMs` marks those hours `gap` (an even spread is an
 *   estimate); one further apart than `maxSpreadMs` puts it all on the later reading's hour,
 *   marked `gap`;
 * - a lower reading: the meter was reset or replaced. Nothing is counted for the pair (what
 *   the old meter did after its last reading and the new one before its first is unknown);
 *   the later reading's hour counts a reset and is marked `gap`, and the new reading becomes
 *   the base;
 * - a reading not newer than the last one (late, out of order) is kept in history but does
 *   not change usage: it cannot be placed without inventing.
 * Day and month rows are the sums of their hours (UTC+8), gap if any hour is.
 */
export function deriveUsage(states: Map<number, MeterState>, reports: MeterReport[]): UsagePiece[] {
  const out = new Map<string, UsagePiece>();
  const add = (device: number, hourStart: number, usage: number, gap: boolean, resets: number) => {
    for (const grain of ['hour', 'day', 'month'] as const) {
      const start = grain === 'hour' ? hourStart : periodStart(grain, hourStart);
      const key = `${device}|${grain}|${start}`;
      const p = out.get(key);
      if (p) {
        p.usage += usage;
        p.gap ||= gap;
        p.resets += resets;
      } else out.set(key, { device_id: device, grain, start, usage, gap, resets });
    }
  };
  const sorted = [...reports].sort((a, b) => a.device_id - b.device_id || a.ts - b.ts);
  for (const r of sorted) {
    const last = states.get(r.device_id);
    if (!last) {
      states.set(r.device_id, { ts: r.ts, reading: r.reading });
      continue;
    }
    if (r.ts <= last.ts) continue;
    const hourOfReading = Math.floor(r.ts / HOUR) * HOUR;
    if (r.reading < last.reading) {
      add(r.device_id, hourOfReading, 0, true, 1);
    } else {
      const delta = r.reading - last.reading;
      const span = r.ts - last.ts;
      if (span > METER_USAGE.maxSpreadMs) add(r.device_id, hourOfReading, delta, true, 0);
      else {
        const gap = span > METER_USAGE.gapMs;
        // Each hour the interval (last.ts, r.ts] touches gets its share of the difference.
        for (let h = Math.floor(last.ts / HOUR) * HOUR; h < r.ts; h += HOUR) {
          const overlap = Math.min(r.ts, h + HOUR) - Math.max(last.ts, h);
          if (overlap <= 0) continue;
          add(r.device_id, h, (delta * overlap) / span, gap, 0);
        }
      }
    }
    states.set(r.device_id, { ts: r.ts, reading: r.reading });
  }
  return [...out.values()];
}
