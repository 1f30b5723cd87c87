import { EditOutlined } from '@ant-design/icons';
import { PART_STATES, TOILET_PART_TYPES, addPartBody, addRecordPath, type ToiletPart } from '@se/core';
import { useNavigate } from 'react-router';
import { Flex, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { addPart, updatePart } from '../../api/toilets.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import type { FormField } from '../../components/form-fields.tsx';
import { DeleteAction, RowAction } from '../../components/list/index.ts';
import { partStateLabel, partTypeLabel, partsInOrder } from './detail-text.ts';
import { TabTable } from './TabTable.tsx';

type Target = { mode: 'add' } | { mode: 'edit'; part: ToiletPart } | { mode: 'state'; part: ToiletPart };

interface Values {
  toilet_id: number;
  type: number;
  name: string;
  state: number;
  note: string;
}

const TYPE_OPTIONS = TOILET_PART_TYPES.map((label, value) => ({ value, label }));
const STATE_OPTIONS = PART_STATES.map((label, value) => ({ value, label }));

/** 添加部件 / 编辑部件 / 报修: a part's type, name, state and note; `state` mode edits only the last two. */
function PartDialog({
  toiletId,
  target,
  onSaved,
  onClosed,
}: DialogProps<{
  toiletId: number;
  target: Target;
}>) {
  const part = target.mode === 'add' ? null : target.part;
  const stateOnly = target.mode === 'state';

  const submit = (v: Values) => {
    const note = v.note.trim();
    return part === null
      ? addPart({ toilet_id: toiletId, type: v.type, name: v.name.trim(), state: v.state, note })
      : stateOnly
        ? updatePart({ id: part.id, state: v.state, note })
        : updatePart({ id: part.id, type: v.type, name: v.name.trim(), state: v.state, note });
  };

  const fields: FormField<Values>[] = [
    {
      name: 'type',
      label: '类型',
      kind: 'select',
      required: true,
      hidden: stateOnly,
      options: TYPE_OPTIONS,
      props: { 'aria-label': '部件类型' },
    },
    { name: 'name', label: '名称', hidden: stateOnly, maxLength: 50, placeholder: '如 男厕 3 号蹲位' },
    {
      name: 'state',
      label: '状态',
      kind: 'select',
      required: true,
      options: STATE_OPTIONS,
      props: { 'aria-label': '部件状态' },
    },
    {
      name: 'note',
      label: '备注',
      kind: 'textarea',
      maxLength: 200,
      placeholder: '如 冲水阀漏水',
      props: { showCount: true },
    },
  ];

  const title =
    target.mode === 'add'
      ? '添加部件'
      : stateOnly
        ? `部件状态 · ${part!.name || partTypeLabel(part!.type)}`
        : '编辑部件';
  return (
    <FormModal
      title={title}
      width={520}
      fields={fields}
      schema={addPartBody}
      initialValues={{
        toilet_id: toiletId,
        type: part?.type ?? 0,
        name: part?.name ?? '',
        state: part?.state ?? 0,
        note: part?.note ?? '',
      }}
      submit={submit}
      success={part === null ? '部件已添加' : '保存成功'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

/** 部件: the toilet's parts (SPEC §4 types) with their state; faults first. */
export function PartsPanel({
  toiletId,
  parts,
  canManage,
  onChanged,
}: {
  toiletId: number;
  parts: ToiletPart[];
  canManage: boolean;
  onChanged: () => void;
}) {
  const [target, setTarget] = useState<Target | null>(null);
  const navigate = useNavigate();
  const columns: TableColumnsType<ToiletPart> = [
    { title: '类型', dataIndex: 'type', width: 90, render: (t: number) => partTypeLabel(t) },
    { title: '名称', dataIndex: 'name', ellipsis: true, render: (n: string) => n || '—' },
    {
      title: '状态',
      dataIndex: 'state',
      width: 80,
      render: (s: number) => <Tag color={s === 0 ? 'success' : 'error'}>{partStateLabel(s)}</Tag>,
    },
    { title: '备注', dataIndex: 'note', ellipsis: true, render: (n: string) => n || '—' },
    { title: '更新时间', dataIndex: 'updated_at', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: canManage ? 250 : 140,
      render: (_, p) => (
        <Flex gap={0}>
          <RowAction onClick={() => setTarget({ mode: 'state', part: p })}>
            {p.state === 0 ? '报故障' : '改状态'}
          </RowAction>
          {p.state !== 0 && (
            <RowAction onClick={() => navigate(addRecordPath({ part_id: p.id }))}>报修</RowAction>
          )}
          {canManage && (
            <>
              <RowAction icon={<EditOutlined />} onClick={() => setTarget({ mode: 'edit', part: p })}>
                编辑
              </RowAction>
              <DeleteAction
                title="删除部件"
                question={`确定删除 ${p.name || partTypeLabel(p.type)} 吗？`}
                call={() => updatePart({ id: p.id, is_delete: true })}
                done="部件已删除"
                onDeleted={onChanged}
              />
            </>
          )}
        </Flex>
      ),
    },
  ];
  const faulty = parts.filter((p) => p.state !== 0).length;
  return (
    <Flex vertical gap={12}>
      <TabTable
        summary={
          <span>
            共 {parts.length} 个部件
            {faulty > 0 && (
              <Tag color="error" style={{ marginInlineStart: 8 }}>
                {faulty} 个故障
              </Tag>
            )}
          </span>
        }
        add={canManage ? { label: '添加部件', onClick: () => setTarget({ mode: 'add' }) } : undefined}
        rows={partsInOrder(parts)}
        columns={columns}
        width={720}
        empty={canManage ? '暂无部件，点击“添加部件”登记蹲位、洗手台等' : '暂无部件'}
        pagination={parts.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
      />
      {target && (
        <PartDialog
          key={target.mode === 'add' ? 'add' : `${target.mode}-${target.part.id}`}
          toiletId={toiletId}
          target={target}
          onSaved={onChanged}
          onClosed={() => setTarget(null)}
        />
      )}
    </Flex>
  );
}
