/**
 * The daily result of one employee on one day, from the scheme that applies, the holiday
 * calendar and the punches. Pure: no database, no clock, no host time zone. Every wall-clock
 * time is UTC+8 (SPEC §5): a day 'YYYY-MM-DD' starts at that date's 00:00 in UTC+8.
 *
 * Rules (docs/attendance.md):
 * - A scheme has one or two segments (in/out, or in/out twice for a split shift). A segment
 *   whose end is not after its start crosses midnight; the whole shift belongs to the day it
 *   starts (22:00–06:00 on the 3rd ends on the 4th and is the 3rd's record).
 * - Each required punch has a window: an in punch counts from `earliest_in` minutes before
 *   the segment's start to the segment's middle, an out punch from the middle to `latest_out`
 *   minutes after its end (a split shift's two segments split their break in half).
 *   The first punch in an in window is the in punch, the last in an out window the out punch;
 *   duplicates and repeats in between change nothing.
 * - Seconds are dropped (a punch at 09:05:59 is 09:05). Late when the in punch is more than
 *   `late_grace` minutes after the start; the late minutes count from the start. Early when
 *   the out punch is more than `early_grace` minutes before the end; minutes count to the end.
 * - A day is due when its weekday is one of the scheme's workdays, unless the calendar makes
 *   it a public holiday; a 调休 make-up workday is due whatever its weekday.
 * - A due day without any valid punch is 旷工; with some but not all required punches 缺卡.
 * - Provisional: computed at `now` before the shift's last window has closed, a day that would
 *   read 旷工 or 缺卡 is 'pending' (未到 without a punch, 进行中 with one) and counts as neither;
 *   `settles_at` says when the windows close and the day is to be computed again.
 */

import { shiftTimeline } from '@se/core';

export const DAY_MS = 86_400_000;
const MIN_MS = 60_000;
const TZ_MS = 8 * 3_600_000;

export type DayStatus =
  'normal' | 'late' | 'early' | 'missing' | 'absent' | 'rest' | 'unscheduled' | 'pending';
export type CalendarKind = 'holiday' | 'workday';

export interface SchemeRule {
  id: number;
  /** 'HH:mm' pairs; one pair or two (split shift). */
  segments: { start: string; end: string }[];
  late_grace: number;
  early_grace: number;
  /** Minutes before a segment's start from which an in punch counts. */
  earliest_in: number;
  /** Minutes after a segment's end until which an out punch counts. */
  latest_out: number;
  /** ISO weekdays 1 (Mon) … 7 (Sun). */
  workdays: number[];
  /** Public holidays are rest days and 调休 days are workdays. */
  follow_holidays: boolean;
}

export interface Punch {
  id: number;
  /** Epoch milliseconds. */
  at: number;
}

export interface DecidingPunch {
  segment: number;
  kind: 'in' | 'out';
  punch_id: number | null;
  at: number | null;
}

export interface DayResult {
  status: DayStatus;
  due: boolean;
  present: boolean;
  late_minutes: number;
  early_minutes: number;
  /** Required punches that were not found. */
  missing: number;
  /** The punches that decided the result, one per required punch (null = missing). */
  decided: DecidingPunch[];
  /** A provisional ('pending') result: when its punch windows close (epoch ms); else null. */
  settles_at: number | null;
}

/** Epoch ms of 00:00 UTC+8 of a 'YYYY-MM-DD' day. */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) - TZ_MS;
}

