import {
  AIR_LEVELS,
  COMMENT_FLAGS,
  DEVICE_KINDS,
  JWB_WARNING,
  MAX_LIQUID_MARGIN,
  OCCUPANCY_KEYS,
  OCCUPANCY_LABELS,
  TOILET_STATUS,
  TZ_OFFSET_MS,
  type AirLevel,
  type AirRow,
  type DatacenterOverview,
  type DeviceKindTotal,
  type LiquidRow,
  type MapPoint,
  type OccupancyRow,
  type RatingDay,
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

// The data centres' ECharts options, built from API data apart from any chart so they are
// tested without a canvas. Types only from echarts here: nothing of it lands in this chunk.

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
const MUTED = 'rgba(255,255,255,0.65)';
const SPLIT = 'rgba(255,255,255,0.08)';

const base = { backgroundColor: 'transparent', animationDurationUpdate: 300 } as const;
const grid = (left = 8, right = 16): GridComponentOption => ({
  left,
  right,
  top: 28,
  bottom: 8,
  containLabel: true,
});
const valueAxis = { type: 'value', splitLine: { lineStyle: { color: SPLIT } } } as const;

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
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, textStyle: { color: MUTED } },
    grid: grid(),
    xAxis: {
      type: 'category',
      data: kinds.map((d) => kindLabel(d.kind)),
      axisLabel: { interval: 0, fontSize: 11 },
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
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, textStyle: { color: MUTED } },
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

/** The busiest toilets: occupied cubicles per group against the free ones. */
export function occupancyOption(list: readonly OccupancyRow[], max = 10): DashOption {
  const rows = list.slice(0, max).reverse();
  const free = rows.map((r) => OCCUPANCY_KEYS.reduce((n, g) => n + r[g].count - r[g].occupy, 0));
  return {
    ...base,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, textStyle: { color: MUTED } },
    grid: grid(),
    xAxis: { ...valueAxis, minInterval: 1 },
    yAxis: {
      type: 'category',
      data: rows.map((r) => (r.online ? shortName(r.name) : `${shortName(r.name)}（离线）`)),
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
  const rows = list.slice(0, max).reverse();
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
        return `${escapeHtml(r.name)}：${Math.round(r.score * 100)} 分 ${AIR_LEVELS[r.level]}<br/>${gases}`;
      },
    },
    grid: grid(8, 40),
    xAxis: { ...valueAxis, min: 0, max: 100 },
    yAxis: { type: 'category', data: rows.map((r) => shortName(r.name)) },
    series: [
      {
        type: 'bar',
        name: '空气质量',
        data: rows.map((r) => ({
          value: Math.round(r.score * 100),
          itemStyle: { color: LEVEL_COLORS[r.level] },
        })),
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
  return {
    ...base,
    tooltip: { trigger: 'item' },
    series: [
      {
        type: 'pie',
        radius: ['50%', '75%'],
        label: { color: MUTED, formatter: '{b} {c}' },
        data: (Object.keys(AIR_LEVELS) as AirLevel[]).map((l) => ({
          name: AIR_LEVELS[l],
          value: levels[l],
          itemStyle: { color: LEVEL_COLORS[l] },
        })),
      },
    ],
  };
}

/** Ratings per day (bars) and the day's average stars (line, right axis 0–5). */
export function ratingsOption(days: readonly RatingDay[]): DashOption {
  return {
    ...base,
    tooltip: { trigger: 'axis' },
    legend: { top: 0, textStyle: { color: MUTED } },
    grid: grid(8, 8),
    xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
    yAxis: [
      { ...valueAxis, minInterval: 1, name: '条' },
      { type: 'value', min: 0, max: 5, interval: 1, name: '星', splitLine: { show: false } },
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
  return {
    ...base,
    tooltip: { trigger: 'item' },
    series: [
      {
        type: 'pie',
        radius: ['40%', '62%'],
        label: { color: MUTED, formatter: '{b} {c}' },
        data: keys.map((k, i) => ({
          name: COMMENT_FLAGS[k],
          value: flags[k],
          itemStyle: { color: colors[i] },
        })),
      },
    ],
  };
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
    yAxis: { type: 'category', data: rows.map((r) => shortName(r.desc || r.ser_num)) },
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
        label: { show: true, position: 'right', color: MUTED, formatter: '{c}%' },
      },
    ],
  };
}

// ---- map ----

const PROVINCE_SUFFIX = /(省|市|壮族自治区|回族自治区|维吾尔自治区|特别行政区|自治区)$/;

/** A stored province name ('浙江省', '广西壮族自治区') as the bundled map names it ('浙江', '广西'). */
export const provinceKey = (pname: string) => pname.trim().replace(PROVINCE_SUFFIX, '');

/** Colour of a toilet on the map: alarm red, offline grey, else green. */
export function pointColor(p: Pick<MapPoint, 'status' | 'online'>): string {
  if ((p.status & TOILET_STATUS.alarm) !== 0) return '#ff4d4f';
  return p.online ? '#52c41a' : '#8c8c8c';
}

function pointTooltip(p: MapPoint): string {
  const state = (p.status & TOILET_STATUS.alarm) !== 0 ? '报警' : p.online ? '在线' : '离线';
  const where = [p.pname, p.cityname, p.address].filter(Boolean).join(' ');
  return `${escapeHtml(p.name)}（${state}）${where ? `<br/>${escapeHtml(where)}` : ''}`;
}

