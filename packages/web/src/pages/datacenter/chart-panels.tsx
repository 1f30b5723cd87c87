import type { DatacenterOverview } from '@se/core';
import { useMemo, type ReactNode } from 'react';
import { useOpenToilet } from '../../components/ObjectLinks.tsx';
import { Chart } from './Chart.tsx';
import {
  airLevelsOption,
  airOption,
  barRows,
  devicesOption,
  flagsOption,
  liquidOption,
  occupancyOption,
  ratingsOption,
  visitorsOption,
  type DashOption,
} from './options.ts';
import { Empty, Panel, type WidgetProps } from './widgets.tsx';

// The data centres' chart panels: each a title, a figure beside it and one ECharts option
// built from a part of the overview (options.ts), or a note when that part is empty.

type Ov = DatacenterOverview;

interface ChartSpec<T> {
  title: string;
  /** Accessible name of the chart. */
  label: string;
  /** The figure beside the title. */
  extra?: (ov: Ov) => ReactNode;
  /** The part of the overview the chart draws, and its option. */
  data: (ov: Ov) => T;
  option: (data: T) => DashOption;
  /** Shown instead of the chart when there is nothing to draw. */
  empty?: (ov: Ov) => string | false;
  /** The toilet a clicked bar stands for (its detail opens). */
  toiletAt?: (data: T, index: number) => number | undefined;
}

/** A chart panel widget from its description. */
function chartPanel<T>(spec: ChartSpec<T>) {
  return function ChartPanel({ ov, className }: WidgetProps) {
    const data = spec.data(ov);
    const built = useMemo(() => spec.option(data), [data]);
    const empty = spec.empty?.(ov);
    const openToilet = useOpenToilet();
    const onItemClick = spec.toiletAt && ((i: number) => openToilet(spec.toiletAt!(data, i)));
    return (
      <Panel title={spec.title} extra={spec.extra?.(ov)} className={className}>
        {empty ? (
          <Empty text={empty} />
        ) : (
          <Chart option={built} label={spec.label} onItemClick={onItemClick} />
        )}
      </Panel>
    );
  };
}

const noAir = (ov: Ov) => !ov.air.list.length && '暂无空气数据';

export const DevicesPanel = chartPanel({
  title: '设备在线',
  label: '各类设备在线数',
  data: (ov) => ov.totals.devices,
  option: devicesOption,
  empty: (ov) => !ov.totals.devices.length && '暂无设备',
});

export const VisitorsPanel = chartPanel({
  title: '今日客流',
  label: '今日每小时客流',
  extra: (ov) => `${ov.totals.visitors_today} 人次`,
  data: (ov) => ov.visitors,
  option: visitorsOption,
});

export const OccupancyPanel = chartPanel({
  title: '实时占用',
  label: '各厕所实时占用',
  extra: ({ occupancy: o }) => `${o.occupied}/${o.cubicles} 厕位`,
  data: (ov) => ov.occupancy.list,
  option: occupancyOption,
  toiletAt: (rows, i) => barRows(rows)[i]?.toilet_id,
  empty: (ov) => !ov.occupancy.list.length && '暂无占用数据',
});

export const AirPanel = chartPanel({
  title: '空气质量排行',
  label: '空气质量排行',
  extra: ({ air: { levels: l } }) => `优 ${l.good} · 良 ${l.fair} · 差 ${l.poor}`,
  data: (ov) => ov.air.list,
  option: airOption,
  toiletAt: (rows, i) => barRows(rows)[i]?.toilet_id,
  empty: noAir,
});

export const AirLevelsPanel = chartPanel({
  title: '空气质量分布',
  label: '空气质量分布',
  data: (ov) => ov.air.levels,
  option: airLevelsOption,
  empty: noAir,
});

export const RatingsPanel = chartPanel({
  title: '评价趋势（30天）',
  label: '30天评价数与平均星级',
  extra: (ov) => `${ov.ratings.days.reduce((n, d) => n + d.count, 0)} 条`,
  data: (ov) => ov.ratings.days,
  option: ratingsOption,
});

export const FlagsPanel = chartPanel({
  title: '问题反馈（30天）',
  label: '问题反馈分布',
  data: (ov) => ov.ratings.flags,
  option: flagsOption,
  empty: (ov) => !Object.values(ov.ratings.flags).some((n) => n > 0) && '30天内无问题反馈',
});

export const LiquidPanel = chartPanel({
  title: '除臭液余量',
  label: '除臭液余量',
  extra: ({ liquid: l }) => `缺液 ${l.lacking}/${l.total} 台`,
  data: (ov) => ov.liquid.list,
  option: liquidOption,
  empty: (ov) => !ov.liquid.list.length && '暂无除臭机',
});
