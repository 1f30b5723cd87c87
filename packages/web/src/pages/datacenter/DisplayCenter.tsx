import type { ReactNode } from 'react';
import { Dashboard } from './Dashboard.tsx';
import { VersionSwitch } from './VersionSwitch.tsx';

const TITLE = '智慧厕所数据展示中心';

/** The big screen's stage: its own large title over the content, filling the frame. */
function Stage({ children }: { children: ReactNode }) {
  return (
    <div className="dc-stage">
      <div className="dc-title">{TITLE}</div>
      {children}
    </div>
  );
}

/**
 * /display-center: the big screen. It fills whatever shows it (a wall screen, a laptop, a
 * player's frame) with a fluid grid rather than scaling a fixed stage, so text keeps its size.
 */
export default function DisplayCenter() {
  return (
    <Dashboard
      title={TITLE}
      area="dataCenter"
      stage={(content) => <Stage>{content}</Stage>}
      tools={<VersionSwitch current="/display-center" />}
      grid="dc-stage-grid"
      cells={['occupancy', 'map', 'alarms', 'air', 'comments', 'liquid', 'visitors', 'ratings']}
    />
  );
}
