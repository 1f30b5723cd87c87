import { Dashboard } from './Dashboard.tsx';
import { AirLevelsPanel, AirPanel, OccupancyPanel, VisitorsPanel } from './chart-panels.tsx';
import { AlarmFeed } from './feeds.tsx';

/** /st-data-center: the toilet and gateway data centre inside the smart-toilet screen. */
export default function StDataCenter() {
  return (
    <Dashboard
      title="智慧厕所 · 网关数据中心"
      area="smartToilet"
      totals={['toilets', 'gateways', 'visitors', 'occupancy', 'alarms']}
      layout={(ov, map) => (
        <div className="dc-layout-st">
          <OccupancyPanel ov={ov} />
          <AirPanel ov={ov} />
          <AlarmFeed ov={ov} />
          {map()}
          <VisitorsPanel ov={ov} />
          <AirLevelsPanel ov={ov} />
        </div>
      )}
    />
  );
}
