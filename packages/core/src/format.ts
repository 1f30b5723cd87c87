/** Display and parsing helpers of SPEC §5. */

/** SPEC §5 percentage display: <1 → floor(v*100)%, 1..<100 → v%, else 100%; missing → 暂无. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '暂无';
  if (value < 1) return `${Math.floor(value * 100)}%`;
  if (value < 100) return `${value}%`;
  return '100%';
}

/** A ratio as a percentage number capped at 100. */
export function ratioPercent(part: number, whole: number): number {
  if (!whole || whole <= 0) return 0;
  return Math.min(100, (part / whole) * 100);
}

/** Timestamps below 1e12 are seconds (SPEC §5). */
export function toMillis(ts: number): number {
  return ts < 1e12 ? ts * 1000 : ts;
}

/** The product's local time zone: UTC+8 (SPEC §5). Every other form below derives from it. */
export const TZ_OFFSET_HOURS = 8;
/** The local offset in milliseconds, to shift an instant before reading its UTC fields. */
export const TZ_OFFSET_MS = TZ_OFFSET_HOURS * 3_600_000;
/** The local offset as an ISO 8601 suffix ('+08:00'), to parse a local 'YYYY-MM-DDTHH:mm:ss'. */
export const TZ_OFFSET_ISO = `+${String(TZ_OFFSET_HOURS).padStart(2, '0')}:00`;
/** The local offset as a SQL interval literal, for queries built in TypeScript. */
export const TZ_OFFSET_SQL = `interval '${TZ_OFFSET_HOURS} hours'`;

const pad = (n: number) => String(n).padStart(2, '0');

/** Formats a timestamp (s or ms) as YYYY-MM-DD HH:mm:ss in UTC+8, whatever the host's zone. */
export function formatDateTime(ts: number | string | Date): string {
  const ms = ts instanceof Date ? ts.getTime() : typeof ts === 'string' ? Date.parse(ts) : toMillis(ts);
  if (!Number.isFinite(ms)) return '';
  const d = new Date(ms + TZ_OFFSET_MS);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * Validates YYYY-MM-DD or YYYY-MM-DD HH:mm:ss (SPEC §5) and extends a date-only value with
 * 00:00:00. Returns null when the text is not such a date or names an impossible day.
 */
export function normalizeDate(text: string): string | null {
  const m = DATE_RE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = m;
  const date = new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s));
  if (
    date.getUTCFullYear() !== +y! ||
    date.getUTCMonth() !== +mo! - 1 ||
    date.getUTCDate() !== +d! ||
    +h > 23 ||
    +mi > 59 ||
    +s > 59
  ) {
    return null;
  }
  return `${y}-${mo}-${d} ${h}:${mi}:${s}`;
}

/** SPEC §5: addresses with the http, https, ftp, rtsp or mms scheme. */
export const URL_PATTERN = /^(?:https?|ftp|rtsp|mms):\/\/[^\s/$.?#][^\s]*$/i;

export function isUrl(text: string): boolean {
  return URL_PATTERN.test(text);
}

/** SPEC §2 layout breakpoints by body width. */
export type Breakpoint = 'xs' | 'sm' | 'md' | 'lg' | 'xl';
export function breakpointOf(width: number): Breakpoint {
  if (width < 768) return 'xs';
  if (width < 992) return 'sm';
  if (width < 1200) return 'md';
  if (width < 1920) return 'lg';
  return 'xl';
}
