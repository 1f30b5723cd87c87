import type { DatacenterOverview } from '@se/core';
import type { ReactNode } from 'react';
import type { DashboardArea } from './api.ts';
import { Frame } from './Frame.tsx';
import { MapPanel } from './MapPanel.tsx';
import { useDashboard } from './use-dashboard.ts';
import { Loaded, Panel, Totals, type TotalKey } from './widgets.tsx';

/**
 * One data centre: the dark frame, the overview's headline numbers (`totals`) and, under
 * them, the widgets `layout` places; `map(className)` is the toilets' map panel. Every
 * data-centre page is this with its own title and layout.
 */
export function Dashboard({
  title,
  area,
  totals,
  stage,
  layout,
}: {
  title: string;
  area: DashboardArea;
  totals?: TotalKey[];
  /** Wraps the content in a stage that draws its own title (the big screen's header has none). */
  stage?: (content: ReactNode) => ReactNode;
  layout: (ov: DatacenterOverview, map: (className?: string) => ReactNode) => ReactNode;
}) {
  const d = useDashboard(area);
  const map = (className?: string) => (
    <Panel title="厕所分布" className={className} extra={d.map ? `${d.map.points.length} 座` : undefined}>
      <MapPanel map={d.map} />
    </Panel>
  );
  const content = (
    <Loaded overview={d.overview} failed={d.failed}>
      {(ov) => (
        <>
          <Totals ov={ov} only={totals} />
          {layout(ov, map)}
        </>
      )}
    </Loaded>
  );
  return (
    <Frame title={title} onRefresh={d.refetch} headerless={stage !== undefined}>
      {stage ? stage(content) : content}
    </Frame>
  );
}
