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

/*
 * Figures as every screen shows them, so the same figure reads the same everywhere: an air
 * score in points, occupancy as occupied/total, shares as whole percentages, quantities
 * with their unit. Missing values read '—'.
 */

/** The placeholder of a figure that is not known. */
export const NO_FIGURE = '—';

const missing = (v: number | null | undefined): v is null | undefined =>
  v === null || v === undefined || !Number.isFinite(v);

/** A number to at most `digits` decimals, trailing zeros dropped: 12.5, 3, 0.05. */
export function formatNumber(value: number | null | undefined, digits = 2): string {
  if (missing(value)) return NO_FIGURE;
  const f = 10 ** digits;
  const rounded = Math.round(value * f) / f;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/**
 * A quantity with its unit, one space between ('12.5 ppm', '3 kWh', '25 °C', '60 %RH'),
 * none before a bare '%'.
 */
export function formatQuantity(value: number | null | undefined, unit: string, digits = 2): string {
  if (missing(value)) return NO_FIGURE;
  const n = formatNumber(value, digits);
  if (!unit) return n;
  return unit === '%' ? `${n}%` : `${n} ${unit}`;
}

/** An air score (0–1, SPEC air quality) in points: 0.845 → '85 分'. */
export function formatAirScore(score: number | null | undefined): string {
  if (missing(score)) return NO_FIGURE;
  return `${Math.round(Math.max(0, Math.min(1, score)) * 100)} 分`;
}

/** Occupied of the total cubicles: '1/2'; an unknown side reads '—' ('—/2'). */
export function formatOccupancy(
  occupied: number | null | undefined,
  total: number | null | undefined,
): string {
  return `${missing(occupied) ? NO_FIGURE : occupied}/${missing(total) ? NO_FIGURE : total}`;
}

/** `part` of `whole` as a whole percentage, capped at 100: '38%'; '—' when the whole is 0. */
export function formatShare(part: number | null | undefined, whole: number | null | undefined): string {
  if (missing(part) || missing(whole) || whole <= 0) return NO_FIGURE;
  return `${Math.round(ratioPercent(part, whole))}%`;
}

/** An average of stars to one decimal: '4.6'. */
export function formatStars(average: number | null | undefined): string {
  if (missing(average)) return NO_FIGURE;
  return (Math.round(average * 10) / 10).toFixed(1);
}

/** A size in bytes: '512 B', '2.0 KB' (one decimal under 10 KB), '830 KB', '1.2 MB', '1.50 GB'. */
export function formatBytes(bytes: number | null | undefined): string {
  if (missing(bytes)) return NO_FIGURE;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
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

/** A date and time without a zone ('YYYY-MM-DD HH:mm:ss', the API's form): a UTC+8 time. */
const ZONELESS_RE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;

/**
 * An instant from a timestamp (s or ms), a Date or a text. A text without a zone is read as
 * UTC+8 (the API's local times), never in the host's zone; NaN when unreadable.
 */
export function instantOf(ts: number | string | Date): number {
  if (ts instanceof Date) return ts.getTime();
  if (typeof ts === 'number') return toMillis(ts);
  const text = ts.trim();
  if (ZONELESS_RE.test(text)) {
    const iso = text.length === 10 ? `${text}T00:00:00` : text.replace(' ', 'T');
    return Date.parse(`${iso}${TZ_OFFSET_ISO}`);
  }
  return Date.parse(text);
}

/** Formats a timestamp (s or ms) as YYYY-MM-DD HH:mm:ss in UTC+8, whatever the host's zone. */
export function formatDateTime(ts: number | string | Date): string {
  const ms = instantOf(ts);
  if (!Number.isFinite(ms)) return '';
  const d = new Date(ms + TZ_OFFSET_MS);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

/** 'YYYY-MM-DD' of a timestamp in UTC+8. */
export function formatDate(ts: number | string | Date): string {
  return formatDateTime(ts).slice(0, 10);
}

/** 'MM-DD HH:mm' of a timestamp in UTC+8 (feeds and charts, where the year goes without saying). */
export function formatShortDateTime(ts: number | string | Date): string {
  return formatDateTime(ts).slice(5, 16);
}

/** 'HH:mm:ss' of a timestamp in UTC+8. */
export function formatTime(ts: number | string | Date): string {
  return formatDateTime(ts).slice(11);
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
