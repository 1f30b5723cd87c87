import { Card, Segmented, Spin, Tabs } from 'antd';
import { Suspense, lazy } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useIsMobile } from '../../layout/viewport.ts';
import { usePageRoute } from '../../navigation/page-route.ts';
import { HistoryPanel } from './HistoryPanel.tsx';
import { ObjectsPanel } from './ObjectsPanel.tsx';
import { TemplatesPanel } from './TemplatesPanel.tsx';

const FormulaTab = lazy(() => import('./FormulaTab.tsx'));

type TabKey = 'notify' | 'objects' | 'formulas';

const TABS: { key: TabKey; path: string; route: string; label: string }[] = [
  { key: 'notify', path: '/notify', route: 'Notify', label: '消息提醒' },
  { key: 'objects', path: '/notify-object', route: 'NotifyObject', label: '提醒对象' },
  { key: 'formulas', path: '/notify-formula', route: 'NotifyFormula', label: '提醒公式' },
];

/**
 * /notify: the history of notifications and the templates they are written with; the view is
 * in the URL (?view=templates) like each list's search.
 */
function NotifyTab() {
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'templates' ? 'templates' : 'history';
  return (
    <>
      <Segmented
        value={view}
        onChange={(v) => {
          const next = new URLSearchParams(params);
          if (v === 'templates') next.set('view', v);
          else next.delete('view');
          setParams(next);
        }}
        options={[
          { label: '提醒记录', value: 'history' },
          { label: '消息模板', value: 'templates' },
        ]}
        style={{ marginBottom: 16 }}
      />
      {view === 'history' ? <HistoryPanel /> : <TemplatesPanel />}
    </>
  );
}

/**
 * /notify, /notify-object and /notify-formula (SPEC §2: one shared screen). The tab is the
 * route: choosing a tab navigates, so each tab has its own address and title.
 */
export default function NotifyPage() {
  const route = usePageRoute();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const active = TABS.find((t) => t.route === route.name)?.key ?? 'notify';
  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24, paddingTop: 8 } }}>
      <Tabs
        activeKey={active}
        onChange={(k) => void navigate(TABS.find((t) => t.key === k)!.path)}
        destroyOnHidden
        items={[
          { key: 'notify', label: '消息提醒', children: <NotifyTab /> },
          { key: 'objects', label: '提醒对象', children: <ObjectsPanel /> },
          {
            key: 'formulas',
            label: '提醒公式',
            children: (
              <Suspense fallback={<Spin style={{ display: 'block', padding: 48 }} />}>
                <FormulaTab />
              </Suspense>
            ),
          },
        ]}
      />
    </Card>
  );
}
