import { Dashboard } from './Dashboard.tsx';
import { VersionSwitch } from './VersionSwitch.tsx';

/** /data-center2: the same widgets as cards in a grid. */
export default function DataCenter2() {
  return (
    <Dashboard
      title="智慧厕所数据中心 V2"
      area="dataCenter"
      grid="dc-layout-grid"
      tools={<VersionSwitch current="/data-center2" />}
      cells={[
        'map',
        'visitors',
        'alarms',
        'occupancy',
        'air',
        'airLevels',
        'ratings',
        'flags',
        'comments',
        'liquid',
        'devices',
      ]}
    />
  );
}
