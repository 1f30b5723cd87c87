import { Dashboard } from './Dashboard.tsx';
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

/** /data-center2: the same widgets as cards in a grid. */
export default function DataCenter2() {
  return (
    <Dashboard
      title="智慧厕所数据中心 V2"
      area="dataCenter"
      layout={(ov, map) => (
        <div className="dc-layout-grid">
          {map('dc-span-2')}
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
      )}
    />
  );
}
