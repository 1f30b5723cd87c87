import {
  AIR_LEVELS,
  type AirLevel,
  type DisplayData,
  formatAirScore,
  formatStars,
  isOpenAt,
  TOILET_STATUS,
} from '@se/core';
import { Button, Card, Descriptions, Skeleton, Typography } from 'antd';
import { Fragment, useEffect, useState, type CSSProperties } from 'react';
import { Link, useSearchParams } from 'react-router';
import { getDisplay } from '../../api/display.ts';
import { SiteFooter } from '../../components/SiteFooter.tsx';
import { useSiteInfo } from '../../components/use-site-info.ts';
import { FIELD_META, numberText } from '../../live/latest-values.ts';
import { APP_NAME } from '../../navigation/names.ts';
import { commentUrl, openingHoursText } from '../toilets/detail-text.ts';
import {
  INITIAL_DISPLAY,
  afterPoll,
  clockText,
  freeOf,
  hhmmOf,
  nextPollSeconds,
  type DisplayState,
} from './display-view.ts';
import { useQrDataUrl } from '../toilets/qr.ts';

/** Without a token: which system and version this is (the page is always reachable). */
function SystemInfo() {
  const { site, loading } = useSiteInfo();
  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
      <Card style={{ width: '100%', maxWidth: 480, marginTop: '12vh' }}>
        <div style={{ textAlign: 'center', marginBottom: 16 }}>
          <img src="/favicon.svg" alt="" width={56} height={56} />
          <Typography.Title level={3} style={{ marginBottom: 0 }}>
            {site?.name || APP_NAME}
          </Typography.Title>
        </div>
        {loading ? (
          <Skeleton active paragraph={{ rows: 2 }} title={false} />
        ) : (
          <Descriptions
            column={1}
            bordered
            size="small"
            items={[
              { key: 'version', label: '版本', children: site?.version || '未知' },
              { key: 'record', label: '备案号', children: site?.record_code || '—' },
            ]}
          />
        )}
        <div style={{ textAlign: 'center', marginTop: 24 }}>
          <Link to="/">
            <Button type="primary">进入系统</Button>
          </Link>
        </div>
      </Card>
      <SiteFooter style={{ marginTop: 'auto' }} />
    </div>
  );
}

// The screen hangs on a wall: dark, large, readable from across the room.
const BG = '#0b1627';
const PANEL = '#13233b';
const TEXT = '#e8f0fb';
const MUTED = '#8ea3c0';
const LEVEL_COLOR: Record<AirLevel, string> = { good: '#3ddc84', fair: '#ffb020', poor: '#ff5a5f' };

const screen: CSSProperties = {
  minHeight: '100vh',
  background: BG,
  color: TEXT,
  display: 'flex',
  flexDirection: 'column',
  padding: 'clamp(12px, 2vw, 32px)',
  gap: 'clamp(12px, 1.5vw, 24px)',
  boxSizing: 'border-box',
  fontSize: 'clamp(14px, 1.4vw, 22px)',
};
const panel: CSSProperties = {
  background: PANEL,
  borderRadius: 16,
  padding: 'clamp(12px, 1.6vw, 28px)',
  display: 'flex',
  flexDirection: 'column',
  gap: 12,
  minWidth: 0,
};
const heading: CSSProperties = { fontSize: '1.1em', color: MUTED, margin: 0, fontWeight: 500 };
const big: CSSProperties = { fontSize: 'clamp(32px, 4.5vw, 80px)', fontWeight: 700, lineHeight: 1.1 };

/** Polls the display call with the token; the state survives network trouble and revocation. */
function useDisplay(token: string): DisplayState {
  const [state, setState] = useState<DisplayState>(INITIAL_DISPLAY);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current = INITIAL_DISPLAY;
    const poll = async () => {
      let res = null;
      try {
        res = await getDisplay(token);
      } catch {
        // Offline for a moment: keep showing the last values.
      }
      if (!live) return;
      current = afterPoll(current, res, Date.now());
      setState(current);
      timer = setTimeout(() => void poll(), nextPollSeconds(current) * 1000);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [token]);
  return state;
}

