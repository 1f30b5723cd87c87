import type { DeliveryRow, DockingInterface } from '@se/core';
import { Button, Checkbox, Flex, Modal, Tag, Typography } from 'antd';
import { useState } from 'react';
import {
  listDockingDeliveries,
  retryDelivery,
  setDockingPushes,
  type DockingDeliveryFilter,
  type DockingPushes,
} from '../../api/notify.ts';
import { attempt } from '../../components/feedback.ts';
import type { ClosingProps } from '../../components/FormModal.tsx';
import { ListView, useListQuery, type FilterFields, type ListColumn } from '../../components/list/index.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import {
  STATUS_COLORS,
  canRetry,
  deliveryDetail,
  pushKindText,
  statusFilter,
  statusText,
} from './delivery-text.ts';

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

type Status = DockingDeliveryFilter['status'];
const FILTERS: FilterFields<{ status: Status }> = {
  status: statusFilter<NonNullable<Status>>('推送状态', [
    { value: 'pending', label: '等待发送' },
    { value: 'sent', label: '已发送' },
    { value: 'failed', label: '失败' },
  ]),
};

const statusTag = (s: string) => <Tag color={STATUS_COLORS[s]}>{statusText(s)}</Tag>;

const COLUMNS: ListColumn<DeliveryRow>[] = [
  { title: '时间', dataIndex: 'created_at', width: 170, card: false },
  { title: '内容', dataIndex: 'kind', width: 100, render: (k: string) => <Tag>{pushKindText(k)}</Tag> },
  { title: '状态', dataIndex: 'status', width: 100, render: statusTag, card: false },
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
];

/** 推送记录 of one docking interface: every signed POST, its state and retries. */
export function DockingDeliveriesModal({
  docking,
  onClosed,
}: {
  docking: DockingInterface;
} & ClosingProps) {
  const mobile = useIsMobile();
  const [open, setOpen] = useState(true);
  const [busy, setBusy] = useState<number | null>(null);
  const list = useListQuery({
    key: ['notify', 'docking-log', docking.id],
    filters: FILTERS,
    local: true,
    load: (f, paging) => listDockingDeliveries({ docking_id: docking.id, status: f.status, ...paging }),
  });
  const retry = async (d: DeliveryRow) => {
    setBusy(d.id);
    const out = await attempt(() => retryDelivery(d.id), '已重新加入发送队列');
    setBusy(null);
    if (out.ok) list.refresh();
  };
  return (
    <Modal
      title={`推送记录 - ${docking.name}`}
      open={open}
      width={mobile ? '95%' : 900}
      footer={null}
      onCancel={() => setOpen(false)}
      afterClose={onClosed}
    >
      <ListView
        list={list}
        buttons={false}
        refresh
        columns={COLUMNS}
        rowKey="id"
        empty="暂无推送记录：开启推送后，数据会以签名的 JSON 推送到该接口"
        cardTitle={(d) => d.created_at}
        cardExtra={(d) => statusTag(d.status)}
        actionsWidth={90}
        actions={(d) =>
          canRetry(d) ? (
            <Button size="small" loading={busy === d.id} onClick={() => void retry(d)}>
              重试
            </Button>
          ) : null
        }
      />
    </Modal>
  );
}
