import { describe, expect, it } from 'vitest';
import {
  computeDay,
  dayOf,
  daysTouchedBy,
  type CalendarKind,
  type DayResult,
  type SchemeRule,
} from './compute.ts';

/** Epoch ms of a UTC+8 wall-clock time 'YYYY-MM-DD HH:mm[:ss]'. */
const at = (s: string) => Date.parse(`${s.replace(' ', 'T')}${s.length === 16 ? ':00' : ''}+08:00`);

const office: SchemeRule = {
  id: 1,
  segments: [{ start: '09:00', end: '18:00' }],
  late_grace: 5,
  early_grace: 5,
  earliest_in: 120,
  latest_out: 240,
  workdays: [1, 2, 3, 4, 5],
  follow_holidays: true,
};
const night: SchemeRule = {
  ...office,
  id: 2,
  segments: [{ start: '22:00', end: '06:00' }],
  workdays: [1, 2, 3, 4, 5, 6, 7],
};
const split: SchemeRule = {
  ...office,
  id: 3,
  segments: [
    { start: '08:00', end: '12:00' },
    { start: '14:00', end: '18:00' },
  ],
};

// 2026 calendar (State Council notice of 2025-11-04): 2026-02-16 (Mon) is in the Spring
// Festival holiday, 2026-02-14 (Sat) a make-up workday.
const calendar = new Map<string, CalendarKind>([
  ['2026-02-16', 'holiday'],
  ['2026-02-14', 'workday'],
]);

type Expect = Pick<DayResult, 'status' | 'late_minutes' | 'early_minutes' | 'missing'> & {
  decided?: number[];
};

