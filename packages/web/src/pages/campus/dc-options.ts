import { CO2_AIRING_PPM, GAS_THRESHOLDS, gasLevel, type CampusDataCenter } from '@se/core';
import { LEVEL_COLORS, MUTED, base, shortName, type DashOption } from '../datacenter/options.ts';

// The campus data centre's chart options, from the API's figures (tested without a canvas).

const SPLIT = 'rgba(255,255,255,0.08)';
const grid = { left: 8, right: 24, top: 28, bottom: 8, containLabel: true } as const;

/** Online and offline devices per building, stacked; a bar's index is the building's. */
export function buildingDevicesOption(buildings: CampusDataCenter['buildings']): DashOption {
  return {
    ...base,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, textStyle: { color: MUTED } },
    grid,
    xAxis: {
      type: 'category',
      data: buildings.map((b) => shortName(b.name, 4)),
      axisLabel: { interval: 0, fontSize: 11, color: MUTED },
    },
    yAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { color: SPLIT } } },
    series: [
      {
        type: 'bar',
        name: '在线',
        stack: 'n',
        itemStyle: { color: '#52c41a' },
        data: buildings.map((b) => b.online),
      },
      {
        type: 'bar',
        name: '离线',
        stack: 'n',
        itemStyle: { color: '#595959' },
        data: buildings.map((b) => b.devices - b.online),
      },
      {
        type: 'bar',
        name: '在用人数',
        itemStyle: { color: '#1677ff' },
        data: buildings.map((b) => b.occupancy ?? 0),
      },
    ],
  };
}

/**
 * Rooms by CO2, highest on top, coloured by SPEC §9's level, with the airing line
 * (CO2_AIRING_PPM) and the poor line; a bar's index is the room's in `rooms`.
 */
export function co2RankingOption(rooms: CampusDataCenter['rooms_by_co2']): DashOption {
  const shown = [...rooms].reverse();
  return {
    ...base,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid,
    xAxis: { type: 'value', name: 'ppm', splitLine: { lineStyle: { color: SPLIT } } },
    yAxis: {
      type: 'category',
      data: shown.map((r) => `${shortName(r.building_name, 5)} ${r.number}`),
      axisLabel: { fontSize: 11, color: MUTED },
    },
    series: [
      {
        type: 'bar',
        name: 'CO₂',
        data: shown.map((r) => ({
          value: Math.round(r.co2),
          itemStyle: { color: LEVEL_COLORS[gasLevel('co2', r.co2)] },
        })),
        markLine: {
          symbol: 'none',
          label: { color: MUTED, formatter: '{b}' },
          data: [
            { name: '需通风', xAxis: CO2_AIRING_PPM, lineStyle: { color: '#faad14' } },
            { name: '差', xAxis: GAS_THRESHOLDS.co2.high, lineStyle: { color: '#ff4d4f' } },
          ],
        },
      },
    ],
  };
}

/**
 * This month's electricity (kWh, left axis) and water (m³, right axis) per building, each
 * beside the same days of last month, from the usage rollups.
 */
export function energyOption(
  buildings: CampusDataCenter['buildings'],
  energy: CampusDataCenter['energy'],
): DashOption {
  const of = (id: number, kind: 'electric_meter' | 'water_meter', f: 'month' | 'month_prev') =>
    Math.round((energy.find((e) => e.building_id === id && e.kind === kind)?.[f] ?? 0) * 10) / 10;
  const bar = (
    name: string,
    kind: 'electric_meter' | 'water_meter',
    f: 'month' | 'month_prev',
    color: string,
  ) => ({
    type: 'bar' as const,
    name,
    yAxisIndex: kind === 'electric_meter' ? 0 : 1,
    itemStyle: { color },
    data: buildings.map((b) => of(b.id, kind, f)),
  });
  return {
    ...base,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, textStyle: { color: MUTED }, itemWidth: 12 },
    grid: { ...grid, top: 40 },
    xAxis: {
      type: 'category',
      data: buildings.map((b) => shortName(b.name, 4)),
      axisLabel: { interval: 0, fontSize: 11, color: MUTED },
    },
    yAxis: [
      { type: 'value', name: 'kWh', splitLine: { lineStyle: { color: SPLIT } } },
      { type: 'value', name: 'm³', splitLine: { show: false } },
    ],
    series: [
      bar('本月用电', 'electric_meter', 'month', '#faad14'),
      bar('上月同期用电', 'electric_meter', 'month_prev', '#8c6d1f'),
      bar('本月用水', 'water_meter', 'month', '#1677ff'),
      bar('上月同期用水', 'water_meter', 'month_prev', '#174a8c'),
    ],
  };
}
