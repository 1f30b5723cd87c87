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

/**
 * Chart work in turns, one step per task. A dashboard creates and draws ten charts at once;
 * done together (echarts' deferred rendering draws every chart in the same frame) that was one
 * long task that kept the page from answering input (Lighthouse total blocking time, issue 19).
 * In turns, each chart's creation and first drawing is a task of its own, and a click or a
 * keystroke is handled between two of them.
 */
const turns: (() => void)[] = [];

function nextTurn() {
  const step = turns.shift()!;
  // Scheduled before the step runs, so one that throws does not stop the others.
  if (turns.length > 0) setTimeout(nextTurn, 0);
  step();
}

/** Runs `step` in a task of its own, after the chart steps queued before it. */
export function inTurn(step: () => void): void {
  turns.push(step);
  if (turns.length === 1) setTimeout(nextTurn, 0);
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
 * Creation and the first drawing each take a turn (`inTurn`); later options apply at once.
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
  /** The newest option, for the first drawing when its turn comes. */
  const latest = useRef(option);
  /** The option the chart shows; null until the first drawing. */
  const drawn = useRef<EChartsCoreOption | null>(null);
  const firstQueued = useRef(false);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    loadEcharts().then(
      ({ init }) =>
        inTurn(() => {
          if (disposed || !box.current) return;
          const instance = init(box.current, setup.current.theme, { renderer: 'canvas', locale: 'ZH' });
          setup.current.onInit?.(instance);
          chart.current = instance;
          observer = new ResizeObserver(() => instance.resize());
          observer.observe(box.current);
          setState('ready');
        }),
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
    latest.current = option;
    const instance = chart.current;
    if (state !== 'ready' || !option || !instance || option === drawn.current) return;
    if (drawn.current) {
      drawn.current = option;
      instance.setOption(option, { notMerge, lazyUpdate });
      return;
    }
    // The first drawing, whole (not deferred to a frame shared with the other charts), in
    // this chart's turn; it takes the newest option then.
    if (firstQueued.current) return;
    firstQueued.current = true;
    inTurn(() => {
      firstQueued.current = false;
      if (chart.current !== instance || !latest.current) return;
      drawn.current = latest.current;
      instance.setOption(latest.current, { notMerge: true });
    });
  }, [option, state, notMerge, lazyUpdate]);

  return state;
}
