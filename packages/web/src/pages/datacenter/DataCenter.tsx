import { Dashboard } from './Dashboard.tsx';
import { VersionSwitch } from './VersionSwitch.tsx';

/** /data-center: the map in the centre, the live panels around it. */
export default function DataCenter() {
  return (
    <Dashboard
      title="智慧厕所数据中心"
      area="dataCenter"
      grid="dc-layout-center"
      tools={<VersionSwitch current="/data-center" />}
      cells={['occupancy', 'air', 'devices', 'map', 'visitors', 'flags', 'alarms', 'ratings', 'liquid']}
    />
  );
}
