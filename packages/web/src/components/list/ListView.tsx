import { ListTable, type ListTableProps } from './ListTable.tsx';
import { ListToolbar, type ListToolbarProps } from './ListToolbar.tsx';
import type { RowsPage } from './use-list-query.ts';

/**
 * A list's toolbar (its filters, 查询/重置 unless `buttons={false}`, 刷新 with `refresh`, the
 * 新增 button of `add`) over its table: the page, tab or drawer body of most lists.
 */
export function ListView<Row, F, P extends RowsPage<Row>>({
  buttons,
  add,
  refresh,
  extra,
  ...table
}: ListTableProps<Row, F, P> & Omit<ListToolbarProps<F, P>, 'list' | 'actions'>) {
  return (
    <>
      <ListToolbar list={table.list} buttons={buttons} add={add} refresh={refresh} extra={extra} />
      <ListTable {...table} />
    </>
  );
}
