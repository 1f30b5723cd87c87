import { FormModal } from '../../components/FormModal.tsx';
import { addSensorBody, type DeviceRow } from '@se/core';
import { Form, Input } from 'antd';
import { useState } from 'react';
import { addSensor, listSensors, updateSensor } from '../../api/devices.ts';
import { zodRule } from '../../components/form-rules.ts';
import {
  ListPanel,
  RowActions,
  text,
  useDialog,
  useListQuery,
  type ListColumn,
} from '../../components/list/index.ts';
import { LastReport, OnlineTag, SerNum } from './DeviceBits.tsx';
import { dash } from './device-text.ts';
import { attempt } from '../../components/feedback.ts';
import { useNow } from './use-now.ts';

const FILTERS = {
  keywords: text({ placeholder: '序列号 / 描述 / 位置', label: '搜索传感器', width: 260, search: true }),
};

/** 传感器: the sensors paired with a gateway (offline after 1 h without a report). */
export function SensorsTab({ gatewayId }: { gatewayId: number }) {
  const now = useNow();
  const list = useListQuery({
    key: ['sensors', gatewayId],
    filters: FILTERS,
    local: true,
    load: (f, paging) =>
      listSensors({ gateway_id: gatewayId, keywords: f.keywords.trim() || undefined, ...paging }),
  });
  const editing = useDialog<DeviceRow | 'new'>();

  const remove = async (s: DeviceRow) => {
    const outcome = await attempt(() => updateSensor({ id: s.id, is_delete: true }), '传感器已删除');
    if (outcome.ok) list.refresh();
  };

  const columns: ListColumn<DeviceRow>[] = [
    {
      title: '序列号',
      dataIndex: 'ser_num',
      width: 180,
      render: (v: string) => <SerNum value={v} />,
      card: false,
    },
    { title: '描述', dataIndex: 'desc', width: 140, ellipsis: true, render: dash },
    { title: '位置', dataIndex: 'location', width: 140, ellipsis: true, render: dash },
    {
      title: '在线',
      dataIndex: 'online',
      width: 70,
      render: (v: boolean) => <OnlineTag online={v} />,
      card: false,
    },
    {
      title: '最后上报',
      dataIndex: 'time',
      width: 100,
      render: (t: number | null) => <LastReport time={t} now={now} />,
    },
  ];

  return (
    <>
      <ListPanel
        title="传感器"
        add={{ label: '添加传感器', onClick: () => editing.open('new') }}
        list={list}
        columns={columns}
        rowKey="id"
        empty="暂无传感器"
        cardTitle={(s) => <SerNum value={s.ser_num} />}
        cardExtra={(s) => <OnlineTag online={s.online} />}
        actions={(s) => (
          <RowActions
            edit={() => editing.open(s)}
            remove={{
              title: '删除传感器',
              description: `确定删除传感器 ${s.ser_num} 吗？`,
              onConfirm: () => remove(s),
            }}
          />
        )}
      />
      {editing.target && (
        <SensorDialog
          key={editing.target === 'new' ? 'new' : editing.target.id}
          gatewayId={gatewayId}
          sensor={editing.target === 'new' ? null : editing.target}
          onSaved={list.refresh}
          onClosed={editing.close}
        />
      )}
    </>
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
  const [form] = Form.useForm<SensorForm>();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);

  const submit = async (v: SensorForm) => {
    setSaving(true);
    const desc = v.desc.trim();
    const location = v.location.trim();
    const outcome = await attempt<unknown>(
      () =>
        sensor
          ? updateSensor({ id: sensor.id, desc, location })
          : addSensor({ gateway_id: gatewayId, ser_num: v.ser_num.trim(), desc, location }),
      sensor ? '保存成功' : '传感器已添加',
    );
    setSaving(false);
    if (outcome.ok) {
      onSaved();
      setOpen(false);
    } else if (outcome.code === 409) {
      form.setFields([{ name: 'ser_num', errors: [outcome.message] }]);
    }
  };

  return (
    <FormModal
      open={open}
      title={sensor ? `编辑传感器 ${sensor.ser_num}` : '添加传感器'}
      width={480}
      saving={saving}
      onSave={() => form.submit()}
      onCancel={() => setOpen(false)}
      onClosed={onClosed}
    >
      <Form<SensorForm>
        form={form}
        layout="vertical"
        initialValues={{
          gateway_id: gatewayId,
          ser_num: sensor?.ser_num ?? '',
          desc: sensor?.desc ?? '',
          location: sensor?.location ?? '',
        }}
        onFinish={(v) => void submit(v)}
        autoComplete="off"
        style={{ marginTop: 16 }}
      >
        <Form.Item
          label="序列号"
          name="ser_num"
          required={!sensor}
          rules={sensor ? [] : [zodRule(addSensorBody, 'ser_num')]}
        >
          <Input disabled={!!sensor} maxLength={64} />
        </Form.Item>
        <Form.Item label="描述" name="desc" rules={[zodRule(addSensorBody, 'desc')]}>
          <Input maxLength={100} placeholder="如 男厕 1 号蹲位" />
        </Form.Item>
        <Form.Item label="位置" name="location" rules={[zodRule(addSensorBody, 'location')]}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
