import { describe, expect, it } from 'vitest';
import { openedAt } from './patrols.ts';

/** Epoch ms of a UTC+8 wall-clock time. */
const at = (s: string) => Date.parse(`${s}+08:00`);

describe('patrol opening hours (UTC+8)', () => {
  it.each([
    // [now, open, close, the current opening's start or null (closed)]
    ['2026-11-20T10:00', '08:00', '20:00', '2026-11-20T08:00'],
    ['2026-11-20T07:59', '08:00', '20:00', null],
    ['2026-11-20T20:01', '08:00', '20:00', null],
    // Across midnight: 18:00 to 02:00 the next morning.
    ['2026-11-20T19:00', '18:00', '02:00', '2026-11-20T18:00'],
    ['2026-11-21T01:30', '18:00', '02:00', '2026-11-20T18:00'],
    ['2026-11-21T02:01', '18:00', '02:00', null],
    ['2026-11-21T17:59', '18:00', '02:00', null],
    // The first of a month, opened on the last day of the one before.
    ['2026-12-01T00:10', '22:00', '06:00', '2026-11-30T22:00'],
  ])('at %s, open %s–%s: %s', (now, open, close, want) => {
    expect(openedAt(at(now), open, close)).toBe(want === null ? null : at(want));
  });
});
