import { Card, Segmented, Tabs } from 'antd';
import { useState } from 'react';
import { useIsMobile } from '../../layout/viewport.ts';
import { usePageRoute } from '../../navigation/page-route.ts';
import { DeviceList } from '../devices/DeviceList.tsx';
import { EmployeesTab } from './EmployeesTab.tsx';
import { OrganizationTab } from './OrganizationTab.tsx';
import { PunchesList } from './PunchesList.tsx';
import { RecordsTab } from './RecordsTab.tsx';
import { SchemesTab } from './SchemesTab.tsx';

type TabKey = 'organization' | 'employee' | 'device' | 'scheme' | 'record';

/** Which tab each route of the shared screen opens on (SPEC §2). */
const TAB_OF_ROUTE: Record<string, TabKey> = {
  CiOrganization: 'organization',
  CiEmployee: 'employee',
  CiDevice: 'device',
  CiScheme: 'scheme',
  CiRecord: 'record',
};

/** 考勤设备: the terminals (registry, drawer with punches and 同步员工) and every punch. */
function DevicesTab() {
  const [view, setView] = useState<'terminals' | 'punches'>('terminals');
  return (
    <>
      <Segmented<'terminals' | 'punches'>
        value={view}
        onChange={(v) => setView(v)}
        options={[
          { value: 'terminals', label: '考勤机' },
          { value: 'punches', label: '打卡记录' },
        ]}
        style={{ marginBottom: 12 }}
      />
      {view === 'terminals' ? <DeviceList kind="attendance" param="dev_" /> : <PunchesList param="punch_" />}
    </>
  );
}

/**
 * /ci-organization, /ci-employee, /ci-device, /ci-scheme and /ci-record: one screen with
 * five tabs, opened on the route's own (SPEC §2). Each list keeps its parameters apart.
 */
export default function AttendancePage() {
  const route = usePageRoute();
  const mobile = useIsMobile();
  const [tab, setTab] = useState<TabKey>(TAB_OF_ROUTE[route.name] ?? 'organization');
  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24, paddingTop: 8 } }}>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as TabKey)}
        destroyOnHidden={false}
        items={[
          { key: 'organization', label: '组织架构', children: <OrganizationTab /> },
          { key: 'employee', label: '员工管理', children: <EmployeesTab /> },
          { key: 'device', label: '考勤设备', children: <DevicesTab /> },
          { key: 'scheme', label: '考勤规则', children: <SchemesTab /> },
          { key: 'record', label: '考勤记录', children: <RecordsTab /> },
        ]}
      />
    </Card>
  );
}
