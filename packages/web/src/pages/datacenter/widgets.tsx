import { formatShare, type DatacenterOverview } from '@se/core';
import { Spin } from 'antd';
import type { ReactNode } from 'react';

// The data centres' building blocks: a panel, the loading state, the headline numbers. The
// chart panels are in chart-panels.tsx, the alarm and comment feeds in feeds.tsx.

type Ov = DatacenterOverview;

/** What every widget takes: the overview, and a class for its place in the layout. */
export interface WidgetProps {
  ov: Ov;
  className?: string;
}

export function Panel({
  title,
  extra,
  children,
  className,
}: {
  title: string;
  extra?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`dc-panel ${className ?? ''}`} aria-label={title}>
      <div className="dc-panel-title">
        <span>{title}</span>
        {extra !== undefined && <span className="dc-panel-extra">{extra}</span>}
      </div>
      <div className="dc-panel-body">{children}</div>
    </section>
  );
}

/** Loading, failure and the dashboard once the first answer is in. */
export function Loaded({
  overview,
  failed,
  children,
}: {
  overview: Ov | null;
  failed: boolean;
  children: (ov: Ov) => ReactNode;
}) {
  if (overview) return <>{children(overview)}</>;
  if (failed) return <div className="dc-empty">数据加载失败，稍后自动重试</div>;
  return (
    <div className="dc-empty">
      <Spin /> <div>正在加载数据…</div>
    </div>
  );
}

function Kpi({ label, value, sub }: { label: string; value: ReactNode; sub?: ReactNode }) {
  return (
    <div className="dc-kpi" aria-label={label}>
      <div className="dc-kpi-label">{label}</div>
      <div className="dc-kpi-value">{value}</div>
      {sub !== undefined && <div className="dc-kpi-sub">{sub}</div>}
    </div>
  );
}

export type TotalKey = 'toilets' | 'devices' | 'gateways' | 'visitors' | 'occupancy' | 'alarms' | 'comments';

/** The headline numbers; `only` picks and orders them. */
export function Totals({
  ov,
  only = ['toilets', 'devices', 'visitors', 'occupancy', 'alarms', 'comments'],
}: {
  ov: Ov;
  only?: TotalKey[];
}) {
  const t = ov.totals;
  const devices = t.devices.reduce((a, d) => ({ total: a.total + d.total, online: a.online + d.online }), {
    total: 0,
    online: 0,
  });
  const gateways = t.devices.find((d) => d.kind === 'gateway') ?? { total: 0, online: 0 };
  const tiles = {
    toilets: (
      <Kpi
        key="toilets"
        label="厕所总数"
        value={t.toilets}
        sub={`清洁中 ${t.cleaning} · 维修中 ${t.repair} · 报警 ${t.alarm}`}
      />
    ),
    devices: (
      <Kpi
        key="devices"
        label="设备在线"
        value={`${devices.online}/${devices.total}`}
        sub={`在线率 ${formatShare(devices.online, devices.total)}`}
      />
    ),
    gateways: (
      <Kpi
        key="gateways"
        label="网关在线"
        value={`${gateways.online}/${gateways.total}`}
        sub={`离线 ${gateways.total - gateways.online}`}
      />
    ),
    visitors: <Kpi key="visitors" label="今日客流" value={t.visitors_today} sub="人次（厕位使用）" />,
    occupancy: (
      <Kpi
        key="occupancy"
        label="当前占用"
        value={`${ov.occupancy.occupied}/${ov.occupancy.cubicles}`}
        sub={`占用率 ${formatShare(ov.occupancy.occupied, ov.occupancy.cubicles)}`}
      />
    ),
    alarms: <Kpi key="alarms" label="未处理报警" value={t.alarms_open} sub={`处理中 ${t.alarms_active}`} />,
    comments: <Kpi key="comments" label="今日评价" value={t.comments_today} sub={starText(ov)} />,
  };
  return <div className="dc-totals">{only.map((k) => tiles[k])}</div>;
}

function starText(ov: Ov) {
  const today = ov.ratings.days.at(-1);
  return today?.avg != null ? `今日平均 ${today.avg} 星` : '今日暂无评价';
}

export function Empty({ text }: { text: string }) {
  return <div className="dc-empty">{text}</div>;
}
