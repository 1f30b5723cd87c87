/**
 * Which playlist a player shows at a moment (issue 17): the one rule both the console and
 * the players apply to the schedules of a manifest. A pure function, so a player resolves
 * it on its own clock between manifests and the console's tests pin it on a table of cases.
 */

/** Weekday bits: Monday 1, Tuesday 2 … Sunday 64; every day 127. */
export const WEEKDAY_BITS = { all: 127 } as const;

export interface ScheduleRule {
  id: number;
  playlist_id: number;
  /** Higher wins; ties go to the later start date, then the newer schedule. */
  priority: number;
  /** 'YYYY-MM-DD', inclusive; null: open. */
  date_from: string | null;
  date_to: string | null;
  /** Weekday bits (WEEKDAY_BITS). */
  weekdays: number;
  /** 'HH:MM'; time_to ≤ time_from runs past midnight; equal: the whole day. */
  time_from: string;
  time_to: string;
  /** An emergency notice: shown whatever the dates and times until it is withdrawn. */
  emergency: boolean;
}

/** A moment on the player's local clock. */
export interface LocalMoment {
  /** 'YYYY-MM-DD' */
  date: string;
  /** 1 Monday … 7 Sunday */
  weekday: number;
  /** minutes since midnight */
  minutes: number;
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};

const dayBefore = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};

/** The rule's window is open at `at`; a window past midnight belongs to the day it starts. */
export function ruleOpen(r: ScheduleRule, at: LocalMoment): boolean {
  const from = minutesOf(r.time_from);
  const to = minutesOf(r.time_to);
  const dayOk = (date: string, weekday: number) =>
    (r.weekdays & (1 << (weekday - 1))) !== 0 &&
    (r.date_from === null || date >= r.date_from) &&
    (r.date_to === null || date <= r.date_to);
  if (from === to) return dayOk(at.date, at.weekday);
  if (from < to) return at.minutes >= from && at.minutes < to && dayOk(at.date, at.weekday);
  // Past midnight: the evening part is today's, the early-morning part yesterday's.
  if (at.minutes >= from) return dayOk(at.date, at.weekday);
  if (at.minutes < to) return dayOk(dayBefore(at.date), at.weekday === 1 ? 7 : at.weekday - 1);
  return false;
}

const better = (a: ScheduleRule, b: ScheduleRule) =>
  a.priority !== b.priority
    ? a.priority > b.priority
    : (a.date_from ?? '') !== (b.date_from ?? '')
      ? (a.date_from ?? '') > (b.date_from ?? '')
      : a.id > b.id;

/**
 * The rule whose playlist plays at `at`, or null (nothing scheduled: the screen shows its
 * idle page). An emergency notice beats everything; among several the newest, whatever the
 * priorities. Otherwise the open rule of the highest priority.
 */
export function resolveSchedule(rules: readonly ScheduleRule[], at: LocalMoment): ScheduleRule | null {
  let emergency: ScheduleRule | null = null;
  let best: ScheduleRule | null = null;
  for (const r of rules) {
    if (r.emergency) {
      if (!emergency || r.id > emergency.id) emergency = r;
    } else if (ruleOpen(r, at) && (!best || better(r, best))) best = r;
  }
  return emergency ?? best;
}

/** A Date as the local moment of a time zone (the players' clocks; China by default). */
export function localMoment(d: Date, timeZone = 'Asia/Shanghai'): LocalMoment {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      weekday: 'short',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!) + 1;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}
