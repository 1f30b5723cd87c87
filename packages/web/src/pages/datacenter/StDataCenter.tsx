import { MapPanel } from './MapPanel.tsx';
import { Frame } from './Frame.tsx';
import { useDashboard } from './use-dashboard.ts';
import {
  AirLevelsPanel,
  AirPanel,
  AlarmFeed,
  Loaded,
  OccupancyPanel,
  Panel,
  Totals,
  VisitorsPanel,
} from './widgets.tsx';

/** /st-data-center: the toilet and gateway data centre inside the smart-toilet screen. */
export default function StDataCenter() {
  const d = useDashboard('smartToilet');
  return (
    <Frame title="智慧厕所 · 网关数据中心" onRefresh={d.refetch}>
      <Loaded overview={d.overview} failed={d.failed}>
        {(ov) => (
          <>
            <Totals ov={ov} only={['toilets', 'gateways', 'visitors', 'occupancy', 'alarms']} />
            <div className="dc-layout-st">
              <OccupancyPanel ov={ov} />
              <AirPanel ov={ov} />
              <AlarmFeed ov={ov} />
              <Panel title="厕所分布" extra={d.map ? `${d.map.points.length} 座` : undefined}>
                <MapPanel map={d.map} />
              </Panel>
              <VisitorsPanel ov={ov} />
              <AirLevelsPanel ov={ov} />
            </div>
          </>
        )}
      </Loaded>
    </Frame>
  );
}
