import { addBuildingBody, type BuildingRow, type BuildingUse } from '@se/core';
import { addBuilding, updateBuilding } from '../../api/campus.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { COORD_FIELDS, valuesOf, type FormField } from '../../components/form-fields.tsx';
import { USE_OPTIONS } from './campus-text.tsx';

interface Values {
  name: string;
  code?: string;
  use: BuildingUse;
  floors_above: number;
  floors_below: number;
  area_m2?: number;
  address?: string;
  lng?: number;
  lat?: number;
  manager_name?: string;
  manager_phone?: string;
}

const FIELDS: FormField<Values>[] = [
  { name: 'name', label: '名称', span: 12, required: true, maxLength: 60, placeholder: '如 第一教学楼' },
  { name: 'code', label: '编号', span: 12, maxLength: 30, placeholder: '如 T1（组织内唯一）' },
  { name: 'use', label: '用途', span: 12, kind: 'select', required: true, options: USE_OPTIONS },
  { name: 'area_m2', label: '建筑面积（m²）', span: 12, kind: 'number', props: { min: 0, max: 10_000_000 } },
  {
    name: 'floors_above',
    label: '地上层数',
    span: 12,
    kind: 'number',
    required: true,
    props: { min: 0, max: 200 },
  },
  { name: 'floors_below', label: '地下层数', span: 12, kind: 'number', props: { min: 0, max: 20 } },
  { name: 'address', label: '地址', maxLength: 200 },
  ...COORD_FIELDS,
  { name: 'manager_name', label: '负责人', span: 12, maxLength: 30 },
  { name: 'manager_phone', label: '负责人电话', span: 12, maxLength: 30, props: { inputMode: 'tel' } },
];

/** 新增楼宇 / 编辑楼宇. */
export function BuildingDialog({
  building,
  onSaved,
  onClosed,
}: DialogProps<{ building: BuildingRow | null }>) {
  const initialValues: Values = building
    ? valuesOf({ ...building, use: building.use as BuildingUse }, [
        'name',
        'code',
        'use',
        'floors_above',
        'floors_below',
        'area_m2',
        'address',
        'lng',
        'lat',
        'manager_name',
        'manager_phone',
      ])
    : { name: '', use: 'teaching', floors_above: 1, floors_below: 0 };
  const submit = (v: Values) => {
    const body = {
      ...v,
      area_m2: v.area_m2 ?? null,
      lng: v.lng ?? null,
      lat: v.lat ?? null,
    };
    return building ? updateBuilding({ id: building.id, ...body }) : addBuilding(body);
  };
  return (
    <FormModal
      title={building ? '编辑楼宇' : '新增楼宇'}
      width={640}
      name="building"
      schema={addBuildingBody}
      initialValues={initialValues}
      fields={FIELDS}
      submit={submit}
      success={building ? '楼宇已保存' : '楼宇已新增'}
      errorField={(_, message) => (message.includes('编号') ? 'code' : undefined)}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}
