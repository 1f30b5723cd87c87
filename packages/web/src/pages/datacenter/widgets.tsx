import {
  ALARM_STATUS_LABELS,
  ALARM_TYPE_LABELS,
  COMMENT_FLAGS,
  COMMENT_LEVELS,
  type AlarmStatus,
  type AlarmType,
  type CommentFeedRow,
  type DatacenterOverview,
} from '@se/core';
import { Spin } from 'antd';
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
} from './options.ts';

type Ov = DatacenterOverview;

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

const pct = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—');

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
        sub={`在线率 ${pct(devices.online, devices.total)}`}
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
        sub={`占用率 ${pct(ov.occupancy.occupied, ov.occupancy.cubicles)}`}
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

function Empty({ text }: { text: string }) {
  return <div className="dc-empty">{text}</div>;
}

export function DevicesPanel({ ov, className }: { ov: Ov; className?: string }) {
  const option = useMemo(() => devicesOption(ov.totals.devices), [ov.totals.devices]);
  return (
    <Panel title="设备在线" className={className}>
      {ov.totals.devices.length ? (
        <Chart option={option} label="各类设备在线数" />
      ) : (
        <Empty text="暂无设备" />
      )}
    </Panel>
  );
}

export function VisitorsPanel({ ov, className }: { ov: Ov; className?: string }) {
  const option = useMemo(() => visitorsOption(ov.visitors), [ov.visitors]);
  return (
    <Panel title="今日客流" extra={`${ov.totals.visitors_today} 人次`} className={className}>
      <Chart option={option} label="今日每小时客流" />
    </Panel>
  );
}

export function OccupancyPanel({ ov, className }: { ov: Ov; className?: string }) {
  const option = useMemo(() => occupancyOption(ov.occupancy.list), [ov.occupancy.list]);
  return (
    <Panel
      title="实时占用"
      extra={`${ov.occupancy.occupied}/${ov.occupancy.cubicles} 厕位`}
      className={className}
    >
      {ov.occupancy.list.length ? (
        <Chart option={option} label="各厕所实时占用" />
      ) : (
        <Empty text="暂无占用数据" />
      )}
    </Panel>
  );
}

export function AirPanel({ ov, className }: { ov: Ov; className?: string }) {
  const option = useMemo(() => airOption(ov.air.list), [ov.air.list]);
  const { good, fair, poor } = ov.air.levels;
  return (
    <Panel title="空气质量排行" extra={`优 ${good} · 良 ${fair} · 差 ${poor}`} className={className}>
      {ov.air.list.length ? <Chart option={option} label="空气质量排行" /> : <Empty text="暂无空气数据" />}
    </Panel>
  );
}

export function AirLevelsPanel({ ov, className }: { ov: Ov; className?: string }) {
  const option = useMemo(() => airLevelsOption(ov.air.levels), [ov.air.levels]);
  return (
    <Panel title="空气质量分布" className={className}>
      {ov.air.list.length ? <Chart option={option} label="空气质量分布" /> : <Empty text="暂无空气数据" />}
    </Panel>
  );
}

export function RatingsPanel({ ov, className }: { ov: Ov; className?: string }) {
  const option = useMemo(() => ratingsOption(ov.ratings.days), [ov.ratings.days]);
  const total = ov.ratings.days.reduce((n, d) => n + d.count, 0);
  return (
    <Panel title="评价趋势（30天）" extra={`${total} 条`} className={className}>
      <Chart option={option} label="30天评价数与平均星级" />
    </Panel>
  );
}

export function FlagsPanel({ ov, className }: { ov: Ov; className?: string }) {
  const option = useMemo(() => flagsOption(ov.ratings.flags), [ov.ratings.flags]);
  const any = Object.values(ov.ratings.flags).some((n) => n > 0);
  return (
    <Panel title="问题反馈（30天）" className={className}>
      {any ? <Chart option={option} label="问题反馈分布" /> : <Empty text="30天内无问题反馈" />}
    </Panel>
  );
}

export function LiquidPanel({ ov, className }: { ov: Ov; className?: string }) {
  const option = useMemo(() => liquidOption(ov.liquid.list), [ov.liquid.list]);
  return (
    <Panel title="除臭液余量" extra={`缺液 ${ov.liquid.lacking}/${ov.liquid.total} 台`} className={className}>
      {ov.liquid.list.length ? <Chart option={option} label="除臭液余量" /> : <Empty text="暂无除臭机" />}
    </Panel>
  );
}

const STATUS_COLOR: Record<AlarmStatus, string> = { open: '#ff4d4f', acked: '#faad14', closed: '#52c41a' };

export function AlarmFeed({ ov, className }: { ov: Ov; className?: string }) {
  return (
    <Panel title="报警动态" extra={`未处理 ${ov.totals.alarms_open}`} className={className}>
      {ov.alarms.length === 0 ? (
        <Empty text="暂无报警" />
      ) : (
        <ul className="dc-feed" aria-label="报警列表">
          {ov.alarms.map((a) => (
            <li key={a.id}>
              <span className="dc-feed-time">{a.opened_at.slice(5, 16)}</span>
              <span
                style={{ color: STATUS_COLOR[a.status as AlarmStatus] ?? undefined, whiteSpace: 'nowrap' }}
              >
                {ALARM_TYPE_LABELS[a.type as AlarmType] ?? a.type}
              </span>
              <span className="dc-feed-main" title={`${a.desc || a.ser_num} ${a.message}`}>
                {a.desc || a.ser_num} {a.message}
              </span>
              <span className="dc-feed-time">{ALARM_STATUS_LABELS[a.status as AlarmStatus] ?? a.status}</span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

const flagText = (c: CommentFeedRow) =>
  (Object.keys(COMMENT_FLAGS) as (keyof typeof COMMENT_FLAGS)[])
    .filter((f) => c[f])
    .map((f) => COMMENT_FLAGS[f])
    .join('、');

export function CommentFeed({ ov, className }: { ov: Ov; className?: string }) {
  return (
    <Panel title="最新评价" extra={`今日 ${ov.totals.comments_today} 条`} className={className}>
      {ov.comments.length === 0 ? (
        <Empty text="暂无评价" />
      ) : (
        <ul className="dc-feed" aria-label="评价列表">
          {ov.comments.map((c) => {
            const flags = flagText(c);
            const text = [c.content, flags].filter(Boolean).join(' · ');
            return (
              <li key={c.id}>
                <span className="dc-feed-time">{c.created_at.slice(5, 16)}</span>
                <span style={{ color: '#fadb14', whiteSpace: 'nowrap' }} title={COMMENT_LEVELS[c.star_level]}>
                  {'★'.repeat(c.star_level)}
                </span>
                <span className="dc-feed-main" title={`${c.toilet_name} ${text}`}>
                  {c.toilet_name} {text}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
