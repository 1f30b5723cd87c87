import type { DatacenterOverview } from '@se/core';
import type { CSSProperties, ReactNode } from 'react';
import type { DashboardArea } from './api.ts';
import {
  AirLevelsPanel,
  AirPanel,
  DevicesPanel,
  FlagsPanel,
  LiquidPanel,
  OccupancyPanel,
  RatingsPanel,
  VisitorsPanel,
} from './chart-panels.tsx';
import { AlarmFeed, CommentFeed } from './feeds.tsx';
import { Frame } from './Frame.tsx';
import { MapPanel } from './MapPanel.tsx';
import { useDashboard } from './use-dashboard.ts';
import { Loaded, Panel, Totals, type TotalKey, type WidgetProps } from './widgets.tsx';

/** The data centres' widgets by name: a layout lists the ones it shows. */
const WIDGETS = {
  occupancy: OccupancyPanel,
  air: AirPanel,
  airLevels: AirLevelsPanel,
  devices: DevicesPanel,
  visitors: VisitorsPanel,
  ratings: RatingsPanel,
  flags: FlagsPanel,
  liquid: LiquidPanel,
  alarms: AlarmFeed,
  comments: CommentFeed,
} satisfies Record<string, (props: WidgetProps) => ReactNode>;

/** A widget by name; `map` is the toilets' map panel. */
export type Widget = keyof typeof WIDGETS | 'map';

/** A place in a dashboard's grid: a widget, or a column of widgets (with its own style). */
export type Cell = Widget | { column: Widget[]; style?: CSSProperties };

/**
 * One data centre: the dark frame, the overview's headline numbers (`totals`) and, under
 * them, the widgets of `cells` in a grid of class `grid` (`mapClass` places the map). Every
 * data-centre page is this with its own title and layout.
 */
export function Dashboard({
  title,
  area,
  totals,
  stage,
  grid,
  cells,
  mapClass,
}: {
  title: string;
  area: DashboardArea;
  totals?: TotalKey[];
  /** Wraps the content in a stage that draws its own title (the big screen's header has none). */
  stage?: (content: ReactNode) => ReactNode;
  grid: string;
  cells: Cell[];
  mapClass?: string;
}) {
  const d = useDashboard(area);
  const widget = (ov: DatacenterOverview, name: Widget) => {
    if (name !== 'map') {
      const Shown = WIDGETS[name];
      return <Shown key={name} ov={ov} />;
    }
    return (
      <Panel
        key={name}
        title="厕所分布"
        className={mapClass}
        extra={d.map ? `${d.map.points.length} 座` : undefined}
      >
        <MapPanel map={d.map} />
      </Panel>
    );
  };
  const content = (
    <Loaded overview={d.overview} failed={d.failed}>
      {(ov) => (
        <>
          <Totals ov={ov} only={totals} />
          <div className={grid}>
            {cells.map((cell, i) =>
              typeof cell === 'string' ? (
                widget(ov, cell)
              ) : (
                <div key={i} className="dc-col" style={cell.style}>
                  {cell.column.map((name) => widget(ov, name))}
                </div>
              ),
            )}
          </div>
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
