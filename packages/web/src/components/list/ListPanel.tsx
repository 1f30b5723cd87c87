import { Card } from 'antd';
import { ListTable, type ListTableProps } from './ListTable.tsx';
import { AddButton, ListToolbar, type Add } from './ListToolbar.tsx';
import type { RowsPage } from './use-list-query.ts';

/**
 * A list inside a drawer or tab: a small card with its title and 新增 button, the filters
 * (each applied at once or on Enter, no 查询/重置) and a compact table.
 */
export function ListPanel<Row, F, P extends RowsPage<Row>>({
  title,
  add,
  ...table
}: ListTableProps<Row, F, P> & { title: string; add?: Add }) {
  return (
    <Card size="small" title={title} extra={add && <AddButton size="small" {...add} />}>
      <ListToolbar list={table.list} buttons={false} />
      <ListTable {...table} compact />
    </Card>
  );
}
