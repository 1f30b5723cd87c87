import { useMemo, type ReactNode } from 'react';
import { Chart } from './Chart.tsx';
import {
  airLevelsOption,
  airOption,
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

function ChartPanel<T>({
  title,
  extra,
  className,
  data,
  option,
  label,
  empty,
}: {
  title: string;
  extra?: ReactNode;
  className?: string;
  data: T;
  option: (data: T) => DashOption;
  /** Accessible name of the chart. */
  label: string;
  /** Shown instead of the chart when there is nothing to draw. */
  empty?: string | false;
}) {
  const built = useMemo(() => option(data), [option, data]);
  return (
    <Panel title={title} extra={extra} className={className}>
      {empty ? <Empty text={empty} /> : <Chart option={built} label={label} />}
    </Panel>
  );
}

export const DevicesPanel = ({ ov, className }: WidgetProps) => (
  <ChartPanel
    title="设备在线"
    className={className}
    data={ov.totals.devices}
    option={devicesOption}
    label="各类设备在线数"
    empty={!ov.totals.devices.length && '暂无设备'}
  />
);

export const VisitorsPanel = ({ ov, className }: WidgetProps) => (
  <ChartPanel
    title="今日客流"
    extra={`${ov.totals.visitors_today} 人次`}
    className={className}
    data={ov.visitors}
    option={visitorsOption}
    label="今日每小时客流"
  />
);

export const OccupancyPanel = ({ ov, className }: WidgetProps) => (
  <ChartPanel
    title="实时占用"
    extra={`${ov.occupancy.occupied}/${ov.occupancy.cubicles} 厕位`}
    className={className}
    data={ov.occupancy.list}
    option={occupancyOption}
    label="各厕所实时占用"
    empty={!ov.occupancy.list.length && '暂无占用数据'}
  />
);

export const AirPanel = ({ ov, className }: WidgetProps) => (
  <ChartPanel
    title="空气质量排行"
    extra={`优 ${ov.air.levels.good} · 良 ${ov.air.levels.fair} · 差 ${ov.air.levels.poor}`}
    className={className}
    data={ov.air.list}
    option={airOption}
    label="空气质量排行"
    empty={!ov.air.list.length && '暂无空气数据'}
  />
);

export const AirLevelsPanel = ({ ov, className }: WidgetProps) => (
  <ChartPanel
    title="空气质量分布"
    className={className}
    data={ov.air.levels}
    option={airLevelsOption}
    label="空气质量分布"
    empty={!ov.air.list.length && '暂无空气数据'}
  />
);

export const RatingsPanel = ({ ov, className }: WidgetProps) => (
  <ChartPanel
    title="评价趋势（30天）"
    extra={`${ov.ratings.days.reduce((n, d) => n + d.count, 0)} 条`}
    className={className}
    data={ov.ratings.days}
    option={ratingsOption}
    label="30天评价数与平均星级"
  />
);

export const FlagsPanel = ({ ov, className }: WidgetProps) => (
  <ChartPanel
    title="问题反馈（30天）"
    className={className}
    data={ov.ratings.flags}
    option={flagsOption}
    label="问题反馈分布"
    empty={!Object.values(ov.ratings.flags).some((n) => n > 0) && '30天内无问题反馈'}
  />
);

export const LiquidPanel = ({ ov, className }: WidgetProps) => (
  <ChartPanel
    title="除臭液余量"
    extra={`缺液 ${ov.liquid.lacking}/${ov.liquid.total} 台`}
    className={className}
    data={ov.liquid.list}
    option={liquidOption}
    label="除臭液余量"
    empty={!ov.liquid.list.length && '暂无除臭机'}
  />
);
