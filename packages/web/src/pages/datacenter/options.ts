import {
  AIR_LEVELS,
  type AirLevel,
  type AirRow,
  COMMENT_FLAGS,
  type DatacenterOverview,
  DEVICE_KINDS,
  type DeviceKindTotal,
  formatAirScore,
  JWB_WARNING,
  type LiquidRow,
  MAX_LIQUID_MARGIN,
  OCCUPANCY_KEYS,
  OCCUPANCY_LABELS,
  type OccupancyRow,
  type RatingDay,
  TZ_OFFSET_MS,
  type VisitorHour,
} from '@se/core';
import type {
  BarSeriesOption,
  EffectScatterSeriesOption,
  LineSeriesOption,
  MapSeriesOption,
  PieSeriesOption,
  ScatterSeriesOption,
} from 'echarts/charts';
import type {
  GeoComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TitleComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

// The data centres' ECharts options for the chart panels (the map's are in map-options.ts),
// built from API data apart from any chart so they are tested without a canvas. Types only
// from echarts here: nothing of it lands in this chunk.

export type DashOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | PieSeriesOption
  | ScatterSeriesOption
  | EffectScatterSeriesOption
  | MapSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
  | GeoComponentOption
  | VisualMapComponentOption
  | TitleComponentOption
>;

export const LEVEL_COLORS: Record<AirLevel, string> = { good: '#52c41a', fair: '#faad14', poor: '#ff4d4f' };
export const GROUP_COLORS = { male: '#1677ff', female: '#eb2f96', others: '#13c2c2' } as const;
export const MUTED = 'rgba(255,255,255,0.65)';
const SPLIT = 'rgba(255,255,255,0.08)';

export const base = { backgroundColor: 'transparent', animationDurationUpdate: 300 } as const;
const grid = (left = 8, right = 16): GridComponentOption => ({
  left,
  right,
  top: 28,
  bottom: 8,
  containLabel: true,
});
const valueAxis = {
  type: 'value',
  splitLine: { lineStyle: { color: SPLIT } },
  axisLabel: { hideOverlap: true },
} as const;
/** Names beside horizontal bars: cut to a width so a narrow panel keeps room for the bars. */
const nameLabels = { width: 80, overflow: 'truncate' } as const;
const barTooltip = { trigger: 'axis', axisPointer: { type: 'shadow' } } as const;
// A legend that scrolls rather than wraps over the plot in narrow panels.
const legend = {
  top: 0,
  type: 'scroll',
  itemWidth: 14,
  itemHeight: 10,
  textStyle: { color: MUTED },
} as const;

/**
 * A ring of named values, each with its colour, labelled 'name' over 'value' (two short lines
 * fit beside the ring in a 1366 px panel where 'name value' was cut to '…'). An empty slice
 * has no arc to point at: it gets no label (the tooltip and the panel still count it), so
 * zeros do not pile up on each other at the top of the ring.
 */
const ring = (
  radius: [string, string],
  data: { name: string; value: number; color?: string }[],
): DashOption => ({
  ...base,
  tooltip: { trigger: 'item' },
  series: [
    {
      type: 'pie',
      radius,
      label: { color: MUTED, formatter: '{b}\n{c}', lineHeight: 14 },
      labelLine: { length: 6, length2: 6 },
      labelLayout: { hideOverlap: true },
      data: data.map(({ name, value, color }) => ({
        name,
        value,
        itemStyle: { color },
        ...(value > 0 ? {} : { label: { show: false }, labelLine: { show: false } }),
      })),
    },
  ],
});

/** Names longer than `n` characters are cut with an ellipsis on axes. */
export const shortName = (s: string, n = 8) =>
  Array.from(s).length > n ? `${Array.from(s).slice(0, n).join('')}…` : s;

export const kindLabel = (kind: string) =>
  kind === 'sensor' ? '传感器' : ((DEVICE_KINDS as Record<string, { label: string }>)[kind]?.label ?? kind);

/** Online and offline devices per kind, stacked. */
export function devicesOption(devices: readonly DeviceKindTotal[]): DashOption {
  const kinds = devices.filter((d) => d.total > 0);
  return {
    ...base,
    tooltip: barTooltip,
    legend,
    grid: grid(),
    xAxis: {
      type: 'category',
      data: kinds.map((d) => kindLabel(d.kind)),
      axisLabel: { hideOverlap: true },
    },
    yAxis: { ...valueAxis, minInterval: 1 },
    series: [
      {
        type: 'bar',
        name: '在线',
        stack: 'n',
        itemStyle: { color: '#52c41a' },
        data: kinds.map((d) => d.online),
      },
      {
        type: 'bar',
        name: '离线',
        stack: 'n',
        itemStyle: { color: '#595959' },
        data: kinds.map((d) => d.total - d.online),
      },
    ],
  };
}

/** Today's uses per hour (UTC+8 hours 0–23), stacked by cubicle group. */
export function visitorsOption(visitors: readonly VisitorHour[]): DashOption {
  const byHour = new Map(visitors.map((v) => [new Date(v.hour + TZ_OFFSET_MS).getUTCHours(), v]));
  const hours = Array.from({ length: 24 }, (_, h) => h);
  return {
    ...base,
    tooltip: barTooltip,
    legend,
    grid: grid(),
    xAxis: { type: 'category', data: hours.map((h) => `${h}时`) },
    yAxis: { ...valueAxis, minInterval: 1 },
    series: OCCUPANCY_KEYS.map((g): BarSeriesOption => ({
      type: 'bar',
      name: OCCUPANCY_LABELS[g],
      stack: 'v',
      itemStyle: { color: GROUP_COLORS[g] },
      data: hours.map((h) => byHour.get(h)?.[g] ?? 0),
    })),
  };
}

/** The rows a ranking bar chart draws, bottom to top: the first `max`, the first at the top. */
export const barRows = <T>(list: readonly T[], max = 10): T[] => list.slice(0, max).reverse();

/** The busiest toilets: occupied cubicles per group against the free ones. */
export function occupancyOption(list: readonly OccupancyRow[], max = 10): DashOption {
  const rows = barRows(list, max);
  const free = rows.map((r) => OCCUPANCY_KEYS.reduce((n, g) => n + r[g].count - r[g].occupy, 0));
  return {
    ...base,
    tooltip: barTooltip,
    legend,
    grid: grid(),
    xAxis: { ...valueAxis, minInterval: 1 },
    yAxis: {
      type: 'category',
      data: rows.map((r) => (r.online ? shortName(r.name) : `${shortName(r.name)}（离线）`)),
      axisLabel: nameLabels,
    },
    series: [
      ...OCCUPANCY_KEYS.map((g): BarSeriesOption => ({
        type: 'bar',
        name: `${OCCUPANCY_LABELS[g]}占用`,
        stack: 'o',
        itemStyle: { color: GROUP_COLORS[g] },
        data: rows.map((r) => r[g].occupy),
      })),
      { type: 'bar', name: '空闲', stack: 'o', itemStyle: { color: 'rgba(255,255,255,0.15)' }, data: free },
    ],
  };
}

/** Air ranking: score ×100 per toilet, worst first from the top, coloured by level. */
export function airOption(list: readonly AirRow[], max = 10): DashOption {
  const rows = barRows(list, max);
  return {
    ...base,
    tooltip: {
      trigger: 'item',
      formatter: (p: unknown) => {
        const r = rows[(p as { dataIndex: number }).dataIndex];
        if (!r) return '';
        const gases = Object.entries(r.gases)
          .map(([g, v]) => `${g.toUpperCase()} ${v}（${AIR_LEVELS[r.gas_levels[g] ?? 'good']}）`)
          .join('<br/>');
        return `${escapeHtml(r.name)}：${formatAirScore(r.score)} ${AIR_LEVELS[r.level]}<br/>${gases}`;
      },
    },
    grid: grid(8, 40),
    xAxis: { ...valueAxis, min: 0, max: 100 },
    yAxis: { type: 'category', data: rows.map((r) => shortName(r.name)), axisLabel: nameLabels },
    series: [
      {
        type: 'bar',
        name: '空气质量',
        data: rows.map((r) => ({
          value: Math.round(r.score * 100),
          itemStyle: { color: LEVEL_COLORS[r.level] },
        })),
        labelLayout: { hideOverlap: true },
        label: {
          show: true,
          position: 'right',
          color: MUTED,
          formatter: (p: unknown) =>
            AIR_LEVELS[rows[(p as { dataIndex: number }).dataIndex]?.level ?? 'good'],
        },
      },
    ],
  };
}

/** Toilets per air level, as a ring. */
export function airLevelsOption(levels: DatacenterOverview['air']['levels']): DashOption {
  return ring(
    ['50%', '75%'],
    (Object.keys(AIR_LEVELS) as AirLevel[]).map((l) => ({
      name: AIR_LEVELS[l],
      value: levels[l],
      color: LEVEL_COLORS[l],
    })),
  );
}

/** Ratings per day (bars) and the day's average stars (line, right axis 0–5). */
export function ratingsOption(days: readonly RatingDay[]): DashOption {
  return {
    ...base,
    tooltip: { trigger: 'axis' },
    legend,
    // Room under the legend for the axis names (条, 星), which sit above the axes.
    grid: { ...grid(8, 8), top: 48 },
    xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
    yAxis: [
      { ...valueAxis, minInterval: 1, name: '条' },
      { ...valueAxis, min: 0, max: 5, interval: 1, name: '星', splitLine: { show: false } },
    ],
    series: [
      { type: 'bar', name: '评价数', itemStyle: { color: '#1677ff' }, data: days.map((d) => d.count) },
      {
        type: 'line',
        name: '平均星级',
        yAxisIndex: 1,
        connectNulls: true,
        itemStyle: { color: '#fadb14' },
        data: days.map((d) => d.avg),
      },
    ],
  };
}

/** The complaint ticks over the window. */
export function flagsOption(flags: DatacenterOverview['ratings']['flags']): DashOption {
  const colors = ['#ff7a45', '#ffc53d', '#9254de', '#36cfc9'];
  const keys = Object.keys(COMMENT_FLAGS) as (keyof typeof COMMENT_FLAGS)[];
  return ring(
    ['40%', '62%'],
    keys.map((k, i) => ({ name: COMMENT_FLAGS[k], value: flags[k], color: colors[i] })),
  );
}

/** Fill of a dispenser in percent of the full margin (0–100), null when unknown. */
export const liquidPercent = (r: LiquidRow) =>
  r.liquid === null ? null : Math.max(0, Math.min(100, Math.round((r.liquid / MAX_LIQUID_MARGIN) * 100)));

/** The emptiest dispensers, red when they report lack of liquid. */
export function liquidOption(list: readonly LiquidRow[], max = 10): DashOption {
  const rows = list.slice(0, max).reverse();
  return {
    ...base,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v) => `${String(v)}%` },
    grid: grid(8, 40),
    xAxis: { ...valueAxis, min: 0, max: 100 },
    yAxis: { type: 'category', data: rows.map((r) => shortName(r.desc || r.ser_num)), axisLabel: nameLabels },
    series: [
      {
        type: 'bar',
        name: '余量',
        data: rows.map((r) => {
          const pct = liquidPercent(r);
          const lacking = (r.warning & JWB_WARNING.lackOfLiquid) !== 0;
          return {
            value: pct ?? 0,
            itemStyle: { color: lacking ? '#ff4d4f' : (pct ?? 0) < 20 ? '#faad14' : '#13c2c2' },
          };
        }),
        labelLayout: { hideOverlap: true },
        label: { show: true, position: 'right', color: MUTED, formatter: '{c}%' },
      },
    ],
  };
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
