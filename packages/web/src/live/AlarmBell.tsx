import { BellOutlined } from '@ant-design/icons';
import type { AlarmCount, AlarmRow } from '@se/core';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Popover, Spin } from 'antd';
import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../components/toast.ts';
import { useIsMobile } from '../layout/viewport.ts';
import { useSession } from '../session/store.ts';
import { alarmTracker } from './alarm-count.ts';
import { newAlarmToasts } from './AlarmTags.tsx';
import { useLiveChannel } from './socket.ts';
import { ALARM_COUNT_KEY, ALARM_LISTS_KEY, useAlarmCount } from './use-alarms.ts';

// The panels (lists, table, filters) load on first open, not with the shell.
const panels = () => import('./AlarmPanels.tsx');
const ActiveAlarmList = lazy(() => panels().then((m) => ({ default: m.ActiveAlarmList })));
const AlarmCenterDrawer = lazy(() => panels().then((m) => ({ default: m.AlarmCenterDrawer })));

const ALARMS_CHANNEL = { channel: 'alarms' } as const;
// New alarms arriving this close together are toasted together.
const TOAST_GATHER_MS = 300;

const isAlarmRow = (data: unknown): data is AlarmRow =>
  typeof data === 'object' &&
  data !== null &&
  typeof (data as AlarmRow).id === 'number' &&
  typeof (data as AlarmRow).status === 'string';

/**
 * The header's alarm centre: a bell with the number of active alarms, kept current by the
 * 'alarms' channel; a toast (警告) for each new alarm; the active ones under the bell and
 * every alarm in a drawer. Users without any permission bit have no alarms to see.
 */
export function AlarmBell() {
  const permission = useSession((s) => s.permission);
  if (permission === 0) return null;
  return <Bell />;
}

function Bell() {
  const queryClient = useQueryClient();
  const mobile = useIsMobile();
  const count = useAlarmCount(true);
  const [open, setOpen] = useState(false);
  const [centre, setCentre] = useState<'never' | 'open' | 'closed'>('never');

  const fresh = useRef<{ rows: AlarmRow[]; timer?: ReturnType<typeof setTimeout> }>({ rows: [] });
  useEffect(() => () => clearTimeout(fresh.current.timer), []);

  const onPush = useCallback(
    (data: unknown) => {
      if (!isAlarmRow(data)) return;
      const change = alarmTracker.update(queryClient.getQueryData<AlarmCount>(ALARM_COUNT_KEY), data);
      if (change.count) queryClient.setQueryData(ALARM_COUNT_KEY, change.count);
      if (!change.exact) void queryClient.invalidateQueries({ queryKey: ALARM_COUNT_KEY });
      if (change.isNew) {
        const pending = fresh.current;
        pending.rows.push(data);
        pending.timer ??= setTimeout(() => {
          for (const text of newAlarmToasts(pending.rows)) toast.warning(text);
          pending.rows = [];
          pending.timer = undefined;
        }, TOAST_GATHER_MS);
      }
      // Lists on screen (under the bell, the centre, a device's 告警记录) fetch again.
      void queryClient.invalidateQueries({ queryKey: ALARM_LISTS_KEY });
    },
    [queryClient],
  );
  useLiveChannel(ALARMS_CHANNEL, onPush, {
    // Back after a reconnect: alarms may have changed meanwhile.
    onSubscribed: ({ first }) => {
      if (!first) void queryClient.invalidateQueries({ queryKey: ['alarms'] });
    },
  });

  const active = count.data?.active ?? 0;
  const showAll = () => {
    setOpen(false);
    setCentre('open');
  };

  const button = (
    <Button
      type="text"
      aria-label={active > 0 ? `告警中心，${active} 条未恢复` : '告警中心'}
      // A phone has no room for a popover beside the bell: the full-screen centre instead.
      onClick={mobile ? () => setCentre('open') : undefined}
    >
      <Badge count={active} size="small" overflowCount={99}>
        <BellOutlined style={{ fontSize: 18 }} />
      </Badge>
    </Button>
  );

  return (
    <>
      {mobile ? (
        button
      ) : (
        <Popover
          trigger="click"
          placement="bottomRight"
          open={open}
          onOpenChange={setOpen}
          title="未恢复的告警"
          // Unmounted when closed, so a hidden list does not fetch again on every push.
          destroyOnHidden
          content={
            <Suspense fallback={<Spin style={{ display: 'block', padding: 24 }} />}>
              <ActiveAlarmList onShowAll={showAll} />
            </Suspense>
          }
        >
          {button}
        </Popover>
      )}
      {centre !== 'never' && (
        <Suspense fallback={null}>
          <AlarmCenterDrawer open={centre === 'open'} onClose={() => setCentre('closed')} />
        </Suspense>
      )}
    </>
  );
}
