import { FormModal } from '../../components/FormModal.tsx';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { addSensorBody, type DeviceRow, type Envelope } from '@se/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Input, Popconfirm, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { addSensor, listSensors, updateSensor } from '../../api/devices.ts';
import type { FormField } from '../../components/form-fields.tsx';
import { usePager } from '../../components/pager.ts';
import { LastReport, OnlineTag, SerNum } from './DeviceBits.tsx';
import { dash } from './device-text.ts';
import { attempt, loadOrThrow } from '../../components/feedback.ts';
import { useNow } from './use-now.ts';

const sensorsKey = (gatewayId: number) => ['sensors', gatewayId] as const;

/** 传感器: the sensors paired with a gateway (offline after 1 h without a report). */
export function SensorsTab({ gatewayId }: { gatewayId: number }) {
  const queryClient = useQueryClient();
  const now = useNow();
  const pager = usePager();
  const [draft, setDraft] = useState('');
  const [keywords, setKeywords] = useState('');
  // undefined: closed; null: adding.
  const [editing, setEditing] = useState<DeviceRow | null | undefined>(undefined);
  const sensors = useQuery({
    queryKey: [...sensorsKey(gatewayId), keywords, pager.page, pager.pageSize],
    queryFn: () =>
      loadOrThrow(() =>
        listSensors({
          gateway_id: gatewayId,
          keywords: keywords || undefined,
          page: pager.page,
          page_size: pager.pageSize,
        }),
      ),
    placeholderData: keepPreviousData,
  });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: sensorsKey(gatewayId) });

  const remove = async (s: DeviceRow) => {
    const outcome = await attempt(() => updateSensor({ id: s.id, is_delete: true }), '传感器已删除');
    if (outcome.ok) refresh();
  };

  const columns: TableColumnsType<DeviceRow> = [
    { title: '序列号', dataIndex: 'ser_num', width: 180, render: (v: string) => <SerNum value={v} /> },
    { title: '描述', dataIndex: 'desc', width: 140, ellipsis: true, render: dash },
    { title: '位置', dataIndex: 'location', width: 140, ellipsis: true, render: dash },
    { title: '在线', dataIndex: 'online', width: 70, render: (v: boolean) => <OnlineTag online={v} /> },
    {
      title: '最后上报',
      dataIndex: 'time',
      width: 100,
      render: (t: number | null) => <LastReport time={t} now={now} />,
    },
    {
      title: '操作',
      key: 'actions',
      width: 150,
      render: (_, s) => (
        <Flex gap={4}>
          <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditing(s)}>
            编辑
          </Button>
          <Popconfirm
            title="删除传感器"
            description={`确定删除传感器 ${s.ser_num} 吗？`}
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取 消"
            onConfirm={() => remove(s)}
          >
            <Button size="small" type="link" danger icon={<DeleteOutlined />}>
              删除
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <Card
      size="small"
      title="传感器"
      extra={
        <Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
          添加传感器
        </Button>
      }
    >
      <Input.Search
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onSearch={(v) => {
          setKeywords(v.trim());
          pager.reset();
        }}
        allowClear
        maxLength={100}
        placeholder="序列号 / 描述 / 位置"
        aria-label="搜索传感器"
        style={{ maxWidth: 260, marginBottom: 12 }}
      />
      <Table<DeviceRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={sensors.data?.list ?? []}
        loading={sensors.isFetching}
        scroll={{ x: 'max-content' }}
        pagination={{ ...pager.pagination(sensors.data?.total ?? 0), showQuickJumper: false, size: 'small' }}
        locale={{ emptyText: '暂无传感器' }}
      />
      {editing !== undefined && (
        <SensorDialog
          key={editing?.id ?? 'new'}
          gatewayId={gatewayId}
          sensor={editing}
          onSaved={refresh}
          onClosed={() => setEditing(undefined)}
        />
      )}
    </Card>
  );
}

interface SensorForm {
  gateway_id: number;
  ser_num: string;
  desc: string;
  location: string;
}

function SensorDialog({
  gatewayId,
  sensor,
  onSaved,
  onClosed,
}: {
  gatewayId: number;
  sensor: DeviceRow | null;
  onSaved: () => void;
  onClosed: () => void;
}) {
  const fields: FormField<SensorForm>[] = [
    {
      name: 'ser_num',
      label: '序列号',
      required: !sensor,
      rules: sensor ? [] : undefined,
      disabled: !!sensor,
      maxLength: 64,
    },
    { name: 'desc', label: '描述', maxLength: 100, placeholder: '如 男厕 1 号蹲位' },
    { name: 'location', label: '位置', maxLength: 200 },
  ];

  return (
    <FormModal
      title={sensor ? `编辑传感器 ${sensor.ser_num}` : '添加传感器'}
      width={480}
      fields={fields}
      schema={addSensorBody}
      initialValues={{
        gateway_id: gatewayId,
        ser_num: sensor?.ser_num ?? '',
        desc: sensor?.desc ?? '',
        location: sensor?.location ?? '',
      }}
      submit={(v): Promise<Envelope<unknown>> => {
        const desc = v.desc.trim();
        const location = v.location.trim();
        return sensor
          ? updateSensor({ id: sensor.id, desc, location })
          : addSensor({ gateway_id: gatewayId, ser_num: v.ser_num.trim(), desc, location });
      }}
      success={sensor ? '保存成功' : '传感器已添加'}
      onSaved={onSaved}
      errorField={(code) => (code === 409 ? 'ser_num' : undefined)}
      onClosed={onClosed}
    />
  );
}
