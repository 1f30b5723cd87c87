import { ReloadOutlined } from '@ant-design/icons';
import {
  CACHE_OP_LABELS,
  COMMAND_TYPES,
  JWB_CACHE_OPS,
  SENSOR_OPS,
  SENSOR_OP_LABELS,
  type DeviceCommand,
  type DeviceKind,
  type DeviceRow,
} from '@se/core';
import { Button, Card, Flex, Input, Popconfirm, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { cacheOperation, listCommands, sensorOperation } from '../../api/devices.ts';
import { ListTable, NO_FILTERS, useListQuery, type ListColumn } from '../../components/list/index.ts';
import { CommandStatusTag } from './DeviceBits.tsx';
import { features } from './device-text.ts';
import { attempt } from '../../components/feedback.ts';
import { SyncEmployees } from '../attendance/SyncEmployees.tsx';

export const commandsKey = (deviceId: number) => ['commands', deviceId] as const;

/** The 操作 column: cache and sensor commands carry an op code; config/parameter ones do not. */
export function commandOpLabel(c: Pick<DeviceCommand, 'type' | 'op'>): string {
  if (c.op === null) return '—';
  if (c.type === 'cache') return CACHE_OP_LABELS[c.op] ?? String(c.op);
  if (c.type === 'sensor') return SENSOR_OP_LABELS[c.op] ?? String(c.op);
  return String(c.op);
}

const typeLabel = (type: string) => COMMAND_TYPES[type as keyof typeof COMMAND_TYPES] ?? type;
const when = (v: string | null) => v || '—';

const columns: ListColumn<DeviceCommand>[] = [
  { title: '创建时间', dataIndex: 'created_at', width: 170, card: false },
  { title: '类型', dataIndex: 'type', width: 100, render: typeLabel },
  { title: '操作', key: 'op', width: 90, render: (_, c) => commandOpLabel(c) },
  {
    title: '状态',
    dataIndex: 'status',
    width: 90,
    render: (s: string) => <CommandStatusTag status={s} />,
    card: false,
  },
  {
    title: '发起人',
    dataIndex: 'created_by_name',
    width: 110,
    ellipsis: true,
    render: (v: string) => v || '—',
  },
  { title: '下发时间', dataIndex: 'sent_at', width: 170, render: when },
  { title: '完成时间', dataIndex: 'done_at', width: 170, render: when },
  { title: '结果', dataIndex: 'result', width: 160, ellipsis: true, render: (v: string) => v || '—' },
];

// Descriptions for the confirmations: an operator should know what the device will do.
const CACHE_HINTS: Record<number, string> = {
  [JWB_CACHE_OPS.restart]: '设备将重新启动，期间暂停除臭。',
  [JWB_CACHE_OPS.mightiness]: '设备将以强力模式工作一段时间。',
  [JWB_CACHE_OPS.deepSleep]: '设备将进入深度睡眠，直到下次唤醒。',
  [JWB_CACHE_OPS.nh3Calibration]: '请在空气洁净时执行，设备将以当前读数为氨气零点。',
};

/** 指令: the operations a device accepts (dispensers, gateways) and what was sent to it. */
export function CommandsTab({ kind, device }: { kind: DeviceKind; device: DeviceRow }) {
  const f = features(kind);
  const list = useListQuery({
    key: commandsKey(device.id),
    filters: NO_FILTERS,
    local: true,
    load: (_, paging) => listCommands({ device_id: device.id, ...paging }),
  });
  // A command just sent shows first: page 1, loaded again.
  const sent = () => list.apply();

  return (
    <Flex vertical gap={16}>
      {f.dispenser && <CacheOperations dispenserId={device.id} onSent={sent} />}
      {f.gateway && <SensorOperations gatewayId={device.id} onSent={sent} />}
      {f.terminal && <SyncEmployees terminalId={device.id} onSent={sent} />}
      <Card
        size="small"
        title="指令记录"
        extra={
          <Button
            size="small"
            icon={<ReloadOutlined />}
            loading={list.query.isFetching}
            onClick={() => void list.query.refetch()}
          >
            刷新
          </Button>
        }
      >
        <ListTable
          list={list}
          columns={columns}
          rowKey="id"
          compact
          empty="暂无指令记录"
          cardTitle={(c) => c.created_at}
          cardExtra={(c) => <CommandStatusTag status={c.status} />}
        />
      </Card>
    </Flex>
  );
}

function CacheOperations({ dispenserId, onSent }: { dispenserId: number; onSent: () => void }) {
  const [busy, setBusy] = useState<number | null>(null);
  const run = async (op: number) => {
    setBusy(op);
    const outcome = await attempt(() => cacheOperation(dispenserId, op), '指令已发送，等待设备接收');
    setBusy(null);
    if (outcome.ok) onSent();
  };
  return (
    <Card size="small" title="设备操作">
      <Flex wrap gap={8}>
        {Object.values(JWB_CACHE_OPS).map((op) => (
          <Popconfirm
            key={op}
            title={`确定执行“${CACHE_OP_LABELS[op]}”吗？`}
            description={CACHE_HINTS[op]}
            okText="执行"
            cancelText="取 消"
            onConfirm={() => run(op)}
          >
            <Button loading={busy === op} danger={op === JWB_CACHE_OPS.deepSleep}>
              {CACHE_OP_LABELS[op]}
            </Button>
          </Popconfirm>
        ))}
      </Flex>
    </Card>
  );
}

function SensorOperations({ gatewayId, onSent }: { gatewayId: number; onSent: () => void }) {
  const [busy, setBusy] = useState<number | null>(null);
  const [serNum, setSerNum] = useState('');
  const needsSerNum = (op: number) => op === SENSOR_OPS.delete || op === SENSOR_OPS.add;
  const run = async (op: number) => {
    setBusy(op);
    const outcome = await attempt(
      () => sensorOperation(gatewayId, op, needsSerNum(op) ? serNum.trim() : undefined),
      '指令已发送，等待网关接收',
    );
    setBusy(null);
    if (outcome.ok) onSent();
  };
  const question = (op: number) =>
    op === SENSOR_OPS.clear
      ? '网关将清空已配对的全部传感器，确定吗？'
      : needsSerNum(op)
        ? `确定对传感器 ${serNum.trim()} 执行“${SENSOR_OP_LABELS[op]}”吗？`
        : `确定让网关${SENSOR_OP_LABELS[op]}传感器吗？`;

  return (
    <Card size="small" title="传感器操作">
      <Flex vertical gap={8}>
        <Input
          value={serNum}
          onChange={(e) => setSerNum(e.target.value)}
          maxLength={64}
          placeholder="传感器序列号（删除、添加时必填）"
          aria-label="传感器序列号"
          style={{ maxWidth: 320 }}
        />
        <Flex wrap gap={8}>
          {Object.values(SENSOR_OPS).map((op) => {
            const blocked = needsSerNum(op) && serNum.trim() === '';
            const button = (
              <Button loading={busy === op} disabled={blocked} danger={op === SENSOR_OPS.clear}>
                {SENSOR_OP_LABELS[op]}
              </Button>
            );
            return blocked ? (
              <Tooltip key={op} title="请先填写传感器序列号">
                {button}
              </Tooltip>
            ) : (
              <Popconfirm
                key={op}
                title={question(op)}
                okText="执行"
                cancelText="取 消"
                onConfirm={() => run(op)}
              >
                {button}
              </Popconfirm>
            );
          })}
        </Flex>
        <Typography.Text type="secondary">网关收到指令后执行，结果见下方指令记录。</Typography.Text>
      </Flex>
    </Card>
  );
}
