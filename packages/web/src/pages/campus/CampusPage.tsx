import { Card, Tabs } from 'antd';
import { useNavigate } from 'react-router';
import { useIsMobile } from '../../layout/viewport.ts';
import { usePageRoute } from '../../navigation/page-route.ts';
import { BuildingsTab } from './BuildingsTab.tsx';
import { DataCenterTab } from './DataCenterTab.tsx';
import { OrgTab } from './OrgTab.tsx';
import { RoomsTab } from './RoomsTab.tsx';

const TABS = [
  { key: 'org', path: '/smart-org', route: 'SmartOrg', label: '组织概况', body: <OrgTab /> },
  { key: 'buildings', path: '/ss-building', route: 'SsBuilding', label: '楼栋管理', body: <BuildingsTab /> },
  { key: 'rooms', path: '/ss-room', route: 'SsRoom', label: '房间管理', body: <RoomsTab /> },
  {
    key: 'dc',
    path: '/ss-data-center',
    route: 'SsDataCenter',
    label: '园区数据中心',
    body: <DataCenterTab />,
  },
] as const;

/**
 * /smart-org, /ss-building, /ss-room and /ss-data-center (SPEC §2: one shared screen). The
 * tab is the route: choosing a tab navigates, so each tab has its own address and title.
 */
export default function CampusPage() {
  const route = usePageRoute();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const active = TABS.find((t) => t.route === route.name)?.key ?? 'org';
  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24, paddingTop: 8 } }}>
      <Tabs
        activeKey={active}
        onChange={(k) => void navigate(TABS.find((t) => t.key === k)!.path)}
        destroyOnHidden
        items={TABS.map((t) => ({ key: t.key, label: t.label, children: t.body }))}
      />
    </Card>
  );
}
