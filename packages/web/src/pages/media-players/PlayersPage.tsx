import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useIsMobile } from '../../layout/viewport.ts';
import { GroupsTab } from './GroupsTab.tsx';
import { PlaylistsTab } from './PlaylistsTab.tsx';
import { ReportTab } from './ReportTab.tsx';
import { SchedulesTab } from './SchedulesTab.tsx';
import { ScreensTab } from './ScreensTab.tsx';

const VIEWS = [
  { key: 'screens', label: '播放器', body: <ScreensTab /> },
  { key: 'groups', label: '分组', body: <GroupsTab /> },
  { key: 'playlists', label: '播放列表', body: <PlaylistsTab /> },
  { key: 'schedules', label: '排期', body: <SchedulesTab /> },
  { key: 'plays', label: '播放统计', body: <ReportTab /> },
] as const;

/**
 * /advisement-players (issue 17): the screens, their playlists and schedules, and proof of
 * play. The tab is in the URL (?view=) like each list's search.
 */
export default function PlayersPage() {
  const mobile = useIsMobile();
  const [params, setParams] = useSearchParams();
  const view = VIEWS.find((v) => v.key === params.get('view'))?.key ?? 'screens';
  return (
    <Card styles={{ body: { padding: mobile ? 12 : 24, paddingTop: 8 } }}>
      <Tabs
        activeKey={view}
        destroyOnHidden
        onChange={(k) => {
          const next = new URLSearchParams();
          if (k !== 'screens') next.set('view', k);
          setParams(next);
        }}
        items={VIEWS.map((v) => ({ key: v.key, label: v.label, children: v.body }))}
      />
    </Card>
  );
}
