import {
  CODE,
  DISPLAY_TOKEN_INVALID,
  TZ_OFFSET_MS,
  type DisplayData,
  type Envelope,
  type OccupancyGroup,
} from '@se/core';

// The /eternal-page screen's bookkeeping: what each poll's outcome does to what is shown.

export interface DisplayState {
  /** The last good answer (kept through network trouble). */
  data: DisplayData | null;
  /** The token was revoked or never existed: the screen says so instead of data. */
  invalid: string | null;
  /** The last poll failed: the values shown may be old. */
  stale: boolean;
  /** Server clock minus this clock, ms, from the last answer. */
  clockOffset: number;
}

export const INITIAL_DISPLAY: DisplayState = { data: null, invalid: null, stale: false, clockOffset: 0 };

/** Seconds until the next poll: the server's wish when it answered, else a calm retry. */
export const nextPollSeconds = (state: DisplayState): number =>
  state.invalid
    ? 60
    : state.stale || !state.data
      ? 20
      : Math.min(30, Math.max(10, state.data.refresh_seconds));

/** The state after one poll: an envelope, or null for a network failure. */
export function afterPoll(state: DisplayState, res: Envelope<DisplayData> | null, now: number): DisplayState {
  if (res === null) return { ...state, stale: true };
  if (res.code === CODE.ok) {
    return { data: res.data, invalid: null, stale: false, clockOffset: res.data.server_time - now };
  }
  if (res.code === CODE.forbidden || res.code === CODE.badRequest) {
    return { ...state, data: null, invalid: res.message || DISPLAY_TOKEN_INVALID, stale: false };
  }
  // Rate limited or a server problem: keep what is shown, marked as possibly old.
  return { ...state, stale: true };
}

/** Free cubicles of a group, or null when the gateway has not said how many are taken. */
export const freeOf = (g: OccupancyGroup): number | null =>
  g.occupy === null ? null : Math.max(0, g.count - g.occupy);

/** HH:MM:SS in UTC+8 of a ms instant. */
export function clockText(ms: number): string {
  const d = new Date(ms + TZ_OFFSET_MS);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** HH:MM in UTC+8. */
export const hhmmOf = (ms: number): string => clockText(ms).slice(0, 5);
