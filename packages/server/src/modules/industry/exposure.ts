import {
  EXPOSURE_GASES,
  EXPOSURE_HOLD_MS,
  EXPOSURE_LIMITS,
  periodStart,
  ppmToMgm3,
  type ExposureGas,
  type GasFigures,
} from '@se/core';

const MIN = 60_000;
const STEL_MS = 15 * MIN;
const TWA_MS = 8 * 60 * MIN;

export interface Sample {
  ts: number;
  ppm: number;
}

interface Segment {
  a: number;
  b: number;
  /** mg/m³ */
  c: number;
}

/**
 * The readings as a step function inside [from, to): each holds until the next reading,
 * at most `EXPOSURE_HOLD_MS` (a silent monitor measures nothing). Samples sorted by time;
 * one shortly before `from` carries into it.
 */
function segments(gas: ExposureGas, samples: Sample[], from: number, to: number): Segment[] {
  const out: Segment[] = [];
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    const next = samples[i + 1]?.ts ?? Number.POSITIVE_INFINITY;
    const a = Math.max(s.ts, from);
    const b = Math.min(next, s.ts + EXPOSURE_HOLD_MS, to);
    if (b > a) out.push({ a, b, c: ppmToMgm3(gas, s.ppm) });
  }
  return out;
}

/** Integral of the step function over [x, y) and the time of it covered by readings. */
function integral(segs: Segment[], x: number, y: number) {
  let sum = 0;
  let covered = 0;
  for (const s of segs) {
    if (s.b <= x) continue;
    if (s.a >= y) break;
    const len = Math.min(s.b, y) - Math.max(s.a, x);
    sum += s.c * len;
    covered += len;
  }
  return { sum, covered };
}

export interface GasExposure {
  /** mg/m³; GBZ 2.1: Σ(Ci·Ti) / 8 h over the shift (unmeasured time counts as none). */
  twa: number | null;
  /** Worst average over 15 fully measured minutes, mg/m³. */
  stel: number | null;
  max: number | null;
  coveredMs: number;
}

/** One gas's exposure over a shift [from, to) from one monitor's readings (ppm). */
export function gasExposure(gas: ExposureGas, samples: Sample[], from: number, to: number): GasExposure {
  const segs = segments(gas, samples, from, to);
  if (!segs.length) return { twa: null, stel: null, max: null, coveredMs: 0 };
  const all = integral(segs, from, to);
  let stel: number | null = null;
  // A worst window starts at a step's start or ends at a step's end: try each.
  const starts = new Set<number>();
  for (const s of segs) {
    starts.add(s.a);
    starts.add(s.b - STEL_MS);
  }
  for (const x of starts) {
    if (x < from || x + STEL_MS > to) continue;
    const w = integral(segs, x, x + STEL_MS);
    if (w.covered < STEL_MS - 1) continue;
    const avg = w.sum / STEL_MS;
    if (stel === null || avg > stel) stel = avg;
  }
  return {
    twa: all.sum / TWA_MS,
    stel,
    max: Math.max(...segs.map((s) => s.c)),
    coveredMs: all.covered,
  };
}

const r3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

/**
 * The verdict of one gas against GBZ 2.1-2019: breaches of PC-TWA, PC-STEL and MAC (the
 * highest reading stands for the ceiling). A TWA of a shift still running is a lower bound,
 * so it can breach but not yet pass.
 */
export function judge(gas: ExposureGas, e: Pick<GasExposure, 'twa' | 'stel' | 'max'>): GasFigures {
  const l = EXPOSURE_LIMITS[gas];
  const breaches: string[] = [];
  if (l.twa !== null && e.twa !== null && e.twa > l.twa) breaches.push(`PC-TWA ${r3(e.twa)} > ${l.twa}`);
  if (l.stel !== null && e.stel !== null && e.stel > l.stel)
    breaches.push(`PC-STEL ${r3(e.stel)} > ${l.stel}`);
  if (l.mac !== null && e.max !== null && e.max > l.mac) breaches.push(`MAC ${r3(e.max)} > ${l.mac}`);
  const known = e.twa !== null || e.max !== null;
  return {
    twa: r3(e.twa),
    stel: r3(e.stel),
    max: r3(e.max),
    verdict: breaches.length ? 'over' : known ? 'ok' : 'unknown',
    breaches,
  };
}

/** Worst of several monitors in one area: the highest TWA, STEL and reading per gas. */
export function worstOf(list: GasExposure[]): GasExposure {
  const pick = (f: (e: GasExposure) => number | null) => {
    const v = list.map(f).filter((x): x is number => x !== null);
    return v.length ? Math.max(...v) : null;
  };
  return {
    twa: pick((e) => e.twa),
    stel: pick((e) => e.stel),
    max: pick((e) => e.max),
    coveredMs: Math.max(0, ...list.map((e) => e.coveredMs)),
  };
}

export type Readings = { ts: number; data: Partial<Record<ExposureGas, number>> }[];

/** Per gas, the samples of one monitor's readings (sorted by time). */
export function samplesOf(readings: Readings): Record<ExposureGas, Sample[]> {
  const out = Object.fromEntries(EXPOSURE_GASES.map((g) => [g, [] as Sample[]])) as Record<
    ExposureGas,
    Sample[]
  >;
  for (const r of readings)
    for (const g of EXPOSURE_GASES) {
      const v = r.data[g];
      if (typeof v === 'number' && Number.isFinite(v)) out[g].push({ ts: r.ts, ppm: v });
    }
  return out;
}

const HOUR = 60 * MIN;

/** The shift (UTC+8) that ended last at `ms`: its start and end. */
export function lastEndedShift(ms: number) {
  const end = periodStart('day', ms) + Math.floor((ms - periodStart('day', ms)) / (8 * HOUR)) * 8 * HOUR;
  return { start: end - 8 * HOUR, end };
}

/** Every gas of one monitor over [from, to): exposure and verdict. */
export function monitorShift(readings: Readings, from: number, to: number) {
  const samples = samplesOf(readings);
  return Object.fromEntries(EXPOSURE_GASES.map((g) => [g, gasExposure(g, samples[g], from, to)])) as Record<
    ExposureGas,
    GasExposure
  >;
}
