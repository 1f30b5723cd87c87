import { describe, expect, it } from 'vitest';
import { periodLabel, usageOption } from './usage-text.ts';

describe('usage labels and chart', () => {
  it('labels periods in China Standard Time, not UTC', () => {
    // 16:00 UTC on March 9 is midnight March 10 in Beijing.
    expect(periodLabel('2026-03-09T16:00:00.000Z', 'day')).toBe('03-10');
    expect(periodLabel('2026-03-09T16:00:00.000Z', 'day', true)).toBe('2026-03-10');
    expect(periodLabel('2026-02-28T16:00:00.000Z', 'month')).toBe('2026-03');
    expect(periodLabel('2026-03-10T06:00:00.000Z', 'hour')).toBe('03-10 14:00');
  });

  it('draws estimated (gap) periods lighter than measured ones', () => {
    const o = usageOption(
      [
        { period_start: '2026-03-09T16:00:00.000Z', usage: 3, gap: false, resets: 0 },
        { period_start: '2026-03-10T16:00:00.000Z', usage: 5, gap: true, resets: 1 },
      ],
      'day',
      'm³',
    ) as { xAxis: { data: string[] }; series: { data: { value: number; itemStyle: { color: string } }[] }[] };
    expect(o.xAxis.data).toEqual(['03-10', '03-11']);
    const [a, b] = o.series[0]!.data;
    expect(a!.value).toBe(3);
    expect(a!.itemStyle.color).not.toBe(b!.itemStyle.color);
  });
});
