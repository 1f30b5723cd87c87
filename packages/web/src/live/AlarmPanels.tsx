import { ALARM_TYPE_LABELS, type AlarmType } from '@se/core';
import { Button, Drawer, Empty, Flex, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import type { AlarmStatusFilter } from '../api/live.ts';
import { useIsMobile } from '../layout/viewport.ts';
import { AlarmItem } from './AlarmItem.tsx';
import { AlarmTable } from './AlarmTable.tsx';
import { useAckAlarm, useAlarmList } from './use-alarms.ts';

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
        <Typography.Text type="secondary">{total > list.length ? `共 ${total} 条` : ''}</Typography.Text>
        <Button type="link" size="small" onClick={onShowAll} style={{ paddingInline: 0 }}>
          查看全部
        </Button>
      </Flex>
    </div>
  );
}

const STATUS_OPTIONS: { value: AlarmStatusFilter; label: string }[] = [
  { value: 'active', label: '未恢复' },
  { value: 'open', label: '未处理' },
  { value: 'acked', label: '已确认' },
  { value: 'closed', label: '已恢复' },
  { value: 'all', label: '全部' },
];

const TYPE_OPTIONS: { value: AlarmType | ''; label: string }[] = [
  { value: '', label: '全部类型' },
  ...(Object.entries(ALARM_TYPE_LABELS) as [AlarmType, string][]).map(([value, label]) => ({ value, label })),
];

/** 告警中心: every alarm of the devices the user sees, by state and type. */
export function AlarmCenterDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const mobile = useIsMobile();
  const [status, setStatus] = useState<AlarmStatusFilter>('active');
  const [type, setType] = useState<AlarmType | ''>('');
  const filter = { status, type: type || undefined };
  return (
    <Drawer open={open} onClose={onClose} title="告警中心" size={mobile ? '100%' : 1000} destroyOnHidden>
      <Flex wrap gap="small" style={{ marginBottom: 12 }}>
        <Select<AlarmStatusFilter>
          value={status}
          onChange={setStatus}
          options={STATUS_OPTIONS}
          prefix="状态"
          aria-label="状态"
          style={{ width: mobile ? '100%' : 160 }}
        />
        <Select<AlarmType | ''>
          value={type}
          onChange={setType}
          options={TYPE_OPTIONS}
          prefix="类型"
          aria-label="类型"
          style={{ width: mobile ? '100%' : 180 }}
        />
      </Flex>
      {/* A new filter starts again at page 1 (SPEC §2). */}
      <AlarmTable key={`${status}-${type}`} scope="centre" filter={filter} />
    </Drawer>
  );
}
