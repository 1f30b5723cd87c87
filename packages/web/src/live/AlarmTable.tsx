import type { AlarmRow } from '@se/core';
import { Button, Empty, Flex, Pagination, Spin, Table, Typography, type TableColumnsType } from 'antd';
import type { AlarmFilter } from '../api/live.ts';
import { usePager } from '../components/pager.ts';
import { useIsMobile } from '../layout/viewport.ts';
import { AlarmItem } from './AlarmItem.tsx';
import { AlarmStatusTag, AlarmTypeTag } from './AlarmTags.tsx';
import { useAckAlarm, useAlarmList } from './use-alarms.ts';

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

/**
 * A page of alarms with 确认 buttons: the alarm centre's (every visible device, with
 * filters above it) and a device's 告警记录 (`compact`, without the device column).
 */
export function AlarmTable({
  scope,
  filter,
  compact = false,
}: {
  scope: string;
  filter: Omit<AlarmFilter, 'page' | 'page_size'>;
  compact?: boolean;
}) {
  const mobile = useIsMobile();
  const pager = usePager();
  const alarms = useAlarmList(scope, { ...filter, page: pager.page, page_size: pager.pageSize });
  const { ack, pending } = useAckAlarm();
  const rows = alarms.data?.list ?? [];
  const total = alarms.data?.total ?? 0;

  if (mobile) {
    // A phone gets the alarms as blocks, as under the bell: a table would hide the message.
    return (
      <Spin spinning={alarms.isFetching}>
        {rows.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={alarms.isError ? '加载失败' : '暂无告警'}
          />
        ) : (
          rows.map((a) => (
            <AlarmItem key={a.id} alarm={a} acking={pending === a.id} onAck={() => void ack(a)} />
          ))
        )}
        {total > 0 && (
          <Pagination
            {...pager.pagination(total)}
            size="small"
            showQuickJumper={false}
            showSizeChanger={false}
            align="end"
            style={{ marginTop: 8 }}
          />
        )}
      </Spin>
    );
  }

  const columns: TableColumnsType<AlarmRow> = [
    { title: '类型', dataIndex: 'type', width: 90, render: (t: string) => <AlarmTypeTag type={t} /> },
  ];
  if (!compact) {
    columns.push({
      title: '设备',
      key: 'device',
      width: 160,
      render: (_, a) => (
        <Flex vertical gap={0}>
          <Typography.Text style={{ fontFamily: 'monospace' }}>{a.ser_num}</Typography.Text>
          {a.desc && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {a.desc}
            </Typography.Text>
          )}
        </Flex>
      ),
    });
  }
  columns.push(
    {
      title: '内容',
      dataIndex: 'message',
      // In a device's drawer there is no room for a 处理 column: it goes under the message.
      render: (m: string, a) =>
        compact ? (
          <Flex vertical gap={2}>
            <span>{m || '—'}</span>
            {(a.acked_at || a.closed_at) && <Handling alarm={a} />}
          </Flex>
        ) : (
          m || '—'
        ),
    },
    { title: '状态', dataIndex: 'status', width: 86, render: (s: string) => <AlarmStatusTag status={s} /> },
    { title: '发生时间', dataIndex: 'opened_at', width: 150 },
  );
  if (!compact) {
    columns.push({ title: '处理', key: 'handling', width: 170, render: (_, a) => <Handling alarm={a} /> });
  }
  columns.push({
    title: '操作',
    key: 'actions',
    width: 76,
    fixed: 'right',
    render: (_, a) =>
      a.status === 'open' ? (
        <Button size="small" type="link" loading={pending === a.id} onClick={() => void ack(a)}>
          确认
        </Button>
      ) : null,
  });

  return (
    <Table<AlarmRow>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={rows}
      loading={alarms.isFetching}
      // The fixed widths plus room for 内容; narrower screens scroll.
      scroll={{ x: columns.reduce((w, c) => w + (Number(c.width) || (compact ? 160 : 200)), 0) }}
      locale={{
        emptyText: alarms.isError ? <Typography.Text type="danger">加载失败</Typography.Text> : '暂无告警',
      }}
      pagination={{
        ...pager.pagination(total),
        size: 'small',
        ...(compact ? { showQuickJumper: false, showSizeChanger: false } : {}),
      }}
    />
  );
}
