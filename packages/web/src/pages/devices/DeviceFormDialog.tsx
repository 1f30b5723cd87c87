import {
  DEVICE_KINDS,
  GATEWAY_TYPES,
  INDUSTRIAL_TYPES,
  addDeviceBody,
  updateDeviceBody,
  type DeviceKind,
  type DeviceRow,
} from '@se/core';
import { addDevice, updateDevice, type DeviceFields } from '../../api/devices.ts';
import { FormModal } from '../../components/FormModal.tsx';
import { COORD_FIELDS, valuesOf, type FormField } from '../../components/form-fields.tsx';
import { features } from './device-text.ts';

export type DeviceDialogTarget = { mode: 'add' } | { mode: 'edit'; device: DeviceRow };

interface FormValues extends DeviceFields {
  id?: number;
  ser_num: string;
}

/** 工业类型 (SPEC §3): 不限 (null) or an industrial monitor type. */
const INDUSTRIAL_OPTIONS = [
  { value: '', label: '不限' },
  ...INDUSTRIAL_TYPES.map((t) => ({ value: t.value as string, label: t.label })),
];
const GATEWAY_OPTIONS = GATEWAY_TYPES.map((t) => ({ value: t.value, label: `${t.label} (${t.value})` }));

const trim = (value: string | undefined) => value?.trim() ?? '';

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
  const editing = target.mode === 'edit' ? target.device : null;
  const { gateway } = features(kind);
  const label = DEVICE_KINDS[kind].label;

  const initialValues: FormValues = editing
    ? {
        ...valuesOf(editing, ['id', 'ser_num', 'desc', 'location', 'lng', 'lat', 'version', 'url', 'type']),
        industrial_type: editing.industrial_type ?? '',
      }
    : {
        ser_num: '',
        desc: '',
        location: '',
        version: '',
        url: '',
        type: gateway ? 40 : undefined,
        industrial_type: '',
      };

  const submit = (values: FormValues) => {
    const fields: DeviceFields = {
      desc: trim(values.desc),
      location: trim(values.location),
      lng: values.lng,
      lat: values.lat,
      version: trim(values.version),
      url: trim(values.url),
      type: gateway ? values.type : undefined,
      industrial_type: gateway ? (values.industrial_type ?? '') : undefined,
    };
    return editing
      ? updateDevice(kind, { id: editing.id, ...fields })
      : addDevice(kind, { ser_num: values.ser_num.trim(), ...fields });
  };

  const fields: FormField<FormValues>[] = [
    {
      name: 'ser_num',
      label: '序列号',
      span: 12,
      required: !editing,
      rules: editing ? [] : undefined,
      disabled: !!editing,
      maxLength: 64,
      placeholder: '如 JWB-2024-0001',
      extra: editing ? '序列号登记后不能修改' : '设备机身或包装上的编号',
    },
    {
      name: 'type',
      label: '类型',
      kind: 'select',
      span: 12,
      hidden: !gateway,
      rules: [{ required: true, message: '请选择网关类型' }],
      options: GATEWAY_OPTIONS,
    },
    {
      name: 'industrial_type',
      label: '工业类型',
      kind: 'select',
      span: 12,
      hidden: !gateway,
      options: INDUSTRIAL_OPTIONS,
      extra: '工业气体监测仪选 BH-50，其列在智慧工业',
    },
    {
      name: 'desc',
      label: '描述',
      span: 12,
      maxLength: 100,
      placeholder: '如 人民广场东侧公厕男厕',
      extra: '通常填安装地点的名称',
    },
    { name: 'location', label: '位置', maxLength: 200, placeholder: '详细地址' },
    ...COORD_FIELDS,
    { name: 'version', label: '版本', span: 12, maxLength: 50, placeholder: '固件版本' },
    {
      name: 'url',
      label: '地址 (URL)',
      span: 12,
      maxLength: 500,
      placeholder: '设备的管理或视频地址（可选）',
    },
  ];

  return (
    <FormModal
      title={editing ? `编辑${label}` : `登记${label}`}
      width={640}
      fields={fields}
      schema={editing ? updateDeviceBody : addDeviceBody}
      initialValues={initialValues}
      submit={submit}
      success={editing ? '保存成功' : `${label}登记成功`}
      onSaved={onSaved}
      errorField={(code) => (code === 409 ? 'ser_num' : undefined)}
      onClosed={onClosed}
    />
  );
}