// Hand-computed cases. Monday 2026-03-02 unless said otherwise.
const CASES: [string, string, SchemeRule | null, [number, string][], Expect][] = [
  [
    'on time',
    '2026-03-02',
    office,
    [
      [1, '2026-03-02 08:55'],
      [2, '2026-03-02 18:01'],
    ],
    { status: 'normal', late_minutes: 0, early_minutes: 0, missing: 0, decided: [1, 2] },
  ],
  [
    'late exactly at the grace limit is not late',
    '2026-03-02',
    office,
    [
      [1, '2026-03-02 09:05:59'],
      [2, '2026-03-02 18:00'],
    ],
    { status: 'normal', late_minutes: 0, early_minutes: 0, missing: 0 },
  ],
  [
    'late by one minute past grace: 6 minutes from the start',
    '2026-03-02',
    office,
    [
      [1, '2026-03-02 09:06:00'],
      [2, '2026-03-02 18:00'],
    ],
    { status: 'late', late_minutes: 6, early_minutes: 0, missing: 0 },
  ],
  [
    'early by one minute past grace',
    '2026-03-02',
    office,
    [
      [1, '2026-03-02 09:00'],
      [2, '2026-03-02 17:54:30'],
    ],
    { status: 'early', late_minutes: 0, early_minutes: 6, missing: 0 },
  ],
  [
    'late and early both counted',
    '2026-03-02',
    office,
    [
      [1, '2026-03-02 09:30'],
      [2, '2026-03-02 17:00'],
    ],
    { status: 'late', late_minutes: 30, early_minutes: 60, missing: 0 },
  ],
  [
    'missing out punch',
    '2026-03-02',
    office,
    [[1, '2026-03-02 08:59']],
    { status: 'missing', late_minutes: 0, early_minutes: 0, missing: 1, decided: [1] },
  ],
  [
    'missing in punch, late out does not count as in',
    '2026-03-02',
    office,
    [[1, '2026-03-02 19:00']],
    { status: 'missing', late_minutes: 0, early_minutes: 0, missing: 1 },
  ],
  [
    'no punch on a workday is absent',
    '2026-03-02',
    office,
    [],
    { status: 'absent', late_minutes: 0, early_minutes: 0, missing: 0 },
  ],
  [
    'punches outside the valid windows do not count',
    '2026-03-02',
    office,
    [
      [1, '2026-03-02 06:59'],
      [2, '2026-03-02 22:01'],
    ],
    { status: 'absent', late_minutes: 0, early_minutes: 0, missing: 0 },
  ],
  [
    'duplicate punches: first in, last out',
    '2026-03-02',
    office,
    [
      [1, '2026-03-02 08:50'],
      [2, '2026-03-02 08:50:20'],
      [3, '2026-03-02 09:20'],
      [4, '2026-03-02 17:30'],
      [5, '2026-03-02 18:02'],
      [6, '2026-03-02 18:02'],
    ],
    { status: 'normal', late_minutes: 0, early_minutes: 0, missing: 0, decided: [1, 6] },
  ],
  [
    'weekend is rest even with punches',
    '2026-03-07',
    office,
    [
      [1, '2026-03-07 09:00'],
      [2, '2026-03-07 18:00'],
    ],
    { status: 'rest', late_minutes: 0, early_minutes: 0, missing: 0 },
  ],
  [
    'public holiday on a Monday is rest',
    '2026-02-16',
    office,
    [],
    { status: 'rest', late_minutes: 0, early_minutes: 0, missing: 0 },
  ],
  [
    'make-up workday on a Saturday is due',
    '2026-02-14',
    office,
    [[1, '2026-02-14 09:10']],
    { status: 'missing', late_minutes: 10, early_minutes: 0, missing: 1 },
  ],
  [
    'make-up workday without punches is absent',
    '2026-02-14',
    office,
    [],
    { status: 'absent', late_minutes: 0, early_minutes: 0, missing: 0 },
  ],
  [
    'cross-midnight shift: out punch next morning belongs to the start day',
    '2026-03-02',
    night,
    [
      [1, '2026-03-02 22:12'],
      [2, '2026-03-03 06:03'],
    ],
    { status: 'late', late_minutes: 12, early_minutes: 0, missing: 0, decided: [1, 2] },
  ],
  [
    'cross-midnight shift: leaving at 05:30 is 30 minutes early',
    '2026-03-02',
    night,
    [
      [1, '2026-03-02 21:58'],
      [2, '2026-03-03 05:30'],
    ],
    { status: 'early', late_minutes: 0, early_minutes: 30, missing: 0 },
  ],
  [
    "cross-midnight shift: the next night punches are not this day's",
    '2026-03-02',
    night,
    [
      [1, '2026-03-01 22:00'],
      [2, '2026-03-02 06:00'],
      [3, '2026-03-03 22:00'],
    ],
    { status: 'absent', late_minutes: 0, early_minutes: 0, missing: 0 },
  ],
  [
    'split shift: four punches, afternoon late',
    '2026-03-02',
    split,
    [
      [1, '2026-03-02 07:55'],
      [2, '2026-03-02 12:01'],
      [3, '2026-03-02 14:07'],
      [4, '2026-03-02 18:00'],
    ],
    { status: 'late', late_minutes: 7, early_minutes: 0, missing: 0, decided: [1, 2, 3, 4] },
  ],
  [
    'split shift: a punch in the break before its middle is the morning out',
    '2026-03-02',
    split,
    [
      [1, '2026-03-02 08:00'],
      [2, '2026-03-02 12:59'],
      [3, '2026-03-02 13:01'],
      [4, '2026-03-02 18:00'],
    ],
    { status: 'normal', late_minutes: 0, early_minutes: 0, missing: 0, decided: [1, 2, 3, 4] },
  ],
  [
    'split shift: morning only is missing two punches',
    '2026-03-02',
    split,
    [
      [1, '2026-03-02 08:00'],
      [2, '2026-03-02 12:00'],
    ],
    { status: 'missing', late_minutes: 0, early_minutes: 0, missing: 2 },
  ],
  [
    'no scheme is unscheduled, not absent',
    '2026-03-02',
    null,
    [],
    { status: 'unscheduled', late_minutes: 0, early_minutes: 0, missing: 0 },
  ],
];

