import { describe, expect, it } from 'vitest';
import {
  TZ_OFFSET_ISO,
  TZ_OFFSET_MS,
  breakpointOf,
  formatAirScore,
  formatBytes,
  formatDate,
  formatDateTime,
  formatNumber,
  formatOccupancy,
  formatPercent,
  formatQuantity,
  formatShare,
  formatShortDateTime,
  formatStars,
  formatTime,
  instantOf,
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

describe('figures read the same everywhere', () => {
  it('shows an air score in points, whichever screen asks', () => {
    expect(formatAirScore(0.85)).toBe('85 分');
    expect(formatAirScore(0.845)).toBe('85 分');
    expect(formatAirScore(1.2)).toBe('100 分');
    expect(formatAirScore(null)).toBe('—');
  });

  it('shows occupancy as occupied/total, an unknown side as —', () => {
    expect(formatOccupancy(1, 2)).toBe('1/2');
    expect(formatOccupancy(0, 4)).toBe('0/4');
    expect(formatOccupancy(null, 4)).toBe('—/4');
    expect(formatOccupancy(3, undefined)).toBe('3/—');
  });

  it('shows a share as a whole percentage, — when there is no whole', () => {
    expect(formatShare(61, 160)).toBe('38%');
    expect(formatShare(5, 4)).toBe('100%');
    expect(formatShare(1, 0)).toBe('—');
  });

  it('writes a number with its unit, rounded to two decimals', () => {
    expect(formatQuantity(12.5, 'ppm')).toBe('12.5 ppm');
    expect(formatQuantity(0.0512, 'mg/m³')).toBe('0.05 mg/m³');
    expect(formatQuantity(1234.567, 'kWh')).toBe('1234.57 kWh');
    expect(formatQuantity(3, 'm³')).toBe('3 m³');
    expect(formatQuantity(25.04, '°C', 1)).toBe('25 °C');
    expect(formatQuantity(61, '%RH')).toBe('61 %RH');
    expect(formatQuantity(42, '%')).toBe('42%');
    expect(formatQuantity(null, 'kWh')).toBe('—');
    expect(formatNumber(-0.001)).toBe('0');
  });

  it('shows average stars to one decimal', () => {
    expect(formatStars(4.625)).toBe('4.6');
    expect(formatStars(5)).toBe('5.0');
    expect(formatStars(4.35)).toBe('4.4');
    expect(formatStars(undefined)).toBe('—');
  });

  it('shows file sizes the same on the download centre and the media library', () => {
    expect([512, 2048, 830 * 1024, 5 * 1024 ** 2, 1.5 * 1024 ** 3].map(formatBytes)).toEqual([
      '512 B',
      '2.0 KB',
      '830 KB',
      '5.0 MB',
      '1.50 GB',
    ]);
    expect(formatBytes(null)).toBe('—');
  });
});

describe('times in UTC+8 whatever the host zone', () => {
  // 2026-01-01 16:30:05 UTC is 2026-01-02 00:30:05 in UTC+8: the date changes too.
  const ms = Date.UTC(2026, 0, 1, 16, 30, 5);
  it('shows the date, the short form and the time of day of UTC+8', () => {
    expect(formatDate(ms)).toBe('2026-01-02');
    expect(formatShortDateTime(ms)).toBe('01-02 00:30');
    expect(formatTime(ms / 1000)).toBe('00:30:05');
    expect(formatShortDateTime('2026-01-01T16:30:05Z')).toBe('01-02 00:30');
  });

  it("reads the API's zone-less local times as UTC+8, not in the host's zone", () => {
    expect(formatDateTime('2026-01-02 00:30:05')).toBe('2026-01-02 00:30:05');
    expect(formatDateTime('2026-01-02T00:30:05')).toBe('2026-01-02 00:30:05');
    expect(formatDate('2026-01-02')).toBe('2026-01-02');
    expect(instantOf('2026-01-02 00:30:05')).toBe(ms);
    expect(formatDateTime('不是时间')).toBe('');
  });
});
