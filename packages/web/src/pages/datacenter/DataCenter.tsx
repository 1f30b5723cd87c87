import { Dashboard } from './Dashboard.tsx';
import {
  AirPanel,
  DevicesPanel,
  FlagsPanel,
  LiquidPanel,
  OccupancyPanel,
  RatingsPanel,
  VisitorsPanel,
} from './chart-panels.tsx';
import { AlarmFeed } from './feeds.tsx';

/** /data-center: the map in the centre, the live panels either side. */
export default function DataCenter() {
  return (
    <Dashboard
      title="智慧厕所数据中心"
      area="dataCenter"
      layout={(ov, map) => (
        <div className="dc-layout-center">
          <div className="dc-col">
            <OccupancyPanel ov={ov} />
            <AirPanel ov={ov} />
            <DevicesPanel ov={ov} />
          </div>
          <div className="dc-col" style={{ gridTemplateRows: 'minmax(460px, 2fr) minmax(230px, 1fr)' }}>
            {map()}
            <VisitorsPanel ov={ov} />
          </div>
          <div className="dc-col">
            <AlarmFeed ov={ov} />
            <RatingsPanel ov={ov} />
            <FlagsPanel ov={ov} />
            <LiquidPanel ov={ov} />
          </div>
        </div>
      )}
    />
  );
}
