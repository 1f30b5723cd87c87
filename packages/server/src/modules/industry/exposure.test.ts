// Exposure figures against hand-computed TWA and STEL (GBZ 2.1-2019, 25 °C, 101.3 kPa).
import { describe, expect, it } from 'vitest';
import { ppmToMgm3 } from '@se/core';
import { gasExposure, judge, type Sample } from './exposure.ts';

const MIN = 60_000;
const from = Date.UTC(2026, 5, 1, 0); // 08:00 UTC+8
const to = from + 8 * 60 * MIN;

/** A reading every `step` minutes over [0, minutes), ppm given by `f(minute)`. */
const series = (minutes: number, step: number, f: (m: number) => number): Sample[] =>
  Array.from({ length: minutes / step }, (_, i) => ({ ts: from + i * step * MIN, ppm: f(i * step) }));

describe('occupational exposure', () => {
  it('converts ppm to mg/m³ with the molar volume 24.45', () => {
    // NH3 M = 17.03: 20 ppm × 17.03 / 24.45 = 13.9305 mg/m³.
    expect(ppmToMgm3('nh3', 20)).toBeCloseTo(13.9305, 4);
    // H2S M = 34.08: 7.174 ppm is the 10 mg/m³ MAC.
    expect(ppmToMgm3('h2s', 7.174)).toBeCloseTo(10, 2);
    // CO2 M = 44.01: 5000 ppm = 9000 mg/m³ (its PC-TWA).
    expect(ppmToMgm3('co2', 5000)).toBeCloseTo(9000, 0);
  });

  it('gives TWA and the worst 15 minutes of a shift with a spike', () => {
    // 20 ppm all shift except 60 ppm from 10:00 to 10:15 (minutes 120–135), a reading every 5 min.
    const e = gasExposure(
      'nh3',
      series(480, 5, (m) => (m >= 120 && m < 135 ? 60 : 20)),
      from,
      to,
    );
    // TWA = (20 × 465 + 60 × 15) / 480 = 21.25 ppm = 14.8013 mg/m³.
    expect(e.twa).toBeCloseTo((21.25 * 17.03) / 24.45, 6);
    // STEL = 60 ppm over exactly those 15 minutes = 41.7914 mg/m³.
    expect(e.stel).toBeCloseTo((60 * 17.03) / 24.45, 6);
    expect(e.coveredMs).toBe(480 * MIN);
    const v = judge('nh3', e);
    expect(v.verdict).toBe('over');
    expect(v.breaches).toEqual(['PC-STEL 41.791 > 30']);
  });

  it('counts unmeasured time as none: about half a shift at 40 ppm', () => {
    // Readings each minute for 240 minutes; the last holds its 5 minutes: 244 measured.
    const e = gasExposure(
      'nh3',
      series(240, 1, () => 40),
      from,
      to,
    );
    // TWA = 40 × 244 / 480 = 20.333 ppm = 14.163 mg/m³.
    expect(e.twa).toBeCloseTo(((40 * 244) / 480) * (17.03 / 24.45), 6);
    expect(e.coveredMs).toBe(244 * MIN);
    // A window straddling the end of the readings is not fully measured: STEL stays 40 ppm.
    expect(e.stel).toBeCloseTo((40 * 17.03) / 24.45, 6);
    // 40 ppm = 27.86 mg/m³: above PC-TWA 20 if it lasted the shift, but the TWA is 14.16.
    expect(judge('nh3', e).verdict).toBe('ok');
  });

  it('averages a ramp over the worst 15 minutes and holds a reading at most 5 minutes', () => {
    // Readings every 10 minutes: each holds 5 minutes, then nothing is measured.
    const sparse = gasExposure(
      'nh3',
      series(480, 10, () => 30),
      from,
      to,
    );
    expect(sparse.coveredMs).toBe(240 * MIN);
    expect(sparse.stel).toBeNull(); // no 15 minutes fully measured
    // Ramp: 0,10,20,…ppm per minute step for the first 30 minutes, then 0.
    const ramp = gasExposure(
      'co2',
      series(480, 1, (m) => (m < 30 ? m * 1000 : 0)),
      from,
      to,
    );
    // Worst 15 minutes: minutes 15–29, mean (15+…+29)×1000/15 = 22 000 ppm.
    expect(ramp.stel).toBeCloseTo((22_000 * 44.01) / 24.45, 3);
    expect(judge('co2', ramp).breaches[0]).toMatch(/^PC-STEL 39600 > 18000$/);
  });

  it('judges H2S by its ceiling (MAC) only', () => {
    const e = gasExposure(
      'h2s',
      series(480, 5, (m) => (m === 200 ? 8 : 1)),
      from,
      to,
    );
    const v = judge('h2s', e);
    expect(v.max).toBeCloseTo((8 * 34.08) / 24.45, 3);
    expect(v.breaches).toEqual(['MAC 11.151 > 10']);
  });
});
