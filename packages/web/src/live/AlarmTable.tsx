import { Link } from 'react-router';
import { addRecordPath, type AlarmRow } from '@se/core';
import { Button, Flex, Typography } from 'antd';
import type { AlarmFilter } from '../api/live.ts';
import { ListTable, NO_FILTERS, type ListColumn } from '../components/list/index.ts';
import { DeviceLink, ToiletLink } from '../components/ObjectLinks.tsx';
import { AlarmItem } from './AlarmItem.tsx';
import { AlarmStatusTag, AlarmTypeTag } from './AlarmTags.tsx';
import { useAckAlarm, useAlarmPages, type AlarmPages } from './use-alarms.ts';

/** Who acknowledged it and when it cleared, in one cell. */
function Handling({ alarm }: { alarm: AlarmRow }) {
  if (!alarm.acked_at && !alarm.closed_at) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Flex vertical gap={0}>
      {alarm.acked_at && (
        <Typography.Text style={{ fontSize: 12 }}>
          {alarm.acked_by_name || '—'} 确认于
          <br />
          {alarm.acked_at}
        </Typography.Text>
      )}
      {alarm.closed_at && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          恢复于 {alarm.closed_at}
        </Typography.Text>
      )}
    </Flex>
  );
}

const TYPE: ListColumn<AlarmRow> = {
  title: '类型',
  dataIndex: 'type',
  width: 90,
  render: (t: string) => <AlarmTypeTag type={t} />,
};
const DEVICE: ListColumn<AlarmRow> = {
  title: '设备',
  key: 'device',
  width: 160,
  render: (_, a) => (
    <Flex vertical gap={0}>
      <Typography.Text style={{ fontFamily: 'monospace' }}>
        <DeviceLink kind={a.kind} id={a.device_id} serNum={a.ser_num} />
      </Typography.Text>
      {a.desc && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          <ToiletLink id={a.toilet_id} name={a.desc} />
        </Typography.Text>
      )}
    </Flex>
  ),
};
const MESSAGE: ListColumn<AlarmRow> = {
  title: '内容',
  dataIndex: 'message',
  render: (m: string) => m || '—',
};
const STATUS_AND_TIME: ListColumn<AlarmRow>[] = [
  { title: '状态', dataIndex: 'status', width: 86, render: (s: string) => <AlarmStatusTag status={s} /> },
  { title: '发生时间', dataIndex: 'opened_at', width: 150 },
];

/** The alarm centre's columns: the device, and who handled it in a column of its own. */
const CENTRE: ListColumn<AlarmRow>[] = [
  TYPE,
  DEVICE,
  MESSAGE,
  ...STATUS_AND_TIME,
  { title: '处理', key: 'handling', width: 170, render: (_, a) => <Handling alarm={a} /> },
];

/** A device's: no device column, and (no room for a 处理 column) the handling under the message. */
const DEVICE_ALARMS: ListColumn<AlarmRow>[] = [
  TYPE,
  {
    ...MESSAGE,
    render: (m: string, a) => (
      <Flex vertical gap={2}>
        <span>{m || '—'}</span>
        {(a.acked_at || a.closed_at) && <Handling alarm={a} />}
      </Flex>
    ),
  },
  ...STATUS_AND_TIME,
];

/**
 * A page of alarms with 确认 buttons, from `useAlarmPages`: the alarm centre's (every visible
 * device) and a device's (`compact`, without the device column). A phone gets the alarms as
 * blocks, as under the bell: a table would hide the message.
 */
export function AlarmListTable<F>({ list, compact = false }: { list: AlarmPages<F>; compact?: boolean }) {
  const { ack, pending } = useAckAlarm();
  return (
    <ListTable
      list={list}
      columns={compact ? DEVICE_ALARMS : CENTRE}
      rowKey="id"
      empty="暂无告警"
      compact
      card={(a) => <AlarmItem alarm={a} acking={pending === a.id} onAck={() => void ack(a)} />}
      actionsWidth={120}
      actions={(a) => (
        <>
          {a.status === 'open' && (
            <Button size="small" type="link" loading={pending === a.id} onClick={() => void ack(a)}>
              确认
            </Button>
          )}
          {a.status !== 'closed' && (
            <Link to={addRecordPath({ alarm_id: a.id })} style={{ fontSize: 12, marginInlineStart: 4 }}>
              报修
            </Link>
          )}
        </>
      )}
    />
  );
}

/** The alarms of a fixed `filter` (a device's 告警记录), a page at a time. */
export function AlarmTable({
  scope,
  filter,
  compact = false,
}: {
  scope: string;
  filter: Omit<AlarmFilter, 'page' | 'page_size'>;
  compact?: boolean;
}) {
  const list = useAlarmPages(scope, NO_FILTERS, () => filter);
  return <AlarmListTable list={list} compact={compact} />;
}
