import { formatDateTime, type UsageGrain, type UsageRow } from '@se/core';
import type { EChartsCoreOption } from '../../live/echarts.ts';

/** A period's label in China Standard Time: 2026-03 for a month, 03-10 for a day, 03-10 14:00 for an hour. */
export function periodLabel(iso: string, grain: UsageGrain, withYear = false): string {
  const d = formatDateTime(iso);
  if (grain === 'month') return d.slice(0, 7);
  const day = withYear ? d.slice(0, 10) : d.slice(5, 10);
  return grain === 'day' ? day : `${day} ${d.slice(11, 16)}`;
}

/** The usage chart: bars per period, those holding estimated (gap) usage drawn lighter. */
export function usageOption(rows: UsageRow[], grain: UsageGrain, unit: string): EChartsCoreOption {
  return {
    grid: { left: 48, right: 16, top: 28, bottom: 40 },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => `${String(v)} ${unit}`,
    },
    xAxis: { type: 'category', data: rows.map((r) => periodLabel(r.period_start, grain)) },
    yAxis: { type: 'value', name: unit },
    series: [
      {
        type: 'bar',
        name: '用量',
        data: rows.map((r) => ({
          value: r.usage,
          itemStyle: r.gap ? { color: '#91caff' } : { color: '#1677ff' },
        })),
      },
    ],
  };
}
