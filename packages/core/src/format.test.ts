import { describe, expect, it } from 'vitest';
import {
  TZ_OFFSET_ISO,
  TZ_OFFSET_MS,
  breakpointOf,
  formatDateTime,
  formatPercent,
  isUrl,
  normalizeDate,
  ratioPercent,
  toMillis,
} from './format.ts';

describe('formatPercent (SPEC §5)', () => {
  it.each([
    [0.456, '45%'],
    [0.999, '99%'],
    [1, '1%'],
    [42, '42%'],
    [99.5, '99.5%'],
    [100, '100%'],
    [250, '100%'],
  ])('%d → %s', (v, out) => expect(formatPercent(v)).toBe(out));
  it('shows 暂无 for a missing value', () => {
    expect(formatPercent(undefined)).toBe('暂无');
    expect(formatPercent(null)).toBe('暂无');
  });
  it('caps ratios at 100%', () => {
    expect(ratioPercent(3, 2)).toBe(100);
    expect(ratioPercent(1, 4)).toBe(25);
    expect(ratioPercent(1, 0)).toBe(0);
  });
});

describe('timestamps', () => {
  it('treats values below 1e12 as seconds', () => {
    expect(toMillis(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toMillis(1_700_000_000_000)).toBe(1_700_000_000_000);
  });
  it('formats in UTC+8 whatever the host zone', () => {
    expect(formatDateTime(0)).toBe('1970-01-01 08:00:00');
    expect(formatDateTime(1_700_000_000)).toBe('2023-11-15 06:13:20');
  });

  it('spells the one UTC+8 offset the same way in ms and as an ISO suffix', () => {
    expect(TZ_OFFSET_MS).toBe(28_800_000);
    expect(Date.parse(`1970-01-01T08:00:00${TZ_OFFSET_ISO}`)).toBe(0);
  });
});

describe('normalizeDate', () => {
  it('extends a date-only value with 00:00:00', () => {
    expect(normalizeDate('2024-02-29')).toBe('2024-02-29 00:00:00');
    expect(normalizeDate('2024-03-01 12:30:05')).toBe('2024-03-01 12:30:05');
  });
  it.each(['2023-02-29', '2024-13-01', '2024-01-01 24:00:00', '2024/01/01', '20240101', ''])(
    'rejects %s',
    (s) => expect(normalizeDate(s)).toBeNull(),
  );
});

describe('URL pattern', () => {
  it.each(['http://a.cn', 'https://x.y/z?q=1', 'ftp://f.example', 'rtsp://cam/1', 'mms://m.example/s'])(
    'accepts %s',
    (u) => expect(isUrl(u)).toBe(true),
  );
  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'www.example.com', 'http://'])('rejects %s', (u) =>
    expect(isUrl(u)).toBe(false),
  );
});

describe('breakpoints (SPEC §2)', () => {
  it.each([
    [767, 'xs'],
    [768, 'sm'],
    [991, 'sm'],
    [992, 'md'],
    [1199, 'md'],
    [1200, 'lg'],
    [1919, 'lg'],
    [1920, 'xl'],
  ] as const)('%d px is %s', (w, bp) => expect(breakpointOf(w)).toBe(bp));
});
