import type { HistoryData } from '@se/core';
import type { LineSeriesOption } from 'echarts/charts';
import { describe, expect, it } from 'vitest';
import { bucketCaption, bucketText } from './HistoryChart.tsx';
import { defaultSelection, fieldsByName, historyOption, mergeSelection } from './history-option.ts';

const data: HistoryData = {
  bucket_ms: 60_000,
  source: 'raw',
  fields: ['co2', 'nh3', 'male_occupy'],
  points: [
    { ts: Date.UTC(2025, 5, 1, 4, 0), co2: 500, nh3: 0.2, male_occupy: 3 },
    { ts: Date.UTC(2025, 5, 1, 4, 1), co2: 510 },
  ],
};

describe('history chart option', () => {
  it('shows one field first, a gas before the others', () => {
    expect(defaultSelection(data.fields)).toEqual({ co2: false, nh3: true, male_occupy: false });
    expect(defaultSelection(['zeta', 'alpha'])).toEqual({ zeta: true, alpha: false });
  });

  it('keeps what the user switched on when the range changes; new fields start off', () => {
    expect(mergeSelection(['nh3', 'co2', 'voc'], { nh3: false, co2: true })).toEqual({
      nh3: false,
      co2: true,
      voc: false,
    });
    // Nothing of the old selection left: back to the default.
    expect(mergeSelection(['voc'], { nh3: true })).toEqual({ voc: true });
    expect(mergeSelection(['voc'], null)).toEqual({ voc: true });
  });

  it('names series with label and unit, and passes the selection to the legend', () => {
    const option = historyOption('gateway', data, { nh3: true });
    const series = option.series as LineSeriesOption[];
    // In the panel's order, whatever order the server sent.
    expect(series.map((s) => s.name)).toEqual(['氨气 NH₃ (ppm)', '二氧化碳 CO₂ (ppm)', '男厕位占用']);
    expect(option.legend).toMatchObject({
      selected: { '二氧化碳 CO₂ (ppm)': false, '氨气 NH₃ (ppm)': true, 男厕位占用: false },
    });
    expect(fieldsByName('gateway', data.fields)['氨气 NH₃ (ppm)']).toBe('nh3');
  });

  it('plots UTC+8 times with ECharts in UTC mode, and leaves gaps where a bucket lacks the field', () => {
    const option = historyOption('gateway', data, { nh3: true });
    expect(option.useUTC).toBe(true);
    const nh3 = (option.series as LineSeriesOption[])[0]!;
    expect(nh3.data).toEqual([
      [Date.UTC(2025, 5, 1, 12, 0), 0.2],
      [Date.UTC(2025, 5, 1, 12, 1), null],
    ]);
    expect(nh3.connectNulls).toBe(false);
  });

  it('draws the 良 and 差 thresholds of gases (SPEC §9) only', () => {
    const [nh3, co2, occupy] = historyOption('gateway', data, {}).series as LineSeriesOption[];
    expect(nh3!.markLine?.data).toMatchObject([
      { name: '良', yAxis: 0.1 },
      { name: '差', yAxis: 1.5 },
    ]);
    expect(co2!.markLine?.data).toMatchObject([{ yAxis: 1000 }, { yAxis: 1800 }]);
    expect(occupy!.markLine).toBeUndefined();
  });

  it('leaves settings out of the chart: cubicle counts and the report interval', () => {
    const option = historyOption(
      'gateway',
      { ...data, fields: ['pot_int', 'male_count', 'male_occupy'] },
      {},
    );
    expect((option.series as LineSeriesOption[]).map((s) => s.name)).toEqual(['男厕位占用']);
  });

  it('spans the axis over the range asked for, in UTC+8', () => {
    const end = Date.UTC(2025, 5, 1, 4, 30);
    const option = historyOption('gateway', data, {}, { start: end - 3_600_000, end });
    expect(option.xAxis).toMatchObject({
      type: 'time',
      min: Date.UTC(2025, 5, 1, 11, 30),
      max: Date.UTC(2025, 5, 1, 12, 30),
    });
  });

  it('describes the bucket', () => {
    expect(bucketText(10_000)).toBe('10 秒');
    expect(bucketText(300_000)).toBe('5 分钟');
    expect(bucketText(3_600_000)).toBe('1 小时');
    expect(bucketCaption(3_600_000)).toBe('每小时平均');
    // 30 days read the hourly rollup two hours a point: not "每小时".
    expect(bucketCaption(7_200_000)).toBe('每 2 小时 平均');
    expect(bucketCaption(300_000)).toBe('每 5 分钟 平均');
  });
});
