/**
 * The numeric-input rules of SPEC §5, apart from the component so they can be tested:
 * clamp to min/max, step (default 1), optional rounding to `precision` or to strict step
 * multiples, empty text gives undefined, non-numeric text is ignored.
 */

export interface NumberRules {
  min?: number;
  max?: number;
  /** What one press of +/− adds; default 1. */
  step?: number;
  /** Decimal places kept; values are rounded to it. */
  precision?: number;
  /** Only multiples of `step` are allowed; others are rounded to the nearest one. */
  stepStrictly?: boolean;
}

// Decimal notation only: '0x10', 'Infinity' and friends are not what an operator types.
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** What a text means: a number, `undefined` for empty text, or `null` for text to ignore. */
export function parseNumberText(text: string): number | undefined | null {
  const t = text.trim();
  if (t === '') return undefined;
  if (!NUMERIC.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** Decimal places a number is written with (1e-7 counts 7). */
export function decimalsOf(n: number): number {
  const [mantissa = '', exponent] = String(n).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - (exponent ? Number(exponent) : 0));
}

/** Rounds half away from zero at `places` decimals, without 1.005 → 1.00 float surprises. */
export function roundTo(n: number, places: number): number {
  const sign = n < 0 ? -1 : 1;
  const shifted = Number(`${Math.abs(n)}e${places}`);
  return sign * Number(`${Math.round(shifted)}e-${places}`);
}

/** Applies the rules to a committed value: round (strict step, then precision), then clamp. */
export function normalizeNumber(value: number | undefined, rules: NumberRules): number | undefined {
  if (value === undefined || Number.isNaN(value)) return undefined;
  const step = rules.step ?? 1;
  let n = value;
  if (rules.stepStrictly && step > 0) {
    // 0.35 / 0.1 is 3.4999…; trim the float noise before picking the nearest multiple.
    const multiples = Math.round(roundTo(n / step, 9));
    n = roundTo(multiples * step, decimalsOf(step));
  }
  if (rules.precision !== undefined) n = roundTo(n, rules.precision);
  if (rules.max !== undefined && n > rules.max) n = rules.max;
  if (rules.min !== undefined && n < rules.min) n = rules.min;
  // -0 would show as "0" but compare oddly in forms.
  return n === 0 ? 0 : n;
}

/**
 * One press of + (direction 1) or − (−1). An empty field counts as 0; the sum is kept at
 * the decimals of the value and the step so 0.1 + 0.2 reads 0.3.
 */
export function stepNumber(value: number | undefined, direction: 1 | -1, rules: NumberRules): number {
  const step = rules.step ?? 1;
  const base = value ?? 0;
  const places = rules.precision ?? Math.max(decimalsOf(base), decimalsOf(step));
  const next = roundTo(base + direction * step, places);
  return normalizeNumber(next, rules) as number;
}

/** The text a value is shown with: fixed decimals when a precision is set. */
export function formatNumber(value: number | undefined, rules: NumberRules): string {
  if (value === undefined || Number.isNaN(value)) return '';
  return rules.precision !== undefined ? value.toFixed(rules.precision) : String(value);
}

/** Whether + or − can still change the value. */
export function canStep(value: number | undefined, direction: 1 | -1, rules: NumberRules): boolean {
  if (value === undefined) return true;
  if (direction === 1) return rules.max === undefined || value < rules.max;
  return rules.min === undefined || value > rules.min;
}

/** SPEC §5: a held button repeats every 100 ms; a press shorter than that counts as one click. */
export const REPEAT_INTERVAL_MS = 100;

/**
 * Press-and-hold for the +/− buttons (SPEC §5): while held, `action` runs every 100 ms;
 * released before the first repeat, it runs once.
 */
export function createRepeater(action: () => void, interval = REPEAT_INTERVAL_MS) {
  let started = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  return {
    press() {
      stop();
      started = Date.now();
      timer = setInterval(action, interval);
    },
    release() {
      if (timer === undefined) return;
      if (Date.now() - started < interval) action();
      stop();
    },
    /** Unmounting or disabling mid-press: stop without acting. */
    cancel: stop,
  };
}
