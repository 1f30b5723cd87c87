import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';
import { ListTable, type ListTableProps } from './ListTable.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import type { RowsPage } from './use-list-query.ts';

/** A row action: a small link button (编辑, 详情 …). */
export function LinkButton(props: Omit<ButtonProps, 'size' | 'type'> & { children: ReactNode }) {
  return <Button size="small" type="link" {...props} />;
}

/** The primary 新增 button of a list (新增用户, 登记设备 …). */
export function AddButton({ label, onClick, size }: { label: string; onClick: () => void; size?: 'small' }) {
  return (
    <Button type="primary" size={size} icon={<PlusOutlined />} onClick={onClick}>
      {label}
    </Button>
  );
}

/**
 * A list inside a drawer or tab: a small card with its title and 新增 button, the filters
 * (each applied at once or on Enter, no 查询/重置) and a compact table.
 */
export function ListPanel<Row, F, P extends RowsPage<Row>>({
  title,
  add,
  ...table
}: ListTableProps<Row, F, P> & { title: string; add?: { label: string; onClick: () => void } }) {
  return (
    <Card size="small" title={title} extra={add && <AddButton size="small" {...add} />}>
      <ListToolbar list={table.list} buttons={false} />
      <ListTable {...table} compact />
    </Card>
  );
}