/** The UTC+8 date of an instant. */
export function dayOf(ms: number): string {
  return new Date(ms + TZ_MS).toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** ISO weekday of a day: 1 Monday … 7 Sunday. */
export function weekday(day: string): number {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

/** Minutes from the first possible in punch to the last possible out punch. */
export function span(rule: Pick<SchemeRule, 'segments' | 'earliest_in' | 'latest_out'>): {
  from: number;
  to: number;
} {
  const t = shiftTimeline(rule.segments);
  return { from: t[0]!.start - rule.earliest_in, to: t[t.length - 1]!.end + rule.latest_out };
}

/** Whether the scheme expects work on the day. */
export function isDue(rule: SchemeRule, day: string, calendar: ReadonlyMap<string, CalendarKind>): boolean {
  const kind = rule.follow_holidays ? calendar.get(day) : undefined;
  if (kind === 'holiday') return false;
  if (kind === 'workday') return true;
  return rule.workdays.includes(weekday(day));
}

/**
 * The days whose record a punch at `at` may belong to: the day it falls on and, for a shift
 * that ends after midnight, the day before. Recomputing both is always enough.
 */
export function daysTouchedBy(at: number): string[] {
  const d = dayOf(at);
  return [addDays(d, -1), d];
}

const floorMinute = (ms: number) => Math.floor(ms / MIN_MS) * MIN_MS;

export function computeDay(
  day: string,
  rule: SchemeRule | null,
  calendar: ReadonlyMap<string, CalendarKind>,
  punches: readonly Punch[],
  now?: number,
): DayResult {
  const base: DayResult = {
    status: 'unscheduled',
    due: false,
    present: false,
    late_minutes: 0,
    early_minutes: 0,
    missing: 0,
    decided: [],
    settles_at: null,
  };
  if (!rule || rule.segments.length === 0) return base;
  const t0 = dayStart(day);
  const segs = shiftTimeline(rule.segments);
  const sorted = [...punches].sort((a, b) => a.at - b.at || a.id - b.id);
  const due = isDue(rule, day, calendar);
  const decided: DecidingPunch[] = [];
  let late = 0;
  let early = 0;
  let missing = 0;
  segs.forEach((s, i) => {
    const start = t0 + s.start * MIN_MS;
    const end = t0 + s.end * MIN_MS;
    const mid = start + Math.floor((end - start) / 2 / MIN_MS) * MIN_MS;
    const prev = segs[i - 1];
    const next = segs[i + 1];
    // A split shift's two segments share their break: each window stops at its middle.
    const inFrom = prev
      ? Math.max(start - rule.earliest_in * MIN_MS, t0 + Math.ceil((prev.end + s.start) / 2) * MIN_MS)
      : start - rule.earliest_in * MIN_MS;
    const outTo = next
      ? Math.min(end + rule.latest_out * MIN_MS, t0 + Math.ceil((s.end + next.start) / 2) * MIN_MS - 1)
      : end + rule.latest_out * MIN_MS;
    const inPunch = sorted.find((p) => p.at >= inFrom && p.at < mid);
    const outPunch = [...sorted].reverse().find((p) => p.at >= mid && p.at <= outTo);
    decided.push({ segment: i, kind: 'in', punch_id: inPunch?.id ?? null, at: inPunch?.at ?? null });
    decided.push({ segment: i, kind: 'out', punch_id: outPunch?.id ?? null, at: outPunch?.at ?? null });
    if (!inPunch) missing++;
    else {
      const m = Math.round((floorMinute(inPunch.at) - start) / MIN_MS);
      if (m > rule.late_grace) late += m;
    }
    if (!outPunch) missing++;
    else {
      const m = Math.round((end - floorMinute(outPunch.at)) / MIN_MS);
      if (m > rule.early_grace) early += m;
    }
  });
  const present = missing < segs.length * 2;
  if (!due) {
    return { ...base, status: 'rest', present, decided };
  }
  const closes = t0 + span(rule).to * MIN_MS;
  if (now !== undefined && now < closes && missing > 0) {
    return {
      ...base,
      status: 'pending',
      due: true,
      present,
      late_minutes: late,
      decided,
      settles_at: closes,
    };
  }
  const status: DayStatus = !present
    ? 'absent'
    : missing > 0
      ? 'missing'
      : late > 0
        ? 'late'
        : early > 0
          ? 'early'
          : 'normal';
  return {
    status,
    due: true,
    present,
    late_minutes: present ? late : 0,
    early_minutes: present ? early : 0,
    missing: present ? missing : 0,
    decided,
    settles_at: null,
  };
}