/** China's provinces coloured by toilet count, toilets as points at their lng/lat. */
export function chinaMapOption(
  points: readonly MapPoint[],
  provinces: readonly { pname: string; count: number }[],
): DashOption {
  const counts = new Map<string, number>();
  for (const p of provinces)
    counts.set(provinceKey(p.pname), (counts.get(provinceKey(p.pname)) ?? 0) + p.count);
  const max = Math.max(1, ...counts.values());
  const alarmed = points.filter((p) => (p.status & TOILET_STATUS.alarm) !== 0);
  const toPoint = (p: MapPoint) => ({
    name: p.name,
    value: [p.lng, p.lat],
    itemStyle: { color: pointColor(p) },
    tip: pointTooltip(p),
  });
  return {
    ...base,
    tooltip: {
      trigger: 'item',
      formatter: (x: unknown) => {
        const d = x as { data?: { tip?: string }; name?: string; value?: unknown };
        if (d.data?.tip) return d.data.tip;
        return `${escapeHtml(d.name ?? '')}：${Number(d.value) || 0} 座`;
      },
    },
    visualMap: {
      min: 0,
      max,
      left: 8,
      bottom: 8,
      calculable: false,
      seriesIndex: 0,
      text: ['多', '少'],
      textStyle: { color: MUTED },
      inRange: { color: ['#0b2447', '#19376d', '#576cbc'] },
    },
    geo: {
      map: 'china',
      roam: true,
      zoom: 1.15,
      top: 24,
      bottom: 24,
      itemStyle: { areaColor: '#0b2447', borderColor: '#3d5a99' },
      emphasis: { itemStyle: { areaColor: '#2f54eb' }, label: { color: '#fff' } },
      label: { show: false },
    },
    series: [
      {
        type: 'map',
        geoIndex: 0,
        name: '厕所数',
        data: [...counts].map(([name, value]) => ({ name, value })),
      },
      {
        type: 'scatter',
        coordinateSystem: 'geo',
        name: '厕所',
        symbolSize: 7,
        data: points.map(toPoint),
      },
      {
        // Alarmed toilets ripple, so they catch the eye on a wall screen.
        type: 'effectScatter',
        coordinateSystem: 'geo',
        name: '报警',
        symbolSize: 10,
        rippleEffect: { scale: 4 },
        data: alarmed.slice(0, 200).map(toPoint),
      },
    ],
  };
}

// Web Mercator (EPSG:3857) in 256-pixel tiles: the scheme of every {z}/{x}/{y} tile server.
const TILE = 256;
const MAX_LAT = 85.05112878;

/** World pixel position of a lng/lat at zoom `z`. */
export function project(lng: number, lat: number, z: number): [number, number] {
  const size = TILE * 2 ** z;
  const phi = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  const x = ((lng + 180) / 360) * size;
  const y = ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size;
  return [x, y];
}

export interface TileView {
  z: number;
  /** World pixel of the view's top-left corner. */
  left: number;
  top: number;
  width: number;
  height: number;
  tiles: { x: number; y: number; url: string; left: number; top: number }[];
}

/** The zoom and tiles that show every point in a box of width × height (China when there are none). */
export function tileView(
  points: readonly Pick<MapPoint, 'lng' | 'lat'>[],
  width: number,
  height: number,
  template: string,
): TileView {
  const pts = points.length
    ? points
    : [
        { lng: 73.5, lat: 18 },
        { lng: 135, lat: 53.5 },
      ];
  const pad = 40;
  let z = 3;
  for (let zoom = 16; zoom >= 3; zoom--) {
    const xy = pts.map((p) => project(p.lng, p.lat, zoom));
    const w = Math.max(...xy.map((p) => p[0])) - Math.min(...xy.map((p) => p[0]));
    const h = Math.max(...xy.map((p) => p[1])) - Math.min(...xy.map((p) => p[1]));
    if (w <= width - 2 * pad && h <= height - 2 * pad) {
      z = zoom;
      break;
    }
  }
  const xy = pts.map((p) => project(p.lng, p.lat, z));
  const cx = (Math.max(...xy.map((p) => p[0])) + Math.min(...xy.map((p) => p[0]))) / 2;
  const cy = (Math.max(...xy.map((p) => p[1])) + Math.min(...xy.map((p) => p[1]))) / 2;
  const left = cx - width / 2;
  const top = cy - height / 2;
  const n = 2 ** z;
  const tiles: TileView['tiles'] = [];
  for (let ty = Math.floor(top / TILE); ty * TILE < top + height; ty++) {
    if (ty < 0 || ty >= n) continue;
    for (let tx = Math.floor(left / TILE); tx * TILE < left + width; tx++) {
      const wx = ((tx % n) + n) % n;
      tiles.push({
        x: wx,
        y: ty,
        url: template.replace('{z}', String(z)).replace('{x}', String(wx)).replace('{y}', String(ty)),
        left: tx * TILE - left,
        top: ty * TILE - top,
      });
    }
  }
  return { z, left, top, width, height, tiles };
}

/** Points over a tile view: a scatter on hidden axes in the view's pixels (y downwards). */
export function tilePointsOption(points: readonly MapPoint[], view: TileView): DashOption {
  const hidden = { show: false } as const;
  return {
    ...base,
    tooltip: {
      trigger: 'item',
      formatter: (x: unknown) => (x as { data?: { tip?: string } }).data?.tip ?? '',
    },
    grid: { left: 0, right: 0, top: 0, bottom: 0 },
    xAxis: { type: 'value', min: 0, max: view.width, ...hidden },
    yAxis: { type: 'value', min: 0, max: view.height, inverse: true, ...hidden },
    series: [
      {
        type: 'scatter',
        name: '厕所',
        symbolSize: 10,
        itemStyle: { borderColor: '#fff', borderWidth: 1 },
        data: points.map((p) => {
          const [x, y] = project(p.lng, p.lat, view.z);
          return {
            name: p.name,
            value: [x - view.left, y - view.top],
            itemStyle: { color: pointColor(p) },
            tip: pointTooltip(p),
          };
        }),
      },
    ],
  };
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
