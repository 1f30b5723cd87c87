import { FormModal } from '../../components/FormModal.tsx';
import {
  DEVICE_KINDS,
  GATEWAY_TYPES,
  addDeviceBody,
  updateDeviceBody,
  type DeviceKind,
  type DeviceRow,
} from '@se/core';
import { Col, Form, Input, Row, Select } from 'antd';
import { useState } from 'react';
import { addDevice, updateDevice, type DeviceFields } from '../../api/devices.ts';
import { zodRule } from '../../components/form-rules.ts';
import { useIsMobile } from '../../layout/viewport.ts';
import { features } from './device-text.ts';
import { attempt } from '../../components/feedback.ts';
import { NumberField } from './NumberField.tsx';

export type DeviceDialogTarget = { mode: 'add' } | { mode: 'edit'; device: DeviceRow };

interface FormValues extends DeviceFields {
  id?: number;
  ser_num: string;
}

// Coordinates keep the decimals they were typed with; only the range applies.
const COORD = { controls: false } as const;

/** 登记设备 / 编辑设备: the fields of SPEC §3 a person sets; the token is the server's. */
export function DeviceFormDialog({
  kind,
  target,
  onSaved,
  onClosed,
}: {
  kind: DeviceKind;
  target: DeviceDialogTarget;
  onSaved: (device: DeviceRow) => void;
  onClosed: () => void;
}) {
  const mobile = useIsMobile();
  const [form] = Form.useForm<FormValues>();
  const [open, setOpen] = useState(true);
  const [saving, setSaving] = useState(false);
  const editing = target.mode === 'edit' ? target.device : null;
  const schema = editing ? updateDeviceBody : addDeviceBody;
  const { gateway } = features(kind);
  const label = DEVICE_KINDS[kind].label;

  const initialValues: FormValues = editing
    ? {
        id: editing.id,
        ser_num: editing.ser_num,
        desc: editing.desc,
        location: editing.location,
        lng: editing.lng ?? undefined,
        lat: editing.lat ?? undefined,
        version: editing.version,
        url: editing.url,
        type: editing.type ?? undefined,
      }
    : { ser_num: '', desc: '', location: '', version: '', url: '', type: gateway ? 40 : undefined };

  const submit = async (values: FormValues) => {
    setSaving(true);
    const fields: DeviceFields = {
      desc: values.desc?.trim() ?? '',
      location: values.location?.trim() ?? '',
      lng: values.lng,
      lat: values.lat,
      version: values.version?.trim() ?? '',
      url: values.url?.trim() ?? '',
      type: gateway ? values.type : undefined,
    };
    const outcome = await attempt(
      () =>
        editing
          ? updateDevice(kind, { id: editing.id, ...fields })
          : addDevice(kind, { ser_num: values.ser_num.trim(), ...fields }),
      editing ? '保存成功' : `${label}登记成功`,
    );
    setSaving(false);
    if (outcome.ok) {
      onSaved(outcome.data);
      setOpen(false);
    } else if (outcome.code === 409) {
      form.setFields([{ name: 'ser_num', errors: [outcome.message] }]);
    }
  };

  const half = mobile ? 24 : 12;
  return (
    <FormModal
      open={open}
      title={editing ? `编辑${label}` : `登记${label}`}
      width={640}
      saving={saving}
      onSave={() => form.submit()}
      onCancel={() => setOpen(false)}
      onClosed={onClosed}
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onFinish={(v) => void submit(v)}
        autoComplete="off"
        style={{ marginTop: 16 }}
      >
        <Row gutter={16}>
          <Col span={half}>
            <Form.Item
              label="序列号"
              name="ser_num"
              required={!editing}
              rules={editing ? [] : [zodRule(schema, 'ser_num')]}
              extra={editing ? '序列号登记后不能修改' : '设备机身或包装上的编号'}
            >
              <Input disabled={!!editing} maxLength={64} placeholder="如 JWB-2024-0001" />
            </Form.Item>
          </Col>
          {gateway && (
            <Col span={half}>
              <Form.Item label="类型" name="type" rules={[{ required: true, message: '请选择网关类型' }]}>
                <Select
                  options={GATEWAY_TYPES.map((t) => ({ value: t.value, label: `${t.label} (${t.value})` }))}
                />
              </Form.Item>
            </Col>
          )}
          <Col span={half}>
            <Form.Item
              label="描述"
              name="desc"
              rules={[zodRule(schema, 'desc')]}
              extra="通常填安装地点的名称"
            >
              <Input maxLength={100} placeholder="如 人民广场东侧公厕男厕" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item label="位置" name="location" rules={[zodRule(schema, 'location')]}>
              <Input maxLength={200} placeholder="详细地址" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item label="经度" name="lng" rules={[zodRule(schema, 'lng')]}>
              <NumberField min={-180} max={180} {...COORD} placeholder="-180 ~ 180" aria-label="经度" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item label="纬度" name="lat" rules={[zodRule(schema, 'lat')]}>
              <NumberField min={-90} max={90} {...COORD} placeholder="-90 ~ 90" aria-label="纬度" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item label="版本" name="version" rules={[zodRule(schema, 'version')]}>
              <Input maxLength={50} placeholder="固件版本" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item label="地址 (URL)" name="url" rules={[zodRule(schema, 'url')]}>
              <Input maxLength={500} placeholder="设备的管理或视频地址（可选）" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}
