import { FullscreenExitOutlined, FullscreenOutlined, ReloadOutlined } from '@ant-design/icons';
import { formatDateTime, TZ_OFFSET_MS } from '@se/core';
import { Button, ConfigProvider, Tooltip, theme } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useLiveStatus, type LiveStatus } from '../../live/socket.ts';
import './dashboard.css';

const LIVE_TEXT: Record<LiveStatus, [string, string]> = {
  idle: ['未连接', '#8c8c8c'],
  connecting: ['连接中', '#faad14'],
  reconnecting: ['重连中', '#faad14'],
  open: ['实时', '#52c41a'],
};

/** 'YYYY-MM-DD HH:mm:ss 周X' in UTC+8, whatever the browser's zone. */
export function clockText(ms: number): string {
  const week = '日一二三四五六'[new Date(ms + TZ_OFFSET_MS).getUTCDay()];
  return `${formatDateTime(ms)} 周${week}`;
}

function Clock() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <span className="dc-clock">{clockText(now)}</span>;
}

function useFullscreen(target: RefObject<HTMLElement | null>) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const sync = () => setOn(document.fullscreenElement === target.current && target.current !== null);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, [target]);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void target.current?.requestFullscreen?.().catch(() => {});
  };
  return { on, toggle, supported: typeof document !== 'undefined' && document.fullscreenEnabled !== false };
}

/**
 * Sets `--dc-fit-h` on the dashboard to the height the window leaves it once everything
 * around it (header, tabs, paddings, footer) is counted, so the page does not scroll. The
 * dashboard clips its own overflow, so measuring the rest of the document is stable.
 */
function useFitHeight(target: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const el = target.current;
    if (!el) return;
    const fit = () => {
      // Hidden (a kept-alive route or tab) or full screen: nothing to measure.
      if (el.offsetParent === null || document.fullscreenElement) return;
      const rect = el.getBoundingClientRect();
      const top = rect.top + window.scrollY;
      const below = document.documentElement.scrollHeight - top - rect.height;
      const height = Math.floor(window.innerHeight - top - Math.max(0, below));
      if (el.style.getPropertyValue('--dc-fit-h') !== `${height}px`) {
        el.style.setProperty('--dc-fit-h', `${height}px`);
      }
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(document.body);
    window.addEventListener('resize', fit);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', fit);
    };
  }, [target]);
}

/**
 * The dark shell of every data centre: title, live state, clock, refresh and full-screen
 * buttons; antd pieces inside use the dark algorithm.
 */
export function Frame({
  title,
  children,
  onRefresh,
  headerless = false,
  tools: extraTools,
}: {
  title: string;
  children: ReactNode;
  /** Controls before the live state (the version switch). */
  tools?: ReactNode;
  onRefresh?: () => void;
  /** The layout draws its own title (the big screen). */
  headerless?: boolean;
}) {
  const root = useRef<HTMLDivElement>(null);
  const full = useFullscreen(root);
  useFitHeight(root);
  const live = LIVE_TEXT[useLiveStatus()];
  const tools = (
    <div className="dc-tools">
      {extraTools}
      <span className="dc-live" style={{ ['--dc-dot' as string]: live[1] }}>
        {live[0]}
      </span>
      <Clock />
      {onRefresh && (
        <Tooltip title="刷新">
          <Button type="text" aria-label="刷新" icon={<ReloadOutlined />} onClick={onRefresh} />
        </Tooltip>
      )}
      {full.supported && (
        <Tooltip title={full.on ? '退出全屏' : '全屏'}>
          <Button
            type="text"
            aria-label={full.on ? '退出全屏' : '全屏'}
            icon={full.on ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
            onClick={full.toggle}
          />
        </Tooltip>
      )}
    </div>
  );
  return (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm }}>
      <div ref={root} className="dc-root" data-testid="datacenter">
        <div className="dc-header">
          <div className="dc-title">{headerless ? null : title}</div>
          {tools}
        </div>
        {children}
      </div>
    </ConfigProvider>
  );
}
