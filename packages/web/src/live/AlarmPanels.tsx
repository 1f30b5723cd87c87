import { ALARM_TYPE_LABELS, type AlarmType } from '@se/core';
import { Button, Drawer, Empty, Flex, Spin, Typography } from 'antd';
import type { AlarmStatusFilter } from '../api/live.ts';
import { ListToolbar, choice, totalText, type FilterFields } from '../components/list/index.ts';
import { useIsMobile } from '../layout/viewport.ts';
import { AlarmItem } from './AlarmItem.tsx';
import { AlarmListTable } from './AlarmTable.tsx';
import { useAckAlarm, useAlarmList, useAlarmPages } from './use-alarms.ts';

// The bell's panels, downloaded when first opened: the active alarms under the bell and
// the full alarm list (告警中心) with its filters.

// The smallest page the API serves (SPEC §9 sizes).
const ACTIVE_SHOWN = 10;

/** Under the bell: the newest active alarms, 确认 on each, and 查看全部. */
export function ActiveAlarmList({ onShowAll }: { onShowAll: () => void }) {
  const alarms = useAlarmList('bell', { status: 'active', page: 1, page_size: ACTIVE_SHOWN });
  const { ack, pending } = useAckAlarm();
  const list = alarms.data?.list ?? [];
  const total = alarms.data?.total ?? 0;
  const estimated = alarms.data?.estimated;
  return (
    <div style={{ width: 380 }}>
      <Spin spinning={alarms.isFetching && !alarms.data}>
        <div style={{ maxHeight: 420, overflowY: 'auto', minHeight: 60 }}>
          {list.length === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={alarms.isError ? '加载失败' : alarms.data ? '暂无未处理的告警' : ' '}
            />
          ) : (
            list.map((a) => (
              <AlarmItem key={a.id} alarm={a} acking={pending === a.id} onAck={() => void ack(a)} />
            ))
          )}
        </div>
      </Spin>
      <Flex justify="space-between" align="center" style={{ paddingTop: 8 }}>
        <Typography.Text type="secondary">
          {total > list.length ? totalText(total, estimated) : ''}
        </Typography.Text>
        <Button type="link" size="small" onClick={onShowAll} style={{ paddingInline: 0 }}>
          查看全部
        </Button>
      </Flex>
    </div>
  );
}

interface CentreFilters {
  status: AlarmStatusFilter;
  type: AlarmType | '';
}

// Each applies at once, from page 1 (SPEC §2).
const CENTRE_FILTERS: FilterFields<CentreFilters> = {
  status: choice<AlarmStatusFilter>({
    label: '状态',
    instant: true,
    width: 160,
    options: [
      { value: 'active', label: '未恢复' },
      { value: 'open', label: '未处理' },
      { value: 'acked', label: '已确认' },
      { value: 'closed', label: '已恢复' },
      { value: 'all', label: '全部' },
    ],
  }),
  type: choice<AlarmType | ''>({
    label: '类型',
    instant: true,
    width: 180,
    options: [
      { value: '', label: '全部类型' },
      ...(Object.entries(ALARM_TYPE_LABELS) as [AlarmType, string][]).map(([value, label]) => ({
        value,
        label,
      })),
    ],
  }),
};

/** The alarm centre's list: its filters over its table. */
function AlarmCentre() {
  const list = useAlarmPages('centre', CENTRE_FILTERS, (f) => ({
    status: f.status,
    type: f.type || undefined,
  }));
  return (
    <>
      <ListToolbar list={list} buttons={false} />
      <AlarmListTable list={list} />
    </>
  );
}

/** 告警中心: every alarm of the devices the user sees, by state and type. */
export function AlarmCenterDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const mobile = useIsMobile();
  return (
    <Drawer open={open} onClose={onClose} title="告警中心" size={mobile ? '100%' : 1000} destroyOnHidden>
      <AlarmCentre />
    </Drawer>
  );
}
