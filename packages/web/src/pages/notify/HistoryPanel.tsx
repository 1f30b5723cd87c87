import { RedoOutlined } from '@ant-design/icons';
import type { DeliveryRow, NotificationRow } from '@se/core';
import { Button, Flex, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { listNotifications, retryDelivery, type NotificationFilter } from '../../api/notify.ts';
import { attempt } from '../../components/feedback.ts';
import {
  dateRange,
  rangeQuery,
  text,
  useListQuery,
  ListView,
  type FilterFields,
  type ListColumn,
  type Range,
} from '../../components/list/index.ts';
import {
  STATUS_COLORS,
  canRetry,
  channelText,
  deliveryDetail,
  deliveryStatusText,
  statusFilter,
} from './delivery-text.ts';

/** Every channel of one notification: where it went, whether it arrived, a retry button. */
export function DeliveryList({
  deliveries,
  onRetried,
}: {
  deliveries: DeliveryRow[];
  onRetried: () => void;
}) {
  const [busy, setBusy] = useState<number | null>(null);
  const retry = async (d: DeliveryRow) => {
    setBusy(d.id);
    const out = await attempt(() => retryDelivery(d.id), '已重新加入发送队列');
    setBusy(null);
    if (out.ok) onRetried();
  };
  if (!deliveries.length) return <Typography.Text type="secondary">无发送记录</Typography.Text>;
  return (
    <Flex vertical gap={6}>
      {deliveries.map((d) => (
        <Flex key={d.id} gap="small" align="center" wrap>
          <Tag>{channelText(d.channel)}</Tag>
          <Typography.Text style={{ maxWidth: 320 }} ellipsis={{ tooltip: d.target }}>
            {d.object_name ? `${d.object_name}：` : ''}
            {d.target}
          </Typography.Text>
          <Tag color={STATUS_COLORS[d.status]} style={{ whiteSpace: 'normal' }}>
            {deliveryStatusText(d)}
          </Tag>
          <Typography.Text type={d.status === 'failed' ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
            {deliveryDetail(d)}
            {d.response_code ? `（${d.response_code}）` : ''}
          </Typography.Text>
          {canRetry(d) && (
            <Button
              size="small"
              icon={<RedoOutlined />}
              loading={busy === d.id}
              onClick={() => void retry(d)}
            >
              重试
            </Button>
          )}
        </Flex>
      ))}
    </Flex>
  );
}

interface Search {
  status: NotificationFilter['status'];
  range: Range;
  keywords: string;
}

const FILTERS: FilterFields<Search> = {
  status: statusFilter('发送状态', [
    { value: 'failed', label: '有失败' },
    { value: 'pending', label: '有排队中' },
    { value: 'sent', label: '有已发送' },
  ]),
  range: dateRange({ instant: true }),
  keywords: text({ placeholder: '标题 / 内容 / 设备', width: 240, search: true }),
};

const waiting = (d: DeliveryRow) => d.status === 'pending' || d.status === 'sending';
const queued = (d: DeliveryRow) => waiting(d) || d.status === 'queued';

function Summary({ n }: { n: NotificationRow }) {
  const failed = n.deliveries.filter((d) => d.status === 'failed').length;
  const waits = n.deliveries.filter(queued).length;
  const sent = n.deliveries.length - failed - waits;
  return (
    <Space size={4} wrap>
      {sent > 0 && <Tag color="success">已发送 {sent}</Tag>}
      {waits > 0 && <Tag color="gold">已排队 {waits}</Tag>}
      {failed > 0 && <Tag color="error">失败 {failed}</Tag>}
    </Space>
  );
}

const COLUMNS: ListColumn<NotificationRow>[] = [
  { title: '时间', dataIndex: 'created_at', width: 170 },
  { title: '标题', dataIndex: 'title', width: 200, ellipsis: true, card: false },
  {
    title: '内容',
    dataIndex: 'content',
    ellipsis: true,
    render: (c: string) => (
      <Tooltip title={c}>
        <span>{c}</span>
      </Tooltip>
    ),
  },
  { title: '发送状态', key: 'status', width: 220, render: (_, n) => <Summary n={n} /> },
];

/** 提醒记录: what rules sent, with the state of each channel. */
export function HistoryPanel() {
  const list = useListQuery({
    key: ['notify', 'history'],
    filters: FILTERS,
    load: (f, paging) =>
      listNotifications({
        keywords: f.keywords.trim() || undefined,
        status: f.status,
        ...rangeQuery(f.range),
        ...paging,
      }),
    // Deliveries change state in the background: a pending one is looked at again.
    refetchInterval: (data) => (data?.list.some((n) => n.deliveries.some(waiting)) ? 10_000 : false),
  });

  return (
    <ListView
      list={list}
      buttons={false}
      refresh
      columns={COLUMNS}
      rowKey="id"
      empty={list.filtered ? '没有符合条件的提醒记录' : '暂无提醒记录：规则触发后会出现在这里'}
      cardTitle={(n) => n.title}
      expand={(n) => <DeliveryList deliveries={n.deliveries} onRetried={list.refresh} />}
    />
  );
}
