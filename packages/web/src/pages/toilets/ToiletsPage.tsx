import { Card, Tabs } from 'antd';
import { useState } from 'react';
import { useIsMobile } from '../../layout/viewport.ts';
import { usePageRoute } from '../../navigation/page-route.ts';
import { DeviceList } from '../devices/DeviceList.tsx';
import { ToiletList } from './ToiletList.tsx';
import StDataCenter from '../datacenter/LazyStDataCenter.tsx';

type TabKey = 'toilets' | 'gateways' | 'dataCenter';

/** Which tab each route of the shared screen opens on (SPEC §2). */
const TAB_OF_ROUTE: Record<string, TabKey> = {
  Toilets: 'toilets',
  StGateway: 'gateways',
  StDataCenter: 'dataCenter',
};

/**
 * /smart-toilet, /st-gateway and /st-data-center: one screen. Each route is kept alive
 * on its own, so each keeps the tab it was last on. The toilet and gateway lists share the
 * route's URL, so the gateways' parameters carry a prefix (gw_keywords …).
 */
export default function ToiletsPage() {
  const route = usePageRoute();
  const mobile = useIsMobile();
  const [tab, setTab] = useState<TabKey>(TAB_OF_ROUTE[route.name] ?? 'toilets');
  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24, paddingTop: 8 } }}>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as TabKey)}
        items={[
          { key: 'toilets', label: '厕所', children: <ToiletList /> },
          { key: 'gateways', label: '网关', children: <DeviceList kind="gateway" param="gw_" /> },
          {
            key: 'dataCenter',
            label: '数据中心',
            children: <StDataCenter />,
          },
        ]}
      />
    </Card>
  );
}
