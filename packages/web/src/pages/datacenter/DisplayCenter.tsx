import { useEffect, useRef, useState } from 'react';
import { MapPanel } from './MapPanel.tsx';
import { Frame } from './Frame.tsx';
import { useDashboard } from './use-dashboard.ts';
import {
  AirPanel,
  AlarmFeed,
  CommentFeed,
  LiquidPanel,
  Loaded,
  OccupancyPanel,
  Panel,
  RatingsPanel,
  Totals,
  VisitorsPanel,
} from './widgets.tsx';

const STAGE_W = 1920;
const STAGE_H = 1080;

/** The scale that fits a 1920×1080 stage into a box (never larger than 1:1 × 2). */
export function stageScale(width: number, height: number): number {
  if (width <= 0 || height <= 0) return 1;
  return Math.min(width / STAGE_W, height / STAGE_H, 2);
}

/** /display-center: the big screen, laid out at 1920×1080 and scaled to whatever shows it. */
export default function DisplayCenter() {
  const d = useDashboard('dataCenter');
  const outer = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(0.5);
  useEffect(() => {
    const el = outer.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setScale(stageScale(el.clientWidth, el.clientHeight)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <Frame title="智慧厕所数据展示中心" onRefresh={d.refetch} headerless>
      <div ref={outer} className="dc-stage-outer" style={{ aspectRatio: `${STAGE_W} / ${STAGE_H}` }}>
        <div className="dc-stage" style={{ transform: `translateX(-50%) scale(${scale})` }}>
          <div className="dc-title">智慧厕所数据展示中心</div>
          <Loaded overview={d.overview} failed={d.failed}>
            {(ov) => (
              <>
                <Totals ov={ov} />
                <div className="dc-stage-grid">
                  <OccupancyPanel ov={ov} />
                  <Panel
                    title="厕所分布"
                    className="dc-stage-map"
                    extra={d.map ? `${d.map.points.length} 座` : undefined}
                  >
                    <MapPanel map={d.map} />
                  </Panel>
                  <AlarmFeed ov={ov} />
                  <AirPanel ov={ov} />
                  <CommentFeed ov={ov} />
                  <LiquidPanel ov={ov} />
                  <VisitorsPanel ov={ov} />
                  <RatingsPanel ov={ov} />
                </div>
              </>
            )}
          </Loaded>
        </div>
      </div>
    </Frame>
  );
}
