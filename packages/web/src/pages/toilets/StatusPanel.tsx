import {
  TOILET_STATUS,
  TOILET_STATUS_LABELS,
  setStatusBody,
  type StatusLogRow,
  type ToiletRow,
} from '@se/core';
import { Alert, Button, Card, Flex, Tag, Typography } from 'antd';
import { useState } from 'react';
import { listStatusLog, setToiletStatus } from '../../api/toilets.ts';
import { ListTable, NO_FILTERS, useListQuery, type ListColumn } from '../../components/list/index.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { statusChangeText } from './detail-text.ts';
import { toiletsKey } from './keys.ts';

type OperatorFlag = 'cleaning' | 'repair';
const OPERATOR_FLAGS: OperatorFlag[] = ['cleaning', 'repair'];
const FLAG_COLORS = { cleaning: 'processing', repair: 'warning' } as const;

interface Change {
  flag: OperatorFlag;
  on: boolean;
}

/** The note dialog of one change: 设为清洁中 / 取消维修中, with why. */
function NoteDialog({
  toilet,
  change,
  onSaved,
  onClosed,
}: DialogProps<{ toilet: ToiletRow; change: Change }>) {
  const title = `${change.on ? '设为' : '取消'}${TOILET_STATUS_LABELS[change.flag]}`;
  const example = change.flag === 'cleaning' ? '早班保洁，约 20 分钟' : '3 号蹲位冲水阀更换';
  return (
    <FormModal
      title={`${title} · ${toilet.name}`}
      width={480}
      okText={title}
      schema={setStatusBody}
      fields={[
        {
          name: 'note',
          label: '备注',
          kind: 'textarea',
          maxLength: 200,
          props: { showCount: true },
          placeholder: change.on ? `如 ${example}` : '如 已完成',
        },
      ]}
      initialValues={{ note: '', id: toilet.id, flag: 1, on: change.on }}
      submit={({ note }) =>
        setToiletStatus({ id: toilet.id, flag: TOILET_STATUS[change.flag], on: change.on, note: note.trim() })
      }
      success={`${toilet.name}：已${title}`}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

const columns: ListColumn<StatusLogRow>[] = [
  { title: '时间', dataIndex: 'created_at', width: 170 },
  {
    title: '变更',
    key: 'change',
    width: 110,
    render: (_, r) => <Tag color={r.on ? 'blue' : 'default'}>{statusChangeText(r)}</Tag>,
  },
  { title: '备注', dataIndex: 'note', ellipsis: true, render: (n: string) => n || '—' },
  { title: '操作人', dataIndex: 'user_name', width: 120, render: (n: string) => n || '—' },
];

/** Status history of a toilet: who switched cleaning/repair, when and why. */
function StatusHistory({ toiletId }: { toiletId: number }) {
  const list = useListQuery({
    key: [...toiletsKey, 'status-log', toiletId],
    filters: NO_FILTERS,
    local: true,
    load: (_, paging) => listStatusLog(toiletId, paging),
  });
  return (
    <ListTable
      list={list}
      columns={columns}
      rowKey="id"
      compact
      empty="暂无状态变更记录"
      cardTitle={(r) => r.created_at}
    />
  );
}

/** 状态: the three flags, the operator's two switches with a note, and the history. */
export function StatusPanel({ toilet, onChanged }: { toilet: ToiletRow; onChanged: () => void }) {
  const [change, setChange] = useState<Change | null>(null);
  const alarm = (toilet.status & TOILET_STATUS.alarm) !== 0;
  return (
    <Flex vertical gap={12}>
      <Card size="small" title="当前状态">
        <Flex vertical gap={12}>
          {OPERATOR_FLAGS.map((flag) => {
            const on = (toilet.status & TOILET_STATUS[flag]) !== 0;
            return (
              <Flex key={flag} align="center" gap={12} wrap>
                <Typography.Text style={{ width: 56 }}>{TOILET_STATUS_LABELS[flag]}</Typography.Text>
                {on ? <Tag color={FLAG_COLORS[flag]}>是</Tag> : <Tag>否</Tag>}
                <Button
                  size="small"
                  type={on ? 'default' : 'primary'}
                  onClick={() => setChange({ flag, on: !on })}
                >
                  {on ? '取消' : '设为'}
                  {TOILET_STATUS_LABELS[flag]}
                </Button>
              </Flex>
            );
          })}
          {alarm ? (
            <Alert
              type="error"
              showIcon
              title="报警中：网关或传感器有未恢复的告警。告警恢复后自动解除，请在告警中心处理。"
            />
          ) : (
            <Typography.Text type="secondary">
              无报警（报警由网关和传感器的告警自动设置和解除）
            </Typography.Text>
          )}
        </Flex>
      </Card>
      <Card size="small" title="状态变更记录">
        <StatusHistory toiletId={toilet.id} />
      </Card>
      {change && (
        <NoteDialog toilet={toilet} change={change} onSaved={onChanged} onClosed={() => setChange(null)} />
      )}
    </Flex>
  );
}
