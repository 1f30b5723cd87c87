import { describe, expect, it } from 'vitest';
import { localMoment, resolveSchedule, type LocalMoment, type ScheduleRule } from './media-schedule.ts';

const rule = (id: number, over: Partial<ScheduleRule> = {}): ScheduleRule => ({
  id,
  playlist_id: id * 10,
  priority: 0,
  date_from: null,
  date_to: null,
  weekdays: 127,
  time_from: '00:00',
  time_to: '00:00',
  emergency: false,
  ...over,
});

/** 2026-11-25 is a Wednesday (weekday 3). */
const at = (date: string, weekday: number, hhmm: string): LocalMoment => {
  const [h, m] = hhmm.split(':').map(Number);
  return { date, weekday, minutes: h! * 60 + m! };
};
const WED = (hhmm: string) => at('2026-11-25', 3, hhmm);
const THU = (hhmm: string) => at('2026-11-26', 4, hhmm);
const MON = 1;
const WEEKDAYS = 0b0011111; // Mon–Fri
const WEEKEND = 0b1100000;

const morning = rule(1, { time_from: '08:00', time_to: '12:00' });
const allDay = rule(2);
const lunchPromo = rule(3, { time_from: '11:00', time_to: '13:00', priority: 5 });
const weekendOnly = rule(4, { weekdays: WEEKEND, priority: 9 });
const november = rule(5, { date_from: '2026-11-01', date_to: '2026-11-30', priority: 3 });
const december = rule(6, { date_from: '2026-12-01', date_to: '2026-12-31', priority: 99 });
const night = rule(7, { time_from: '22:00', time_to: '06:00', priority: 7 });
const mondayNight = rule(8, { time_from: '22:00', time_to: '06:00', priority: 8, weekdays: 1 << (MON - 1) });
const samePrioLater = rule(9, { date_from: '2026-11-20', priority: 3 });
const emergencyOld = rule(10, { emergency: true, priority: 0, date_to: '2020-01-01' });
const emergencyNew = rule(11, { emergency: true, priority: 0, time_from: '01:00', time_to: '02:00' });
const weekdaysOnly = rule(12, { weekdays: WEEKDAYS, priority: 1 });

describe('resolveSchedule: which playlist plays', () => {
  const cases: [string, ScheduleRule[], LocalMoment, number | null][] = [
    ['nothing scheduled: idle', [], WED('10:00'), null],
    ['inside the only window', [morning], WED('10:00'), 1],
    ['window start is inclusive', [morning], WED('08:00'), 1],
    ['window end is exclusive', [morning], WED('12:00'), null],
    ['before the window', [morning], WED('07:59'), null],
    ['equal times mean the whole day', [allDay], WED('23:59'), 2],
    ['overlap: the higher priority wins', [morning, lunchPromo], WED('11:30'), 3],
    ['overlap ends: back to the lower one', [morning, lunchPromo], WED('10:30'), 1],
    ['overlap with equal priority: the newer schedule', [allDay, morning], WED('09:00'), 2],
    [
      'equal priority: the later start date wins over the newer id',
      [samePrioLater, rule(14, { date_from: '2026-11-01', priority: 3 })],
      WED('09:00'),
      9,
    ],
    ['weekday not ticked: skipped', [allDay, weekendOnly], WED('09:00'), 2],
    ['weekday ticked: its priority counts', [allDay, weekendOnly], at('2026-11-28', 6, '09:00'), 4],
    ['Mon–Fri bits on a Sunday', [weekdaysOnly], at('2026-11-29', 7, '09:00'), null],
    ['inside the date range', [allDay, november], WED('09:00'), 5],
    ['date range end is inclusive', [november], at('2026-11-30', 1, '23:00'), 5],
    ['after the date range', [november], at('2026-12-01', 2, '09:00'), null],
    ['before the date range, even at top priority', [allDay, december], WED('09:00'), 2],
    ['past midnight: evening part', [night], WED('23:00'), 7],
    ['past midnight: early-morning part belongs to the day before', [night], THU('05:59'), 7],
    ['past midnight: ends at its end time', [night], THU('06:00'), null],
    [
      'past midnight on Mondays only: Tuesday 01:00 is Monday night',
      [mondayNight],
      at('2026-11-24', 2, '01:00'),
      8,
    ],
    [
      'past midnight on Mondays only: Monday 01:00 is Sunday night',
      [mondayNight],
      at('2026-11-23', 1, '01:00'),
      null,
    ],
    [
      'past midnight: date range is checked on the starting day',
      [rule(13, { time_from: '22:00', time_to: '02:00', date_to: '2026-11-25' })],
      THU('01:00'),
      13,
    ],
    ['emergency overrides every priority', [december, lunchPromo, emergencyOld], WED('11:30'), 10],
    ['emergency ignores its own dates and times until withdrawn', [emergencyOld], WED('03:00'), 10],
    ['several emergencies: the newest', [emergencyOld, emergencyNew, allDay], WED('09:00'), 11],
    ['emergency withdrawn (absent): back to the schedule', [allDay, lunchPromo], WED('11:30'), 3],
  ];
  it.each(cases)('%s', (_name, rules, moment, want) => {
    expect(resolveSchedule(rules, moment)?.id ?? null).toBe(want);
  });

  it('reads a moment on China time whatever the server zone', () => {
    // 2026-11-25T16:30Z is Thursday 00:30 in Shanghai.
    expect(localMoment(new Date('2026-11-25T16:30:00Z'))).toEqual({
      date: '2026-11-26',
      weekday: 4,
      minutes: 30,
    });
  });
});
