import { Dashboard } from './Dashboard.tsx';

/** /st-data-center: the toilet and gateway data centre inside the smart-toilet screen. */
export default function StDataCenter() {
  return (
    <Dashboard
      title="智慧厕所 · 网关数据中心"
      area="smartToilet"
      totals={['toilets', 'gateways', 'visitors', 'occupancy', 'alarms']}
      grid="dc-layout-st"
      cells={['occupancy', 'air', 'alarms', 'map', 'visitors', 'airLevels']}
    />
  );
}
