import { FAULT_SEVERITIES } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { listFaultTypes } from '../../api/maintenance.ts';
import { loadOrThrow } from '../../components/feedback.ts';
import type { FilterField } from '../../components/list/index.ts';
import { useEquipmentTypes } from './catalogue.ts';

export function EquipmentTypeSelect(props: {
  value?: number;
  onChange?: (v: number | undefined) => void;
  width?: number | string;
  allowClear?: boolean;
}) {
  const types = useEquipmentTypes();
  return (
    <Select<number>
      value={props.value}
      onChange={(v) => props.onChange?.(v ?? undefined)}
      options={(types.data?.list ?? []).map((e) => ({ value: e.id, label: e.name }))}
      loading={types.isLoading}
      allowClear={props.allowClear}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder="设备类型"
      aria-label="设备类型"
      style={{ width: props.width }}
    />
  );
}

export const equipmentFilter: FilterField<number | undefined> = {
  initial: undefined,
  encode: (v) => (v === undefined ? undefined : String(v)),
  decode: (s) => (/^\d+$/.test(s) ? Number(s) : undefined),
  render: ({ value, onChange, mobile }) => (
    <EquipmentTypeSelect value={value} onChange={onChange} width={mobile ? '100%' : 160} allowClear />
  ),
};

/** Every fault type the caller sees, labelled with its equipment type (a list filter). */
function FaultTypeSelect(props: {
  value?: number;
  onChange: (v: number | undefined) => void;
  width?: number | string;
}) {
  const faults = useQuery({
    queryKey: ['maintenance', 'fault-types', 'all'],
    queryFn: () => loadOrThrow(() => listFaultTypes({ page_size: 100 })),
    staleTime: 60_000,
  });
  return (
    <Select<number>
      value={props.value}
      onChange={(v) => props.onChange(v ?? undefined)}
      options={(faults.data?.list ?? []).map((f) => ({
        value: f.id,
        label: `${f.equipment_type_name} / ${f.name}（${FAULT_SEVERITIES[f.severity]}）`,
      }))}
      loading={faults.isLoading}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder="故障类型"
      aria-label="故障类型"
      style={{ width: props.width }}
    />
  );
}

export const faultFilter: FilterField<number | undefined> = {
  initial: undefined,
  encode: (v) => (v === undefined ? undefined : String(v)),
  decode: (s) => (/^\d+$/.test(s) ? Number(s) : undefined),
  render: ({ value, onChange, mobile }) => (
    <FaultTypeSelect value={value} onChange={onChange} width={mobile ? '100%' : 200} />
  ),
};
