import { ApartmentOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { addDepartmentBody, type DepartmentRow } from '@se/core';
import { Alert, Button, Empty, Flex, Input, Spin, Tag, Tree, Typography, type TreeProps } from 'antd';
import { useMemo, useState } from 'react';
import { addDepartment, deleteDepartment, updateDepartment } from '../../api/attendance.ts';
import { attempt } from '../../components/feedback.ts';
import { FormModal, type DialogProps } from '../../components/FormModal.tsx';
import { DeleteButton, useDialog } from '../../components/list/index.ts';
import { errorText } from '../../components/error-text.ts';
import { DepartmentSelect } from './DepartmentSelect.tsx';
import { EmployeeSelect } from './EmployeeSelect.tsx';
import { nest, pathName, useDepartments, useRefreshDepartments, type DepartmentNode } from './departments.ts';

type Target = { mode: 'add'; parent: DepartmentRow } | { mode: 'edit'; dept: DepartmentRow };

interface DeptValues {
  name: string;
  parent_id?: number;
  head_employee_id?: number;
}

function DepartmentDialog({ target, onSaved, onClosed }: DialogProps<{ target: Target }>) {
  const edit = target.mode === 'edit' ? target.dept : null;
  const isRoot = edit?.parent_id === null;
  return (
    <FormModal<DeptValues, DepartmentRow>
      title={
        edit ? `编辑部门：${edit.name}` : `新增下级部门（${target.mode === 'add' ? target.parent.name : ''}）`
      }
      width={520}
      schema={addDepartmentBody.partial()}
      initialValues={
        edit
          ? {
              name: edit.name,
              parent_id: edit.parent_id ?? undefined,
              head_employee_id: edit.head_employee_id ?? undefined,
            }
          : { name: '' }
      }
      fields={[
        { name: 'name', label: '部门名称', required: true, maxLength: 50 },
        {
          name: 'parent_id',
          label: '上级部门',
          hidden: !edit || isRoot,
          extra: '移动部门时，其下级部门一起移动',
          render: () => <DepartmentSelect exclude={edit?.id} />,
        },
        {
          name: 'head_employee_id',
          label: '负责人',
          hidden: !edit,
          render: () => <EmployeeSelect allowClear />,
        },
      ]}
      submit={(v) =>
        edit
          ? updateDepartment({
              id: edit.id,
              name: v.name,
              parent_id: isRoot ? undefined : v.parent_id,
              head_employee_id: v.head_employee_id ?? 0,
            })
          : addDepartment({ parent_id: target.mode === 'add' ? target.parent.id : 0, name: v.name })
      }
      success={edit ? '部门已保存' : '部门已添加'}
      onSaved={onSaved}
      onClosed={onClosed}
    />
  );
}

function NodeTitle({ row, match }: { row: DepartmentRow; match: string }) {
  const hit = match && row.name.toLowerCase().includes(match.toLowerCase());
  return (
    <Flex gap={6} align="center" wrap>
      <span style={hit ? { background: '#ffe58f' } : undefined}>{row.name}</span>
      <Tag
        variant="filled"
        color="blue"
        title={`本部门 ${row.employee_count} 人，含下级 ${row.total_count} 人`}
      >
        {row.total_count} 人
      </Tag>
      {row.head_name && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          负责人：{row.head_name}
        </Typography.Text>
      )}
    </Flex>
  );
}

/**
 * /ci-organization: the department tree (loaded in one call), with 新增下级, 编辑 (rename,
 * head, move) and 删除 on the selected department; dragging a department onto another moves it.
 */
export function OrganizationTab() {
  const { data: rows = [], isLoading, error } = useDepartments();
  const refresh = useRefreshDepartments();
  const dialog = useDialog<Target>();
  const [selected, setSelected] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<React.Key[] | null>(null);

  const tree = useMemo(() => {
    type Node = NonNullable<TreeProps['treeData']>[number];
    const label = (n: DepartmentNode): Node => ({
      key: n.key,
      title: <NodeTitle row={n.row} match={search.trim()} />,
      children: n.children.map(label),
    });
    return nest(rows).map(label);
  }, [rows, search]);

  // A search opens every branch holding a match; otherwise the first two levels are open.
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    if (!q) return expanded ?? rows.filter((r) => r.path.split('/').length <= 4).map((r) => r.id);
    const keys = new Set<number>();
    for (const r of rows) {
      if (!r.name.toLowerCase().includes(q)) continue;
      for (const id of r.path.split('/').filter(Boolean)) keys.add(Number(id));
    }
    return [...keys];
  }, [rows, search, expanded]);

  const current = rows.find((r) => r.id === selected) ?? null;
  const root = rows.find((r) => r.parent_id === null) ?? null;

  const onDrop: TreeProps['onDrop'] = async (info) => {
    const dragged = Number(info.dragNode.key);
    const onto = Number(info.node.key);
    // Dropped on a node: becomes its child; between nodes: a sibling of that node.
    const parent = info.dropToGap ? rows.find((r) => r.id === onto)?.parent_id : onto;
    if (!parent || parent === rows.find((r) => r.id === dragged)?.parent_id) return;
    const outcome = await attempt(() => updateDepartment({ id: dragged, parent_id: parent }), '部门已移动');
    if (outcome.ok) refresh();
  };

  if (error) return <Alert type="error" showIcon title={errorText(error)} />;
  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap align="center">
        <Input.Search
          placeholder="搜索部门"
          aria-label="搜索部门"
          allowClear
          style={{ width: 220 }}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={!current && !root}
          onClick={() => dialog.open({ mode: 'add', parent: current ?? root! })}
        >
          新增下级部门
        </Button>
        <Button
          icon={<EditOutlined />}
          disabled={!current}
          onClick={() => current && dialog.open({ mode: 'edit', dept: current })}
        >
          编辑
        </Button>
        <DeleteButton
          type="default"
          size="middle"
          disabled={!current || current.parent_id === null}
          title="删除部门"
          description={current ? `确定删除部门「${current.name}」吗？` : ''}
          onConfirm={async () => {
            if (!current) return;
            const outcome = await attempt(() => deleteDepartment(current.id), '删除成功');
            if (outcome.ok) {
              setSelected(null);
              refresh();
            }
          }}
        />
        <Typography.Text type="secondary">
          {current ? `已选：${pathName(rows, current.id)}` : '选择一个部门后可编辑或删除；拖动部门可调整上级'}
        </Typography.Text>
      </Flex>
      {isLoading ? (
        <Spin />
      ) : rows.length === 0 ? (
        <Empty image={<ApartmentOutlined style={{ fontSize: 40 }} />} description="暂无部门" />
      ) : (
        <Tree
          aria-label="组织架构"
          treeData={tree}
          showLine
          draggable={{ icon: false, nodeDraggable: (n) => Number(n.key) !== root?.id }}
          blockNode
          expandedKeys={shown}
          onExpand={(keys) => setExpanded(keys)}
          selectedKeys={selected === null ? [] : [selected]}
          onSelect={(keys) => setSelected(keys.length ? Number(keys[0]) : null)}
          onDrop={(info) => void onDrop(info)}
          virtual
          height={600}
        />
      )}
      {dialog.target && <DepartmentDialog target={dialog.target} onSaved={refresh} onClosed={dialog.close} />}
    </Flex>
  );
}
