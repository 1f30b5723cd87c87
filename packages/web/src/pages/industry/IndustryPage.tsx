import { Tabs } from 'antd';
import { ListCard } from '../../components/list/index.ts';
import { ExposureTab } from './ExposureTab.tsx';
import { MonitorsTab } from './MonitorsTab.tsx';

/** /smart-industrial: industrial gas monitors and occupational exposure per work area and shift. */
export default function IndustryPage() {
  return (
    <ListCard>
      <Tabs
        destroyOnHidden={false}
        items={[
          { key: 'monitors', label: '监测仪', children: <MonitorsTab /> },
          { key: 'exposure', label: '职业接触', children: <ExposureTab /> },
        ]}
      />
    </ListCard>
  );
}
