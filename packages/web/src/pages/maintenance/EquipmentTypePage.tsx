import { EQUIPMENT_CATEGORIES, addEquipmentTypeBody, type EquipmentTypeRow } from '@se/core';
import { Tag } from 'antd';
import { addEquipmentType, listEquipmentTypes, updateEquipmentType } from '../../api/maintenance.ts';
import { EntityList } from '../../components/EntityList.tsx';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import {
  select,
  text,
  useListQuery,
  type FilterFields,
  type ListColumn,
} from '../../components/list/index.ts';
import { CATEGORY_OPTIONS } from './catalogue.ts';

type Filters = { keywords: string; category: string | undefined };
const FILTERS: FilterFields<Filters> = {
  keywords: text({ placeholder: '名称 / 编码 / 备注', label: '关键字', width: 220 }),
  category: select({ options: CATEGORY_OPTIONS, placeholder: '类别', width: 130 }),
};

const categoryText = (c: string) => EQUIPMENT_CATEGORIES[c as keyof typeof EQUIPMENT_CATEGORIES] ?? c;

const COLUMNS: ListColumn<EquipmentTypeRow>[] = [
  {
    title: '名称',
    dataIndex: 'name',
    width: 160,
    card: false,
    render: (n: string, r) => (
      <>
        {n} {r.builtin && <Tag>内置</Tag>}
      </>
    ),
  },
  { title: '编码', dataIndex: 'code', width: 140 },
  { title: '类别', dataIndex: 'category', width: 100, render: categoryText },
  { title: '故障类型数', dataIndex: 'fault_count', width: 100 },
  { title: '备注', dataIndex: 'note', ellipsis: true, from: 'lg' },
];

function EquipmentTypeDialog({ row, onSaved, onClosed }: DialogProps<{ row: EquipmentTypeRow | null }>) {
  return (
    <FormModal
      title={row ? `编辑设备类型 ${row.name}` : '新增设备类型'}
      width={520}
      name="equipment-type"
      schema={addEquipmentTypeBody}
      initialValues={{
        name: row?.name ?? '',
        code: row?.code ?? '',
        category: row?.category ?? 'other',
        note: row?.note ?? '',
      }}
      fields={[
        { name: 'name', label: '名称', required: true, maxLength: 30 },
        { name: 'code', label: '编码', maxLength: 30, placeholder: '字母、数字、下划线' },
        { name: 'category', label: '类别', kind: 'select', options: CATEGORY_OPTIONS },
        { name: 'note', label: '备注', kind: 'textarea', maxLength: 200 },
      ]}
      submit={(v) =>
        row
          ? updateEquipmentType({ id: row.id, ...v, category: v.category as 'device' })
          : addEquipmentType({ ...v, category: v.category as 'device' })
      }
      success={row ? '修改成功' : '新增成功'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

/** /equipment-type: the types of equipment that get repaired. */
export default function EquipmentTypePage() {
  const list = useListQuery({
    key: ['maintenance', 'equipment-types'],
    filters: FILTERS,
    load: (f, paging) =>
      listEquipmentTypes({
        keywords: f.keywords.trim() || undefined,
        category: f.category as 'device' | undefined,
        ...paging,
      }),
  });
  return (
    <EntityList
      list={list}
      columns={COLUMNS}
      add="新增设备类型"
      empty={list.filtered ? '没有符合条件的设备类型' : '暂无设备类型'}
      locked={(r) => (r.editable ? undefined : r.builtin ? '系统内置' : '上级账号添加')}
      remove={{
        title: '删除设备类型',
        question: (r) => `确定删除设备类型「${r.name}」吗？被维修记录使用的类型不能删除。`,
        update: updateEquipmentType,
      }}
      dialog={(row, props) => <EquipmentTypeDialog row={row} {...props} />}
    />
  );
}
