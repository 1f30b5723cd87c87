import { FAULT_SEVERITIES } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { listFaultTypes, listTeams } from '../../api/maintenance.ts';
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

/** A list filter holding one id (kept in the URL as its number), shown by `render`. */
const idFilter = (render: FilterField<number | undefined>['render']): FilterField<number | undefined> => ({
  initial: undefined,
  encode: (v) => (v === undefined ? undefined : String(v)),
  decode: (s) => (/^\d+$/.test(s) ? Number(s) : undefined),
  render,
});

export const equipmentFilter = idFilter(({ value, onChange, mobile }) => (
  <EquipmentTypeSelect value={value} onChange={onChange} width={mobile ? '100%' : 160} allowClear />
));

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

export const faultFilter = idFilter(({ value, onChange, mobile }) => (
  <FaultTypeSelect value={value} onChange={onChange} width={mobile ? '100%' : 200} />
));

/** The maintenance teams the caller sees (维修班组): a plan's team, a list filter. */
export function TeamSelect(props: {
  value?: number | null;
  onChange?: (v: number | undefined) => void;
  width?: number | string;
  placeholder?: string;
}) {
  const teams = useQuery({
    queryKey: ['maintenance', 'teams', 'all'],
    queryFn: () => loadOrThrow(() => listTeams({ page_size: 100 })),
    staleTime: 60_000,
  });
  return (
    <Select<number>
      value={props.value ?? undefined}
      onChange={(v) => props.onChange?.(v ?? undefined)}
      options={(teams.data?.list ?? []).map((t) => ({ value: t.id, label: `${t.name}（${t.lead_name}）` }))}
      loading={teams.isLoading}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={props.placeholder ?? '维修班组'}
      aria-label="维修班组"
      style={{ width: props.width }}
    />
  );
}

export const teamFilter = idFilter(({ value, onChange, mobile }) => (
  <TeamSelect value={value} onChange={onChange} width={mobile ? '100%' : 140} />
));
