import { AIR_LEVELS, GAS_THRESHOLDS, TZ_OFFSET_MS, type Gas, type HistoryData } from '@se/core';
import type { LineSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { chartFields, fieldLabel, numberText } from './latest-values.ts';

// The history chart's ECharts option, built apart from the chart so it can be tested
// without a canvas. Types only from echarts here: nothing of it lands in this chunk.

export type HistoryOption = ComposeOption<
  | LineSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
  | MarkLineComponentOption
>;

/** What the chart shows first: one field, since a CO₂ line in the hundreds flattens an H₂S one. */
const PREFERRED = ['nh3', 'h2s', 'voc', 'pm25', 'co2', 'liquid', 'level', 'reading', 'star_level'];

export function defaultSelection(fields: readonly string[]): Record<string, boolean> {
  const first = PREFERRED.find((f) => fields.includes(f)) ?? fields[0];
  return Object.fromEntries(fields.map((f) => [f, f === first]));
}

/** The selection kept across ranges: fields seen before keep their state, new ones are off. */
export function mergeSelection(
  fields: readonly string[],
  previous: Record<string, boolean> | null,
): Record<string, boolean> {
  if (!previous || !fields.some((f) => previous[f])) return defaultSelection(fields);
  return Object.fromEntries(fields.map((f) => [f, previous[f] ?? false]));
}

// ECharts shows times in UTC when told to; shifting by +8 h shows UTC+8 (SPEC §5) in any browser.
const SHIFT_MS = TZ_OFFSET_MS;

const isGas = (f: string): f is Gas => f in GAS_THRESHOLDS;

export function historyOption(
  kind: string,
  data: HistoryData,
  selected: Record<string, boolean>,
  /** The range asked for (ms): the axis spans it even where the device sent nothing. */
  window?: { start: number; end: number },
): HistoryOption {
  const fields = chartFields(data.fields);
  const names = Object.fromEntries(fields.map((f) => [f, fieldLabel(kind, f)]));
  const points = data.points.filter(
    (p): p is Record<string, number> & { ts: number } => typeof p.ts === 'number',
  );
  const series: LineSeriesOption[] = fields.map((f) => ({
    type: 'line',
    name: names[f],
    showSymbol: points.length <= 60,
    symbolSize: 4,
    // A bucket without the field leaves a gap rather than a line across it.
    connectNulls: false,
    data: points.map((p) => [p.ts + SHIFT_MS, typeof p[f] === 'number' ? p[f] : null]),
    ...(isGas(f)
      ? {
          markLine: {
            silent: true,
            symbol: 'none',
            lineStyle: { type: 'dashed', width: 1 },
            label: { formatter: '{b} {c}', position: 'insideEndTop' },
            data: [
              { name: `${AIR_LEVELS.fair}`, yAxis: GAS_THRESHOLDS[f].low, lineStyle: { color: '#fa8c16' } },
              { name: `${AIR_LEVELS.poor}`, yAxis: GAS_THRESHOLDS[f].high, lineStyle: { color: '#f5222d' } },
            ],
          },
        }
      : {}),
  }));
  return {
    useUTC: true,
    animation: false,
    grid: { left: 8, right: 24, top: 56, bottom: 8, containLabel: true },
    legend: {
      type: 'scroll',
      top: 0,
      data: fields.map((f) => names[f]!),
      selected: Object.fromEntries(fields.map((f) => [names[f], selected[f] ?? false])),
    },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v) => (typeof v === 'number' ? numberText(v) : '—'),
    },
    xAxis: {
      type: 'time',
      ...(window ? { min: window.start + SHIFT_MS, max: window.end + SHIFT_MS } : {}),
    },
    yAxis: { type: 'value', scale: true },
    series,
  };
}

/** The field of a legend name (the chart reports selections by series name). */
export function fieldsByName(kind: string, fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [fieldLabel(kind, f), f]));
}
