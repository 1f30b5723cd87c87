import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { nest, subtreeIds, useDepartments, type DepartmentNode } from './departments.ts';

/**
 * A department picked from the organisation's tree, searchable by name. `exclude` greys out
 * a department and its subtree (where a department may not move to).
 */
export function DepartmentSelect({
  value,
  onChange,
  exclude,
  placeholder = '选择部门',
  allowClear,
  style,
  id,
}: {
  value?: number;
  onChange?: (v: number | undefined) => void;
  exclude?: number;
  placeholder?: string;
  allowClear?: boolean;
  style?: React.CSSProperties;
  id?: string;
}) {
  const { data: rows = [], isLoading } = useDepartments();
  const tree = useMemo(() => {
    const off = exclude === undefined ? new Set<number>() : subtreeIds(rows, exclude);
    const mark = (n: DepartmentNode): DepartmentNode & { disabled: boolean } => ({
      ...n,
      disabled: off.has(n.key),
      children: n.children.map(mark),
    });
    return nest(rows).map(mark);
  }, [rows, exclude]);
  return (
    <TreeSelect
      id={id}
      value={value}
      onChange={(v) => onChange?.(v ?? undefined)}
      treeData={tree}
      loading={isLoading}
      placeholder={placeholder}
      aria-label={placeholder}
      allowClear={allowClear}
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      style={style}
      popupMatchSelectWidth={false}
    />
  );
}
