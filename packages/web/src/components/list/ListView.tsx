import type { ReactNode } from 'react';
import { ListTable, type ListTableProps } from './ListTable.tsx';
import { ListToolbar, type ListToolbarProps } from './ListToolbar.tsx';
import type { RowsPage } from './use-list-query.ts';

/**
 * A list's toolbar (its filters, 查询/重置 unless `buttons={false}`, 刷新 with `refresh`, the
 * 新增 button of `add`, then `listActions`: the buttons that act on the whole list or its
 * ticked rows, 导入/导出/批量…) over its table: the page, tab or drawer body of most lists.
 * (`actions` is the table's: a row's buttons.)
 */
export function ListView<Row, F, P extends RowsPage<Row>>({
  buttons,
  add,
  refresh,
  extra,
  listActions,
  ...table
}: ListTableProps<Row, F, P> &
  Omit<ListToolbarProps<F, P>, 'list' | 'actions'> & { listActions?: ReactNode }) {
  return (
    <>
      <ListToolbar
        list={table.list}
        buttons={buttons}
        add={add}
        refresh={refresh}
        extra={extra}
        actions={listActions}
      />
      <ListTable {...table} />
    </>
  );
}