describe('daily result', () => {
  it.each(CASES)('%s', (_name, day, rule, punches, want) => {
    const r = computeDay(
      day,
      rule,
      calendar,
      punches.map(([id, t]) => ({ id, at: at(t) })),
    );
    expect({
      status: r.status,
      late_minutes: r.late_minutes,
      early_minutes: r.early_minutes,
      missing: r.missing,
    }).toEqual({
      status: want.status,
      late_minutes: want.late_minutes,
      early_minutes: want.early_minutes,
      missing: want.missing,
    });
    if (want.decided)
      expect(r.decided.map((d) => d.punch_id).filter((x) => x !== null)).toEqual(want.decided);
  });

  it('a punch arriving two days late changes the day it belongs to, not the day it arrived', () => {
    // The in punch of Monday arrives on Wednesday (a terminal that was offline): the
    // recomputation of Monday with all its punches turns 缺卡 into 迟到.
    const before = computeDay('2026-03-02', office, calendar, [{ id: 2, at: at('2026-03-02 18:00') }]);
    expect(before.status).toBe('missing');
    const late = { id: 9, at: at('2026-03-02 09:08') };
    expect(daysTouchedBy(late.at)).toContain('2026-03-02');
    const after = computeDay('2026-03-02', office, calendar, [{ id: 2, at: at('2026-03-02 18:00') }, late]);
    expect(after).toMatchObject({ status: 'late', late_minutes: 8, missing: 0 });
  });

  it('days are UTC+8 whatever the host zone', () => {
    expect(dayOf(at('2026-03-02 00:30'))).toBe('2026-03-02');
    expect(dayOf(at('2026-03-01 23:59'))).toBe('2026-03-01');
    expect(daysTouchedBy(at('2026-03-03 05:00'))).toEqual(['2026-03-02', '2026-03-03']);
  });
});

describe("today's provisional result", () => {
  const day = (rule: SchemeRule, d: string, punches: [number, string][], now: string) =>
    computeDay(
      d,
      rule,
      calendar,
      punches.map(([id, t]) => ({ id, at: at(t) })),
      at(now),
    );

  it('nobody has punched at 10:30: pending (未到), not 旷工, until 22:00 (18:00 + 240 min)', () => {
    const r = day(office, '2026-03-02', [], '2026-03-02 10:30');
    expect(r).toMatchObject({ status: 'pending', due: true, present: false, missing: 0 });
    expect(r.settles_at).toBe(at('2026-03-02 22:00'));
  });

  it('in punch late by 7 minutes, out not yet at 15:00: pending with the late minutes, not 缺卡', () => {
    const r = day(office, '2026-03-02', [[1, '2026-03-02 09:07']], '2026-03-02 15:00');
    expect(r).toMatchObject({ status: 'pending', present: true, late_minutes: 7, missing: 0 });
  });

  it('after the out window closed the same day reads 旷工 / 缺卡', () => {
    expect(day(office, '2026-03-02', [], '2026-03-02 22:00').status).toBe('absent');
    expect(day(office, '2026-03-02', [[1, '2026-03-02 09:07']], '2026-03-02 22:01')).toMatchObject({
      status: 'missing',
      late_minutes: 7,
      missing: 1,
      settles_at: null,
    });
  });

  it('a complete day is final before the window closes', () => {
    const r = day(
      office,
      '2026-03-02',
      [
        [1, '2026-03-02 09:00'],
        [2, '2026-03-02 18:00'],
      ],
      '2026-03-02 18:30',
    );
    expect(r).toMatchObject({ status: 'normal', settles_at: null });
  });

  it("last night's shift (22:00–06:00, out window to 10:00) is still pending at 09:00 the next day", () => {
    const r = day(night, '2026-03-02', [[1, '2026-03-02 21:58']], '2026-03-03 09:00');
    expect(r).toMatchObject({ status: 'pending', present: true });
    expect(r.settles_at).toBe(at('2026-03-03 10:00'));
    expect(day(night, '2026-03-02', [[1, '2026-03-02 21:58']], '2026-03-03 10:00').status).toBe('missing');
  });

  it('a rest day is 休息, not pending', () => {
    expect(day(office, '2026-03-07', [], '2026-03-07 10:00').status).toBe('rest');
  });
});
