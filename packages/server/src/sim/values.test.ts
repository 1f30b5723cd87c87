import { describe, expect, it } from 'vitest';
import { ValueModel, isQuiet, reviewShare } from './values.ts';

// The demo's rhythms, as someone looking at the console would notice them (times in UTC+8).
const at = (day: number, hour: number) => Date.UTC(2026, 10, day, hour - 8, 0, 0);
// 2026-11-25 is a Wednesday, 2026-11-28 a Saturday.
const WED = 25;
const SAT = 28;

const average = (n: number, f: (i: number) => number) =>
  Array.from({ length: n }, (_, i) => f(i)).reduce((a, b) => a + b, 0) / n;

describe('demo rhythms', () => {
  it('fills the cubicles at the morning and evening peaks, not at night', () => {
    const gw = new ValueModel({ ser_num: 'DEMO-GW-1', token: '', kind: 'gateway' });
    const occupied = (hour: number) =>
      average(50, () => {
        const d = gw.next(at(WED, hour));
        return (d.male_occupy as number) + (d.female_occupy as number);
      });
    const night = occupied(3);
    expect(occupied(8.5)).toBeGreaterThan(night * 3);
    expect(occupied(18)).toBeGreaterThan(night * 3);
  });

  it('brings more reviews at weekends', () => {
    expect(reviewShare(at(SAT, 15))).toBeGreaterThan(reviewShare(at(WED, 15)) * 1.5);
  });

  it('keeps the night gateway quiet from 22:00 to 06:00 only', () => {
    const d = { quietHours: [22, 6] as [number, number] };
    expect(isQuiet(d, at(WED, 23))).toBe(true);
    expect(isQuiet(d, at(WED, 3))).toBe(true);
    expect(isQuiet(d, at(WED, 12))).toBe(false);
    expect(isQuiet({}, at(WED, 3))).toBe(false);
  });

  it('gives the unhappy toilet low stars and complaints', () => {
    const stars = (ratings?: 'poor') => {
      const m = new ValueModel({ ser_num: 'DEMO-EVL-5', token: '', kind: 'evaluate', ratings });
      return average(200, () => m.next(at(WED, 12)).star_level as number);
    };
    expect(stars('poor')).toBeLessThan(2.5);
    expect(stars()).toBeGreaterThan(4);
  });

  it('runs a nearly empty deodoriser dry within a day, raising the lack-of-liquid bit', () => {
    const m = new ValueModel({ ser_num: 'DEMO-JWB-3', token: '', kind: 'jwb', liquid: 45 });
    let warning = 0;
    for (let t = at(WED, 6); t < at(WED + 1, 6) && !warning; t += 5_000)
      warning = m.next(t).warning as number;
    expect(warning).not.toBe(0);
  });
});
