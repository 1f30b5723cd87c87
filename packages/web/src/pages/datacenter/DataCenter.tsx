import { Dashboard } from './Dashboard.tsx';

/** /data-center: the map in the centre, the live panels either side. */
export default function DataCenter() {
  return (
    <Dashboard
      title="智慧厕所数据中心"
      area="dataCenter"
      grid="dc-layout-center"
      cells={[
        { column: ['occupancy', 'air', 'devices'] },
        { column: ['map', 'visitors'], style: { gridTemplateRows: 'minmax(460px, 2fr) minmax(230px, 1fr)' } },
        { column: ['alarms', 'ratings', 'flags', 'liquid'] },
      ]}
    />
  );
}
