import { useEffect, useRef, useState, type RefObject } from 'react';
import type * as EchartsModule from './echarts.ts';
import type { ECharts, EChartsCoreOption } from './echarts.ts';

let echartsModule: Promise<typeof EchartsModule> | undefined;
/** echarts is fetched when the first chart is shown (ARCHITECTURE §6), once; a failed fetch is retried. */
export function loadEcharts() {
  echartsModule ??= import('./echarts.ts').catch((error: unknown) => {
    echartsModule = undefined;
    throw error;
  });
  return echartsModule;
}

export type ChartState = 'loading' | 'ready' | 'failed';

export interface EChartsSetup {
  /** 'dark' for the data centres; the console's charts use the default. */
  theme?: string;
  /** How a changed option is applied: replaced (`notMerge`) or merged so series animate. */
  update?: { notMerge?: boolean; lazyUpdate?: boolean };
  /** Called once with the new instance, e.g. to listen to its events. */
  onInit?: (chart: ECharts) => void;
}

/**
 * The ECharts lifecycle of one chart in `box`: created once echarts has loaded, resized with
 * its box, disposed with the component, and given `option` whenever it changes (null: not yet).
 */
export function useECharts(
  box: RefObject<HTMLDivElement | null>,
  option: EChartsCoreOption | null,
  { theme, update, onInit }: EChartsSetup = {},
): ChartState {
  const chart = useRef<ECharts | null>(null);
  const [state, setState] = useState<ChartState>('loading');
  const setup = useRef({ theme, onInit });
  const notMerge = update?.notMerge;
  const lazyUpdate = update?.lazyUpdate;

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    loadEcharts().then(
      ({ init }) => {
        if (disposed || !box.current) return;
        const instance = init(box.current, setup.current.theme, { renderer: 'canvas', locale: 'ZH' });
        setup.current.onInit?.(instance);
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
  }, [box]);

  useEffect(() => {
    if (state === 'ready' && option) chart.current?.setOption(option, { notMerge, lazyUpdate });
  }, [option, state, notMerge, lazyUpdate]);

  return state;
}
