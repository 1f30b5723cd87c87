import { FAULT_SEVERITIES, addFaultTypeBody, type FaultTypeRow } from '@se/core';
import { Tag } from 'antd';
import { addFaultType, listFaultTypes, updateFaultType } from '../../api/maintenance.ts';
import { EntityList } from '../../components/EntityList.tsx';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { text, useListQuery, type FilterFields, type ListColumn } from '../../components/list/index.ts';
import { SEVERITY_COLORS, SEVERITY_OPTIONS } from './catalogue.ts';
import { EquipmentTypeSelect, equipmentFilter } from './pickers.tsx';

type Filters = { equipment: number | undefined; keywords: string };
const FILTERS: FilterFields<Filters> = {
  equipment: equipmentFilter,
  keywords: text({ placeholder: '故障名称 / 编码 / 处理方法', label: '关键字', width: 220 }),
};

const COLUMNS: ListColumn<FaultTypeRow>[] = [
  { title: '设备类型', dataIndex: 'equipment_type_name', width: 120 },
  {
    title: '故障',
    dataIndex: 'name',
    width: 150,
    card: false,
    render: (n: string, r) => (
      <>
        {n} {r.builtin && <Tag>内置</Tag>}
      </>
    ),
  },
  {
    title: '严重程度',
    dataIndex: 'severity',
    width: 90,
    render: (s: number) => <Tag color={SEVERITY_COLORS[s]}>{FAULT_SEVERITIES[s]}</Tag>,
  },
  { title: '响应时限', dataIndex: 'response_hours', width: 100, render: (h: number) => `${h} 小时` },
  { title: '编码', dataIndex: 'code', width: 120, from: 'lg' },
  { title: '处理方法', dataIndex: 'remedy', ellipsis: true, from: 'lg' },
];

function FaultTypeDialog({ row, onSaved, onClosed }: DialogProps<{ row: FaultTypeRow | null }>) {
  return (
    <FormModal
      title={row ? `编辑故障类型 ${row.name}` : '新增故障类型'}
      width={560}
      name="fault-type"
      schema={addFaultTypeBody}
      initialValues={{
        equipment_type_id: row?.equipment_type_id,
        name: row?.name ?? '',
        code: row?.code ?? '',
        severity: row?.severity ?? 0,
        response_hours: row?.response_hours ?? 24,
        remedy: row?.remedy ?? '',
      }}
      fields={[
        {
          name: 'equipment_type_id',
          label: '设备类型',
          required: true,
          render: () => <EquipmentTypeSelect width="100%" />,
        },
        { name: 'name', label: '故障名称', required: true, maxLength: 30 },
        { name: 'code', label: '编码', maxLength: 30, span: 12 },
        { name: 'severity', label: '严重程度', kind: 'select', options: SEVERITY_OPTIONS, span: 12 },
        {
          name: 'response_hours',
          label: '响应时限（小时）',
          kind: 'number',
          required: true,
          props: { min: 1, max: 720 },
          extra: '报修后须在此时限内修复，超时的记录会标红',
        },
        { name: 'remedy', label: '典型处理方法', kind: 'textarea', maxLength: 500 },
      ]}
      submit={(v) => {
        const body = { ...v, equipment_type_id: v.equipment_type_id! };
        return row ? updateFaultType({ id: row.id, ...body }) : addFaultType(body);
      }}
      success={row ? '修改成功' : '新增成功'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

/** /fault-type: the faults of each equipment type, their severity and response time. */
export default function FaultTypePage() {
  const list = useListQuery({
    key: ['maintenance', 'fault-types'],
    filters: FILTERS,
    load: (f, paging) =>
      listFaultTypes({ keywords: f.keywords.trim() || undefined, equipment_type_id: f.equipment, ...paging }),
  });
  return (
    <EntityList
      list={list}
      columns={COLUMNS}
      add="新增故障类型"
      empty={list.filtered ? '没有符合条件的故障类型' : '暂无故障类型'}
      locked={(r) => (r.editable ? undefined : r.builtin ? '系统内置' : '上级账号添加')}
      remove={{
        title: '删除故障类型',
        question: (r) =>
          `确定删除故障类型「${r.equipment_type_name} / ${r.name}」吗？被维修记录使用的类型不能删除。`,
        update: updateFaultType,
      }}
      dialog={(row, props) => <FaultTypeDialog row={row} {...props} />}
    />
  );
}
