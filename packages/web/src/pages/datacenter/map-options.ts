import { TOILET_STATUS, type MapPoint } from '@se/core';
import { MUTED, base, escapeHtml, type DashOption } from './options.ts';
import { project, type TileView } from './tiles.ts';

// The map panel's ECharts options: the bundled China map with toilets as points, or the
// points alone over a tile view (tiles.ts) when the site names a tile server.

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
