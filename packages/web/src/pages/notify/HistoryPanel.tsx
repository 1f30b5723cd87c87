import { ReloadOutlined, RedoOutlined } from '@ant-design/icons';
import type { DeliveryRow, NotificationRow } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  Empty,
  Flex,
  Input,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { listNotifications, retryDelivery, type NotificationFilter } from '../../api/notify.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { usePager } from '../../components/pager.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { STATUS_COLORS, canRetry, channelText, deliveryDetail, statusText } from './delivery-text.ts';

const KEY = ['notify', 'history'] as const;
const SERVER_TIME = 'YYYY-MM-DD HH:mm:ss';

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
          <Tag color={STATUS_COLORS[d.status]}>{statusText(d.status)}</Tag>
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

/** 提醒记录: what rules sent, with the state of each channel. */
export function HistoryPanel() {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [draft, setDraft] = useState('');
  const [keywords, setKeywords] = useState('');
  const [status, setStatus] = useState<NotificationFilter['status']>();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);

  const filter: NotificationFilter = {
    keywords: keywords || undefined,
    status,
    start: range?.[0]?.format(SERVER_TIME),
    end: range?.[1]?.format(SERVER_TIME),
  };
  const list = useQuery({
    queryKey: [...KEY, filter, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() => listNotifications({ ...filter, page: pager.page, page_size: pager.pageSize })),
    placeholderData: keepPreviousData,
    // Deliveries change state in the background: a pending one is looked at again.
    refetchInterval: (q) =>
      q.state.data?.list.some((n) =>
        n.deliveries.some((d) => d.status === 'pending' || d.status === 'sending'),
      )
        ? 10_000
        : false,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: KEY });

  const summary = (n: NotificationRow) => {
    const failed = n.deliveries.filter((d) => d.status === 'failed').length;
    const waiting = n.deliveries.filter((d) => d.status === 'pending' || d.status === 'sending').length;
    const sent = n.deliveries.length - failed - waiting;
    return (
      <Space size={4} wrap>
        {sent > 0 && <Tag color="success">已发送 {sent}</Tag>}
        {waiting > 0 && <Tag color="gold">等待 {waiting}</Tag>}
        {failed > 0 && <Tag color="error">失败 {failed}</Tag>}
      </Space>
    );
  };

  const columns: TableColumnsType<NotificationRow> = [
    { title: '时间', dataIndex: 'created_at', width: 170 },
    { title: '标题', dataIndex: 'title', width: 200, ellipsis: true },
    ...(mobile
      ? []
      : [
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
        ]),
    { title: '发送状态', key: 'status', width: 220, render: (_, n) => summary(n) },
  ];

  return (
    <>
      <Flex wrap gap="small" style={{ marginBottom: 16 }}>
        <Select<NotificationFilter['status']>
          value={status}
          onChange={(s) => {
            setStatus(s);
            pager.reset();
          }}
          allowClear
          placeholder="全部状态"
          aria-label="发送状态"
          style={{ width: 140 }}
          options={[
            { value: 'failed', label: '有失败' },
            { value: 'pending', label: '有等待发送' },
            { value: 'sent', label: '有已发送' },
          ]}
        />
        <DatePicker.RangePicker
          value={range}
          onChange={(r) => {
            setRange(r ? [r[0]?.startOf('day') ?? null, r[1]?.endOf('day') ?? null] : null);
            pager.reset();
          }}
          inputReadOnly={mobile}
          placeholder={['开始日期', '结束日期']}
          style={{ width: mobile ? '100%' : 260 }}
        />
        <Input.Search
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onSearch={(text) => {
            setKeywords(text.trim());
            pager.reset();
          }}
          allowClear
          placeholder="标题 / 内容 / 设备"
          style={{ width: mobile ? '100%' : 240 }}
        />
        <Button icon={<ReloadOutlined />} onClick={refresh} aria-label="刷新" />
      </Flex>
      <Table<NotificationRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        expandable={{
          expandedRowRender: (n) => <DeliveryList deliveries={n.deliveries} onRetried={refresh} />,
          rowExpandable: () => true,
        }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                keywords || status || range
                  ? '没有符合条件的提醒记录'
                  : '暂无提醒记录：规则触发后会出现在这里'
              }
            />
          ),
        }}
        pagination={pager.pagination(list.data?.total ?? 0)}
      />
    </>
  );
}
