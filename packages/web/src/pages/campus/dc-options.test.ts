import { PERMISSION, campusRightOf, type CampusDataCenter } from '@se/core';
import { describe, expect, it } from 'vitest';
import { co2RankingOption } from './dc-options.ts';

type Ranked = CampusDataCenter['rooms_by_co2'][number];
const room = (id: number, co2: number): Ranked => ({
  id,
  building_id: 1,
  building_name: '第一教学楼',
  number: `${id}01`,
  name: '',
  type: 'classroom',
  co2,
  occupancy: null,
});

describe('campus data centre', () => {
  it('ranks rooms with the highest CO2 on top, coloured by SPEC §9 level, with the airing and poor lines', () => {
    const o = co2RankingOption([room(3, 1900), room(2, 1200), room(1, 600)]) as {
      yAxis: { data: string[] };
      series: {
        data: { value: number; itemStyle: { color: string } }[];
        markLine: { data: { xAxis: number }[] };
      }[];
    };
    // ECharts draws a category axis bottom-up: the highest is last.
    expect(o.yAxis.data).toEqual(['第一教学楼 101', '第一教学楼 201', '第一教学楼 301']);
    expect(o.series[0]!.data.map((d) => [d.value, d.itemStyle.color])).toEqual([
      [600, '#52c41a'],
      [1200, '#faad14'],
      [1900, '#ff4d4f'],
    ]);
    expect(o.series[0]!.markLine.data.map((l) => l.xAxis)).toEqual([1000, 1800]);
  });

  it('reads the campus right from the SPEC §6 bits', () => {
    expect(campusRightOf(PERMISSION.dealer | PERMISSION.user)).toBeNull();
    expect(campusRightOf(PERMISSION.ssVisitor)).toBe('read');
    expect(campusRightOf(PERMISSION.ssUser | PERMISSION.ssVisitor)).toBe('edit');
    expect(campusRightOf(PERMISSION.ssManager)).toBe('manage');
    expect(campusRightOf(PERMISSION.ssSuperSaled)).toBe('manage');
    expect(campusRightOf(PERMISSION.develop)).toBe('manage');
  });
});
