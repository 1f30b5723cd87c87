import type { Envelope } from '@se/core';
import type { ReactNode } from 'react';
import type { DialogProps } from './FormModal.tsx';
import {
  ListView,
  RowActions,
  useDialog,
  type ListColumn,
  type ListQuery,
  type RowsPage,
} from './list/index.ts';

/** A named row an account keeps for itself: a notify object, a template, a rule, a docking interface. */
export interface NamedRow {
  id: number;
  name: string;
}

export interface EntityListProps<Row extends NamedRow, F, P extends RowsPage<Row>> {
  list: ListQuery<F, P>;
  columns: ListColumn<Row>[];
  /** The 新增 button's label (新增模板). */
  add: string;
  /** The empty state's words. */
  empty: string;
  cardExtra?: (row: Row) => ReactNode;
  /** The add (`row` null) or edit dialog, given `onSaved`/`onClosed`. */
  dialog: (row: Row | null, props: DialogProps) => ReactNode;
  /** A row's 删除: the confirmation's title and question, and the update that soft-deletes it. */
  remove: {
    title: string;
    question: (row: Row) => string;
    update: (body: { id: number; is_delete: true }) => Promise<Envelope<unknown>>;
  };
  /** A row's own buttons, between 编辑 and 删除 (记录, 发送测试 …), and the 操作 column's width. */
  rowButtons?: (row: Row) => ReactNode;
  actionsWidth?: number;
  /** After a save or a delete; the list loads again by default. */
  onChanged?: () => void;
}

/**
 * The list of an area's own named rows: its filters, 新增, the table (the row's name as a
 * card's title on phones), 编辑 and 删除 (a soft delete through the area's update call) on
 * each row, and the add/edit dialog. A screen gives it its list query, columns and dialog.
 */
export function EntityList<Row extends NamedRow, F, P extends RowsPage<Row>>({
  list,
  columns,
  add,
  empty,
  cardExtra,
  dialog,
  remove,
  rowButtons,
  actionsWidth,
  onChanged = list.refresh,
}: EntityListProps<Row, F, P>) {
  const editing = useDialog<{ row: Row | null }>();
  return (
    <>
      <ListView
        list={list}
        buttons={false}
        add={{ label: add, onClick: () => editing.open({ row: null }) }}
        columns={columns}
        rowKey="id"
        empty={empty}
        cardTitle={(r) => r.name}
        cardExtra={cardExtra}
        actionsWidth={actionsWidth}
        actions={(r) => (
          <RowActions
            wrap={!!rowButtons}
            edit={() => editing.open({ row: r })}
            remove={{
              title: remove.title,
              question: remove.question(r),
              call: () => remove.update({ id: r.id, is_delete: true }),
              onDeleted: onChanged,
            }}
          >
            {rowButtons?.(r)}
          </RowActions>
        )}
      />
      {editing.target && dialog(editing.target.row, { onSaved: onChanged, onClosed: editing.close })}
    </>
  );
}
