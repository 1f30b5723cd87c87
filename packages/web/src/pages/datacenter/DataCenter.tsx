import { MapPanel } from './MapPanel.tsx';
import { Frame } from './Frame.tsx';
import { useDashboard } from './use-dashboard.ts';
import {
  AirPanel,
  AlarmFeed,
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

/** /data-center: the map in the centre, the live panels either side. */
export default function DataCenter() {
  const d = useDashboard('dataCenter');
  return (
    <Frame title="智慧厕所数据中心" onRefresh={d.refetch}>
      <Loaded overview={d.overview} failed={d.failed}>
        {(ov) => (
          <>
            <Totals ov={ov} />
            <div className="dc-layout-center">
              <div className="dc-col">
                <OccupancyPanel ov={ov} />
                <AirPanel ov={ov} />
                <DevicesPanel ov={ov} />
              </div>
              <div className="dc-col" style={{ gridTemplateRows: 'minmax(460px, 2fr) minmax(230px, 1fr)' }}>
                <Panel title="厕所分布" extra={d.map ? `${d.map.points.length} 座` : undefined}>
                  <MapPanel map={d.map} />
                </Panel>
                <VisitorsPanel ov={ov} />
              </div>
              <div className="dc-col">
                <AlarmFeed ov={ov} />
                <RatingsPanel ov={ov} />
                <FlagsPanel ov={ov} />
                <LiquidPanel ov={ov} />
              </div>
            </div>
          </>
        )}
      </Loaded>
    </Frame>
  );
}
