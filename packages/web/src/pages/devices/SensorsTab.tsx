import { addSensorBody, type DeviceRow, type Envelope } from '@se/core';
import { addSensor, listSensors, updateSensor } from '../../api/devices.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import type { FormField } from '../../components/form-fields.tsx';
import { EntityList } from '../../components/EntityList.tsx';
import { text, useListQuery, type ListColumn } from '../../components/list/index.ts';
import { LastReport, OnlineTag, SerNum } from './DeviceBits.tsx';
import { dash } from './device-text.ts';
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
    <EntityList
      panel="传感器"
      add="添加传感器"
      list={list}
      columns={columns}
      empty="暂无传感器"
      cardTitle={(s) => <SerNum value={s.ser_num} />}
      cardExtra={(s) => <OnlineTag online={s.online} />}
      remove={{
        title: '删除传感器',
        question: (s) => `确定删除传感器 ${s.ser_num} 吗？`,
        update: updateSensor,
        done: '传感器已删除',
      }}
      dialog={(sensor, props) => <SensorDialog gatewayId={gatewayId} sensor={sensor} {...props} />}
    />
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
}: DialogProps<{
  gatewayId: number;
  sensor: DeviceRow | null;
}>) {
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
