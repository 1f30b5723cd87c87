import { ALARM_TYPE_LABELS, type CampusDataCenter, CO2_AIRING_PPM, formatShortDateTime } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Empty, Result, Spin } from 'antd';
import { useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { getCampusDataCenter } from '../../api/campus.ts';
import { loadOrThrow } from '../../components/feedback.ts';
import { useLiveChannel } from '../../live/socket.ts';
import { Chart } from '../datacenter/Chart.tsx';
import { buildingDevicesOption, co2RankingOption, energyOption } from './dc-options.ts';
import { campusKey } from './keys.ts';
import { roomTypeLabel } from './campus-text.tsx';
import './campus-dc.css';

/** Live pushes arrive in bursts (a gateway's report and its sensors'): reload at most this often. */
const RELOAD_MS = 3000;

function Tile({ label, value, warn }: { label: string; value: string | number; warn?: boolean }) {
  return (
    <div className="cdc-tile">
      <div className={warn ? 'cdc-value cdc-warn' : 'cdc-value'}>{value}</div>
      <div className="cdc-label">{label}</div>
    </div>
  );
}

/**
 * 园区数据中心 (/ss-data-center): the organisation's live dashboard. Figures come from the
 * server's roll-ups of the placed devices' latest state; a report or alarm of one of them
 * (the /ws 'campus' channel) reloads them. Fits a 1366×768 laptop; stacks on a phone.
 */
export function DataCenterTab() {
  const navigate = useNavigate();
  const dc = useQuery({
    queryKey: [...campusKey, 'data-center'],
    queryFn: () => loadOrThrow(() => getCampusDataCenter()),
    refetchInterval: 60_000,
  });
  const last = useRef(0);
  const timer = useRef<number | null>(null);
  useLiveChannel({ channel: 'campus' }, () => {
    if (timer.current !== null) return;
    const wait = Math.max(0, last.current + RELOAD_MS - Date.now());
    timer.current = window.setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      void dc.refetch();
    }, wait);
  });
  const data = dc.data;
  const buildingsOpt = useMemo(() => (data ? buildingDevicesOption(data.buildings) : null), [data]);
  const co2Opt = useMemo(() => (data ? co2RankingOption(data.rooms_by_co2) : null), [data]);
  const energyOpt = useMemo(() => (data ? energyOption(data.buildings, data.energy) : null), [data]);

  if (dc.isLoading) return <Spin style={{ display: 'block', padding: 64 }} />;
  if (dc.isError || !data)
    return <Result status="warning" title="数据中心加载失败" subTitle={String(dc.error?.message ?? '')} />;
  return (
    <Dashboard
      data={data}
      buildingsOpt={buildingsOpt}
      co2Opt={co2Opt}
      energyOpt={energyOpt}
      open={(p) => void navigate(p)}
    />
  );
}

function Dashboard({
  data,
  buildingsOpt,
  co2Opt,
  energyOpt,
  open,
}: {
  data: CampusDataCenter;
  buildingsOpt: ReturnType<typeof buildingDevicesOption> | null;
  co2Opt: ReturnType<typeof co2RankingOption> | null;
  energyOpt: ReturnType<typeof energyOption> | null;
  open: (path: string) => void;
}) {
  const t = data.totals;
  const airing = data.rooms_by_co2.filter((r) => r.type === 'classroom' && r.co2 > CO2_AIRING_PPM);
  return (
    <div className="cdc" aria-label="园区数据中心">
      <header className="cdc-head">
        <div>
          <div className="cdc-title">{data.org.name} · 园区数据中心</div>
          {data.org.slogan && <div className="cdc-slogan">{data.org.slogan}</div>}
        </div>
        <div className="cdc-tiles">
          <Tile label="楼宇" value={t.buildings} />
          <Tile label="房间" value={t.rooms} />
          <Tile label="设备在线" value={`${t.online}/${t.devices}`} />
          <Tile label="在用人数" value={t.occupancy ?? '—'} />
          <Tile label="未处理报警" value={t.open_alarms} warn={t.open_alarms > 0} />
          <Tile label="教室需通风" value={airing.length} warn={airing.length > 0} />
        </div>
      </header>
      <section className="cdc-panel cdc-buildings">
        <h3>各楼宇设备与在用人数</h3>
        <div className="cdc-chart">
          {data.buildings.length ? (
            <Chart option={buildingsOpt} label="各楼宇设备在线与在用人数" />
          ) : (
            <Empty description="暂无楼宇" />
          )}
        </div>
        <div className="cdc-links">
          {data.buildings.map((b) => (
            <button
              key={b.id}
              type="button"
              className="cdc-link"
              onClick={() => open(`/ss-room?building_id=${b.id}`)}
            >
              {b.name}
              {b.open_alarms > 0 && <span className="cdc-badge">{b.open_alarms}</span>}
            </button>
          ))}
        </div>
      </section>
      <section className="cdc-panel cdc-energy">
        <h3>本月用电、用水与上月同期</h3>
        <div className="cdc-chart">
          {data.energy.length ? (
            <Chart option={energyOpt} label="各楼宇本月用电用水与上月同期" />
          ) : (
            <div className="cdc-empty">楼宇内还没有放置电表或水表</div>
          )}
        </div>
      </section>
      <section className="cdc-panel cdc-co2">
        <h3>房间 CO₂ 排行（超过 {CO2_AIRING_PPM} ppm 需通风）</h3>
        <div className="cdc-chart">
          {data.rooms_by_co2.length ? (
            <Chart option={co2Opt} label="房间二氧化碳排行" />
          ) : (
            <Empty description="暂无 CO₂ 数据" />
          )}
        </div>
        <div className="cdc-links">
          {data.rooms_by_co2.slice(0, 6).map((r) => (
            <button
              key={r.id}
              type="button"
              className="cdc-link"
              onClick={() =>
                open(`/ss-room?building_id=${r.building_id}&keywords=${encodeURIComponent(r.number)}`)
              }
            >
              {r.building_name} {r.number}（{roomTypeLabel(r.type)}）{Math.round(r.co2)}
            </button>
          ))}
        </div>
      </section>
      <section className="cdc-panel cdc-alarms">
        <h3>报警动态</h3>
        {data.alarms.length === 0 ? (
          <div className="cdc-empty">当前没有未处理的报警</div>
        ) : (
          <ul className="cdc-feed" aria-label="报警动态">
            {data.alarms.map((a) => (
              <li key={a.id}>
                <span className="cdc-time">{formatShortDateTime(a.opened_at)}</span>
                <span className="cdc-where">
                  {a.building_name}
                  {a.room_number ? ` ${a.room_number}` : ''}
                </span>
                <span className={a.status === 'open' ? 'cdc-warn' : ''}>
                  {(ALARM_TYPE_LABELS as Record<string, string>)[a.type] ?? a.type}
                  {a.status === 'open' ? '' : '（已确认）'}
                </span>
                <span className="cdc-dev">{a.desc || a.ser_num}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
