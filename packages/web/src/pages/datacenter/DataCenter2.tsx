import { MapPanel } from './MapPanel.tsx';
import { Frame } from './Frame.tsx';
import { useDashboard } from './use-dashboard.ts';
import {
  AirLevelsPanel,
  AirPanel,
  AlarmFeed,
  CommentFeed,
  DevicesPanel,
  FlagsPanel,
  LiquidPanel,
  Loaded,
  OccupancyPanel,
  Panel,
  RatingsPanel,
  Totals,
  VisitorsPanel,
} from './widgets.tsx';

/** /data-center2: the same widgets as cards in a grid. */
export default function DataCenter2() {
  const d = useDashboard('dataCenter');
  return (
    <Frame title="智慧厕所数据中心 V2" onRefresh={d.refetch}>
      <Loaded overview={d.overview} failed={d.failed}>
        {(ov) => (
          <>
            <Totals ov={ov} />
            <div className="dc-layout-grid">
              <Panel
                title="厕所分布"
                className="dc-span-2"
                extra={d.map ? `${d.map.points.length} 座` : undefined}
              >
                <MapPanel map={d.map} />
              </Panel>
              <VisitorsPanel ov={ov} />
              <AlarmFeed ov={ov} />
              <OccupancyPanel ov={ov} />
              <AirPanel ov={ov} />
              <AirLevelsPanel ov={ov} />
              <RatingsPanel ov={ov} />
              <FlagsPanel ov={ov} />
              <CommentFeed ov={ov} />
              <LiquidPanel ov={ov} />
              <DevicesPanel ov={ov} />
            </div>
          </>
        )}
      </Loaded>
    </Frame>
  );
}
