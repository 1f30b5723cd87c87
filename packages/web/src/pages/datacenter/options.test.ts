import type { BarSeriesOption, LineSeriesOption, MapSeriesOption, PieSeriesOption } from 'echarts/charts';
import { describe, expect, it } from 'vitest';
import type { MapPoint } from '@se/core';
import { sampleOverview } from './fixtures.ts';
import { chinaMapOption, pointColor, provinceKey, tilePointsOption } from './map-options.ts';
import {
  LEVEL_COLORS,
  airOption,
  devicesOption,
  flagsOption,
  liquidOption,
  liquidPercent,
  occupancyOption,
  ratingsOption,
  shortName,
  visitorsOption,
} from './options.ts';
import { project, tileView } from './tiles.ts';

const ov = sampleOverview();
const bars = (o: { series?: unknown }) => o.series as BarSeriesOption[];
type Item = { value: number; itemStyle: { color: string } };

describe('data centre chart options', () => {
  it('stacks online and offline devices per kind with Chinese names', () => {
    const o = devicesOption(ov.totals.devices);
    expect((o.xAxis as { data: string[] }).data).toEqual(['网关', '除臭机', '传感器']);
    expect(bars(o).map((s) => [s.name, s.data])).toEqual([
      ['在线', [2, 1, 0]],
      ['离线', [1, 1, 1]],
    ]);
  });

  it("spreads today's visitors over the 24 hours of UTC+8", () => {
    const o = visitorsOption(ov.visitors);
    expect((o.xAxis as { data: string[] }).data).toHaveLength(24);
    const male = bars(o)[0]!.data as number[];
    expect(male[9]).toBe(3);
    expect(male[11]).toBe(4);
    expect(male.reduce((a, b) => a + b, 0)).toBe(7);
    expect(bars(o).map((s) => s.name)).toEqual(['男', '女', '其他']);
  });

  it('shows the busiest toilets on top with occupied per group and the free cubicles', () => {
    const o = occupancyOption(ov.occupancy.list);
    // Bars grow from the bottom: the busiest is last in the category list.
    expect((o.yAxis as { data: string[] }).data).toEqual(['西门公厕（离线）', '东门公厕']);
    const byName = Object.fromEntries(bars(o).map((s) => [s.name, s.data]));
    expect(byName['男占用']).toEqual([1, 3]);
    expect(byName['空闲']).toEqual([5, 4]);
  });

  it('ranks air quality as scores out of 100 coloured by level', () => {
    const o = airOption(ov.air.list);
    const data = bars(o)[0]!.data as Item[];
    expect((o.yAxis as { data: string[] }).data).toEqual(['西门公厕', '东门公厕']);
    expect(data.map((d) => [d.value, d.itemStyle.color])).toEqual([
      [100, LEVEL_COLORS.good],
      [50, LEVEL_COLORS.poor],
    ]);
    const tip = (o.tooltip as { formatter: (p: unknown) => string }).formatter({ dataIndex: 1 });
    expect(tip).toContain('东门公厕：50 分 差');
    expect(tip).toContain('NH3 2（差）');
  });

  it('draws rating counts as bars and the average stars on a 0–5 axis, leaving empty days blank', () => {
    const o = ratingsOption(ov.ratings.days);
    const [count, avg] = o.series as [BarSeriesOption, LineSeriesOption];
    expect((o.xAxis as { data: string[] }).data).toEqual(['05-31', '06-01']);
    expect(count.data).toEqual([0, 1]);
    expect(avg.data).toEqual([null, 4]);
    expect(avg.yAxisIndex).toBe(1);
  });

  it('breaks the complaint ticks down by their Chinese names', () => {
    const pie = (flagsOption(ov.ratings.flags).series as PieSeriesOption[])[0]!;
    expect((pie.data as { name: string; value: number }[]).map((d) => [d.name, d.value])).toEqual([
      ['态度差', 0],
      ['效率低', 1],
      ['卫生差', 0],
      ['有异味', 2],
    ]);
    // Empty slices are not labelled: their labels piled up on each other at 1366 px.
    const labelled = (pie.data as { name: string; label?: { show: boolean } }[])
      .filter((d) => d.label?.show !== false)
      .map((d) => d.name);
    expect(labelled).toEqual(['效率低', '有异味']);
  });

  it('shows dispenser fill in percent, red when lacking liquid', () => {
    expect(liquidPercent(ov.liquid.list[0]!)).toBe(2);
    expect(liquidPercent({ ...ov.liquid.list[0]!, liquid: null })).toBeNull();
    const o = liquidOption(ov.liquid.list);
    expect((o.yAxis as { data: string[] }).data).toEqual(['JWB-2', '男卫除臭机']);
    expect((bars(o)[0]!.data as Item[]).map((d) => [d.value, d.itemStyle.color])).toEqual([
      [91, '#13c2c2'],
      [2, '#ff4d4f'],
    ]);
  });

  it('cuts long names on axes', () => {
    expect(shortName('杭州市西湖区断桥残雪公厕', 8)).toBe('杭州市西湖区断桥…');
    expect(shortName('东门公厕')).toBe('东门公厕');
  });
});

