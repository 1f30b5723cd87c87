import type { DatacenterOverview } from '@se/core';
import type { ReactNode } from 'react';
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

/**
 * One data centre: the dark frame, the overview's headline numbers (`totals`) and, under
 * them, the widgets of `cells` in a grid of class `grid`. Each
 * widget carries the class `dc-w-<name>`, so a layout can place it by grid area. Every
 * data-centre page is this with its own title and layout.
 */
export function Dashboard({
  title,
  area,
  totals,
  stage,
  grid,
  cells,
  tools,
}: {
  title: string;
  area: DashboardArea;
  totals?: TotalKey[];
  /** Wraps the content in a stage that draws its own title (the big screen's header has none). */
  stage?: (content: ReactNode) => ReactNode;
  grid: string;
  cells: Widget[];
  /** Extra controls in the header, before the live state (the version switch). */
  tools?: ReactNode;
}) {
  const d = useDashboard(area);
  const widget = (ov: DatacenterOverview, name: Widget) => {
    if (name !== 'map') {
      const Shown = WIDGETS[name];
      return <Shown key={name} ov={ov} className={`dc-w-${name}`} />;
    }
    return (
      <Panel
        key={name}
        title="厕所分布"
        className="dc-w-map"
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
          <div className={`dc-grid ${grid}`}>{cells.map((cell) => widget(ov, cell))}</div>
        </>
      )}
    </Loaded>
  );
  return (
    <Frame title={title} onRefresh={d.refetch} headerless={stage !== undefined} tools={tools}>
      {stage ? stage(content) : content}
    </Frame>
  );
}