function useClock(offset: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now + offset;
}

function Occupancy({ data }: { data: DisplayData }) {
  if (!data.occupancy.length) return <div style={{ color: MUTED }}>暂无厕位数据</div>;
  return (
    <div style={{ display: 'flex', gap: 'clamp(8px, 1.2vw, 20px)', flexWrap: 'wrap' }}>
      {data.occupancy.map((g) => {
        const free = freeOf(g);
        const full = free === 0;
        return (
          <div
            key={g.key}
            data-testid={`display-occupancy-${g.key}`}
            style={{
              flex: '1 1 0',
              minWidth: 140,
              background: BG,
              borderRadius: 12,
              padding: 'clamp(10px, 1.2vw, 20px)',
              textAlign: 'center',
            }}
          >
            <div style={{ fontSize: '1.3em' }}>{g.label}</div>
            <div style={{ ...big, color: full ? LEVEL_COLOR.poor : LEVEL_COLOR.good }}>{free ?? '—'}</div>
            <div style={{ color: MUTED }}>
              {free === null
                ? `共 ${g.count} 个厕位`
                : full
                  ? `已满 · 共 ${g.count} 个`
                  : `空闲 · 共 ${g.count} 个`}
            </div>
          </div>
        );
      })}
    </div>
  );
}

function Air({ data }: { data: DisplayData }) {
  if (!data.air) return <div style={{ color: MUTED }}>暂无空气质量数据</div>;
  const level = data.air.level as AirLevel;
  return (
    <div style={{ display: 'flex', gap: 'clamp(12px, 2vw, 32px)', alignItems: 'center', flexWrap: 'wrap' }}>
      <div style={{ textAlign: 'center' }} data-testid="display-air-level">
        <div style={{ ...big, color: LEVEL_COLOR[level] }}>{AIR_LEVELS[level]}</div>
        <div style={{ color: MUTED }}>评分 {formatAirScore(data.air.score)}</div>
      </div>
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'auto auto auto',
          gap: '4px 16px',
          alignItems: 'baseline',
        }}
      >
        {data.air.gases.map((g) => (
          <Fragment key={g.gas}>
            <span style={{ color: MUTED }}>{FIELD_META[g.gas]?.label ?? g.gas}</span>
            <span>
              {numberText(g.value)}{' '}
              <span style={{ color: MUTED, fontSize: '0.8em' }}>{FIELD_META[g.gas]?.unit}</span>
            </span>
            <span style={{ color: LEVEL_COLOR[g.level as AirLevel] }}>{AIR_LEVELS[g.level as AirLevel]}</span>
          </Fragment>
        ))}
      </div>
    </div>
  );
}

function Qr({ publicId }: { publicId: string }) {
  const qr = useQrDataUrl(commentUrl(window.location.origin, publicId), 480);
  return (
    <div
      style={{
        background: '#fff',
        borderRadius: 12,
        padding: 8,
        width: 'min(22vw, 240px)',
        aspectRatio: '1',
      }}
    >
      {qr.url && (
        <img src={qr.url} alt="评价二维码" style={{ width: '100%', height: '100%', display: 'block' }} />
      )}
    </div>
  );
}

