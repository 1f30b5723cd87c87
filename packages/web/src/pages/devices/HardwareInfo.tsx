import { updateDeviceInfoBody, type DeviceInfoRow, type DeviceRow } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Flex, Typography } from 'antd';
import { useState } from 'react';
import { getDeviceInfo, updateDeviceInfo } from '../../api/devices.ts';
import { loadOrThrow } from '../../components/feedback.ts';
import { FormModal } from '../../components/FormModal.tsx';
import type { FormField } from '../../components/form-fields.tsx';
import { useIsMobile } from '../../layout/viewport.ts';

type InfoForm = Pick<
  DeviceInfoRow,
  'com_num' | 'hard_num' | 'soft_num' | 'imei_num' | 'sim_num' | 'mac_address'
>;

const FIELDS: FormField<InfoForm>[] = [
  { name: 'com_num', label: '通信号', maxLength: 64, span: 12 },
  { name: 'imei_num', label: 'IMEI', maxLength: 64, span: 12 },
  { name: 'hard_num', label: '硬件版本', maxLength: 64, span: 12 },
  { name: 'soft_num', label: '软件版本', maxLength: 64, span: 12 },
  { name: 'sim_num', label: 'SIM 卡号', maxLength: 64, span: 12 },
  { name: 'mac_address', label: 'MAC 地址', placeholder: 'AA:BB:CC:DD:EE:FF', maxLength: 17, span: 12 },
];

const pick = (i: DeviceInfoRow): InfoForm => ({
  com_num: i.com_num,
  hard_num: i.hard_num,
  soft_num: i.soft_num,
  imei_num: i.imei_num,
  sim_num: i.sim_num,
  mac_address: i.mac_address,
});

/** 设备信息 (SPEC §3 device info) in the drawer's 基本信息 tab, edited in a dialog. */
export function HardwareInfo({ device }: { device: DeviceRow }) {
  const mobile = useIsMobile();
  const [editing, setEditing] = useState(false);
  const key = ['devices', 'info', device.id];
  const q = useQuery({ queryKey: key, queryFn: () => loadOrThrow(() => getDeviceInfo(device.id)) });
  const info = q.data;
  const dash = (v: string | undefined) => v || '—';
  return (
    <Flex vertical gap={8} style={{ marginTop: 16 }}>
      <Flex justify="space-between" align="center">
        <Typography.Title level={5} style={{ margin: 0 }}>
          设备信息
        </Typography.Title>
        <Button size="small" disabled={!info} onClick={() => setEditing(true)}>
          编辑
        </Button>
      </Flex>
      {q.isError ? (
        <Typography.Text type="danger">设备信息加载失败</Typography.Text>
      ) : (
        <Descriptions
          bordered
          size="small"
          column={mobile ? 1 : 2}
          items={[
            { key: 'com_num', label: '通信号', children: dash(info?.com_num) },
            { key: 'imei_num', label: 'IMEI', children: dash(info?.imei_num) },
            { key: 'hard_num', label: '硬件版本', children: dash(info?.hard_num) },
            { key: 'soft_num', label: '软件版本', children: dash(info?.soft_num) },
            { key: 'sim_num', label: 'SIM 卡号', children: dash(info?.sim_num) },
            { key: 'mac_address', label: 'MAC 地址', children: dash(info?.mac_address) },
            { key: 'update_time', label: '更新时间', children: dash(info?.update_time), span: 2 },
          ]}
        />
      )}
      {editing && info && (
        <FormModal
          title={`设备信息 - ${device.ser_num}`}
          width={640}
          name="device-info"
          fields={FIELDS}
          schema={updateDeviceInfoBody.omit({ id: true })}
          initialValues={pick(info)}
          submit={(values) => updateDeviceInfo({ id: device.id, ...values })}
          success="保存成功"
          onSaved={() => void q.refetch()}
          onClosed={() => setEditing(false)}
        />
      )}
    </Flex>
  );
}
