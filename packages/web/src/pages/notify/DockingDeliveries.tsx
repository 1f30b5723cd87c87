import { ReloadOutlined } from '@ant-design/icons';
import type { DeliveryRow, DockingInterface } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
  Empty,
  Flex,
  Modal,
  Select,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import {
  listDockingDeliveries,
  retryDelivery,
  setDockingPushes,
  type DockingDeliveryFilter,
  type DockingPushes,
} from '../../api/notify.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { usePager } from '../../components/pager.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { STATUS_COLORS, canRetry, deliveryDetail, pushKindText, statusText } from './delivery-text.ts';

const PUSHES: { key: keyof DockingPushes; label: string }[] = [
  { key: 'push_reports', label: '设备数据' },
  { key: 'push_alarms', label: '告警' },
  { key: 'push_comments', label: '评价' },
];

/** The three opt-ins of a docking interface, saved as they are ticked. */
export function DockingPushSwitches({
  docking,
  onSaved,
}: {
  docking: DockingInterface;
  onSaved: () => void;
}) {
  const [saving, setSaving] = useState(false);
  const toggle = async (key: keyof DockingPushes, on: boolean) => {
    setSaving(true);
    const out = await attempt(
      () => setDockingPushes(docking.id, { [key]: on }),
      on ? '已开启推送' : '已关闭推送',
    );
    setSaving(false);
    if (out.ok) onSaved();
  };
  return (
    <Flex wrap gap={2}>
      {PUSHES.map((p) => (
        <Checkbox
          key={p.key}
          checked={docking[p.key]}
          disabled={saving}
          onChange={(e) => void toggle(p.key, e.target.checked)}
          aria-label={`推送${p.label}`}
        >
          {p.label}
        </Checkbox>
      ))}
    </Flex>
  );
}

/** 推送记录 of one docking interface: every signed POST, its state and retries. */
export function DockingDeliveriesModal({
  docking,
  onClosed,
}: {
  docking: DockingInterface;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [open, setOpen] = useState(true);
  const [status, setStatus] = useState<DockingDeliveryFilter['status']>();
  const [busy, setBusy] = useState<number | null>(null);
  const key = ['notify', 'docking-log', docking.id];
  const list = useQuery({
    queryKey: [...key, status, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() =>
        listDockingDeliveries({
          docking_id: docking.id,
          status,
          page: pager.page,
          page_size: pager.pageSize,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
  const retry = async (d: DeliveryRow) => {
    setBusy(d.id);
    const out = await attempt(() => retryDelivery(d.id), '已重新加入发送队列');
    setBusy(null);
    if (out.ok) refresh();
  };
  const columns: TableColumnsType<DeliveryRow> = [
    { title: '时间', dataIndex: 'created_at', width: 170 },
    { title: '内容', dataIndex: 'kind', width: 100, render: (k: string) => <Tag>{pushKindText(k)}</Tag> },
    {
      title: '状态',
      dataIndex: 'status',
      width: 100,
      render: (s: string) => <Tag color={STATUS_COLORS[s]}>{statusText(s)}</Tag>,
    },
    {
      title: '详情',
      key: 'detail',
      render: (_, d) => (
        <Typography.Text type={d.status === 'failed' ? 'danger' : 'secondary'}>
          {deliveryDetail(d)}
          {d.response_code ? `（HTTP ${d.response_code}）` : ''}
        </Typography.Text>
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 90,
      render: (_, d) =>
        canRetry(d) ? (
          <Button size="small" loading={busy === d.id} onClick={() => void retry(d)}>
            重试
          </Button>
        ) : null,
    },
  ];
  return (
    <Modal
      title={`推送记录 - ${docking.name}`}
      open={open}
      width={mobile ? '95%' : 900}
      footer={null}
      onCancel={() => setOpen(false)}
      afterClose={onClosed}
    >
      <Flex gap="small" style={{ marginBottom: 12 }} wrap>
        <Select
          value={status}
          onChange={(s) => {
            setStatus(s);
            pager.reset();
          }}
          allowClear
          placeholder="全部状态"
          aria-label="推送状态"
          style={{ width: 140 }}
          options={[
            { value: 'pending', label: '等待发送' },
            { value: 'sent', label: '已发送' },
            { value: 'failed', label: '失败' },
          ]}
        />
        <Button icon={<ReloadOutlined />} onClick={refresh} aria-label="刷新" />
      </Flex>
      <Table<DeliveryRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        scroll={{ x: 700 }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description="暂无推送记录：开启推送后，数据会以签名的 JSON 推送到该接口"
            />
          ),
        }}
        pagination={pager.pagination(list.data?.total ?? 0)}
      />
    </Modal>
  );
}