function Screen({ state }: { state: DisplayState }) {
  const now = useClock(state.clockOffset);
  const data = state.data!;
  const doc = data.document;
  const open = isOpenAt(hhmmOf(now), doc.open_time, doc.close_time);
  const cleaning = (data.toilet.status & TOILET_STATUS.cleaning) !== 0;
  const repair = (data.toilet.status & TOILET_STATUS.repair) !== 0;
  return (
    <div style={screen}>
      <header style={{ display: 'flex', alignItems: 'baseline', gap: 16, flexWrap: 'wrap' }}>
        <h1 style={{ margin: 0, fontSize: 'clamp(24px, 3vw, 52px)', color: TEXT }}>{data.toilet.name}</h1>
        <span style={{ color: MUTED }}>{data.toilet.address}</span>
        <span
          style={{
            marginInlineStart: 'auto',
            fontSize: 'clamp(20px, 2.4vw, 40px)',
            fontVariantNumeric: 'tabular-nums',
          }}
        >
          {clockText(now)}
        </span>
      </header>
      {(cleaning || repair || !open) && (
        <div
          role="status"
          style={{
            background: repair ? '#5a3b00' : '#0f3d63',
            borderRadius: 12,
            padding: '10px 20px',
            fontSize: '1.4em',
            textAlign: 'center',
          }}
        >
          {!open ? '当前不在开放时间' : repair ? '维修中，给您带来不便敬请谅解' : '清洁中，请稍候'}
        </div>
      )}
      <main
        style={{
          flex: 1,
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 360px), 1fr))',
          gap: 'clamp(12px, 1.5vw, 24px)',
        }}
      >
        <section style={panel}>
          <h2 style={heading}>厕位空闲</h2>
          <Occupancy data={data} />
        </section>
        <section style={panel}>
          <h2 style={heading}>空气质量</h2>
          <Air data={data} />
        </section>
        <section style={{ ...panel, alignItems: 'center', textAlign: 'center' }}>
          <h2 style={heading}>开放时间</h2>
          <div style={{ fontSize: '1.6em' }} data-testid="display-hours">
            {openingHoursText(doc.open_time, doc.close_time)}
          </div>
          <div style={{ color: open ? LEVEL_COLOR.good : MUTED }}>{open ? '开放中' : '已关闭'}</div>
          <Qr publicId={data.toilet.public_id} />
          <div style={{ fontSize: '1.2em' }}>扫码评价</div>
          <div style={{ color: MUTED }}>
            {data.star_average === null
              ? '暂无评分'
              : `平均 ${formatStars(data.star_average)} 星 · ${data.star_count} 次评价`}
          </div>
        </section>
      </main>
      <footer style={{ color: MUTED, display: 'flex', gap: 16, flexWrap: 'wrap', fontSize: '0.8em' }}>
        {state.stale && <span style={{ color: LEVEL_COLOR.fair }}>网络中断，显示的可能不是最新数据</span>}
        {data.gateway_online === false && <span style={{ color: LEVEL_COLOR.fair }}>网关离线</span>}
        {data.updated_at !== null && <span>数据更新于 {clockText(data.updated_at)}</span>}
        {doc.content && <span>{doc.content}</span>}
      </footer>
    </div>
  );
}

function Message({ title, detail }: { title: string; detail?: string }) {
  return (
    <div
      style={{ ...screen, alignItems: 'center', justifyContent: 'center', textAlign: 'center' }}
      role="alert"
    >
      <div style={{ ...big, fontSize: 'clamp(28px, 4vw, 64px)' }}>{title}</div>
      {detail && <div style={{ color: MUTED }}>{detail}</div>}
    </div>
  );
}

function Display({ token }: { token: string }) {
  const state = useDisplay(token);
  if (state.invalid)
    return <Message title={state.invalid} detail="请联系管理员在厕所详情中重新创建显示令牌" />;
  if (!state.data) {
    return state.stale ? (
      <Message title="正在连接服务器…" detail="网络恢复后自动显示" />
    ) : (
      <Message title="加载中…" />
    );
  }
  return <Screen state={state} />;
}

/**
 * /eternal-page: with `?token=` the full-screen display inside a toilet (occupancy, air,
 * opening hours, the review QR code), polled every 15 s; without, the system's information.
 */
export default function EternalPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim();
  return token ? <Display key={token} token={token} /> : <SystemInfo />;
}
