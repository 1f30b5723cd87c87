import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Dashboard } from './Dashboard.tsx';

const STAGE_W = 1920;
const STAGE_H = 1080;
const TITLE = '智慧厕所数据展示中心';

/** The scale that fits a 1920×1080 stage into a box (never larger than 1:1 × 2). */
export function stageScale(width: number, height: number): number {
  if (width <= 0 || height <= 0) return 1;
  return Math.min(width / STAGE_W, height / STAGE_H, 2);
}

/** A 1920×1080 stage with its title, scaled to whatever box shows it. */
function Stage({ children }: { children: ReactNode }) {
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
    <div ref={outer} className="dc-stage-outer" style={{ aspectRatio: `${STAGE_W} / ${STAGE_H}` }}>
      <div className="dc-stage" style={{ transform: `translateX(-50%) scale(${scale})` }}>
        <div className="dc-title">{TITLE}</div>
        {children}
      </div>
    </div>
  );
}

/** /display-center: the big screen, laid out at 1920×1080 and scaled to whatever shows it. */
export default function DisplayCenter() {
  return (
    <Dashboard
      title={TITLE}
      area="dataCenter"
      stage={(content) => <Stage>{content}</Stage>}
      grid="dc-stage-grid"
      mapClass="dc-stage-map"
      cells={['occupancy', 'map', 'alarms', 'air', 'comments', 'liquid', 'visitors', 'ratings']}
    />
  );
}