const point = (over: Partial<MapPoint>): MapPoint => ({
  id: 1,
  name: '东门公厕',
  lng: 120.15,
  lat: 30.28,
  pname: '浙江省',
  cityname: '杭州市',
  address: '<b>湖滨</b>',
  status: 0,
  online: true,
  gateway_id: 11,
  ...over,
});

describe('data centre map', () => {
  it('names provinces as the bundled map does', () => {
    expect(
      [
        '浙江省',
        '北京市',
        '广西壮族自治区',
        '内蒙古自治区',
        '新疆维吾尔自治区',
        '香港特别行政区',
        '上海',
      ].map(provinceKey),
    ).toEqual(['浙江', '北京', '广西', '内蒙古', '新疆', '香港', '上海']);
  });

  it('colours toilets by alarm, then online state', () => {
    expect(pointColor({ status: 4, online: true })).toBe('#ff4d4f');
    expect(pointColor({ status: 1, online: true })).toBe('#52c41a');
    expect(pointColor({ status: 0, online: false })).toBe('#8c8c8c');
  });

  it('puts points at lng/lat on the China map, province counts summed, alarms rippling, names escaped', () => {
    const o = chinaMapOption(
      [point({}), point({ id: 2, name: '北站', lng: 116.4, lat: 39.9, status: 4 })],
      [
        { pname: '浙江省', count: 3 },
        { pname: '浙江', count: 1 },
        { pname: '北京市', count: 1 },
      ],
    );
    expect(o.geo).toMatchObject({ map: 'china' });
    const [regions, scatter, ripple] = o.series as [
      MapSeriesOption,
      { data: { value: number[] }[] },
      { data: unknown[] },
    ];
    expect(regions.data).toEqual([
      { name: '浙江', value: 4 },
      { name: '北京', value: 1 },
    ]);
    expect(scatter.data.map((d) => d.value)).toEqual([
      [120.15, 30.28],
      [116.4, 39.9],
    ]);
    expect(ripple.data).toHaveLength(1);
    const tip = (o.tooltip as { formatter: (p: unknown) => string }).formatter({ data: scatter.data[0] });
    expect(tip).toBe('东门公厕（在线）<br/>浙江省 杭州市 &lt;b&gt;湖滨&lt;/b&gt;');
  });

  it('projects with Web Mercator and picks the closest zoom whose tiles show every point', () => {
    expect(project(0, 0, 0)).toEqual([128, 128]);
    const [x, y] = project(180, 85.05112878, 1);
    expect(x).toBeCloseTo(512);
    expect(y).toBeCloseTo(0, 3);
    const pts = [point({}), point({ lng: 120.1, lat: 30.25 })];
    const view = tileView(pts, 800, 600, '/tiles/{z}/{x}/{y}.png');
    expect(view.z).toBeGreaterThanOrEqual(12);
    expect(view.tiles.length).toBeGreaterThan(0);
    expect(view.tiles[0]!.url).toMatch(new RegExp(`^/tiles/${view.z}/\\d+/\\d+\\.png$`));
    // Every point falls inside the box.
    const o = tilePointsOption(pts, view);
    const data = (o.series as { data: { value: number[] }[] }[])[0]!.data;
    for (const d of data) {
      expect(d.value[0]).toBeGreaterThan(0);
      expect(d.value[0]).toBeLessThan(800);
      expect(d.value[1]).toBeGreaterThan(0);
      expect(d.value[1]).toBeLessThan(600);
    }
    // Without points: all of China at a small zoom.
    expect(tileView([], 800, 600, '/t/{z}/{x}/{y}').z).toBeLessThanOrEqual(4);
  });
});
