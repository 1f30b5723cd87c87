import type { Envelope } from '@se/core';
import { Typography } from 'antd';
import { Fragment, type ReactNode } from 'react';
import type { DialogProps } from './FormModal.tsx';
import {
  ListPanel,
  ListView,
  RowActions,
  useDialog,
  type ListColumn,
  type ListQuery,
  type RowsPage,
} from './list/index.ts';

export interface EntityListProps<Row extends { id: number }, F, P extends RowsPage<Row>> {
  list: ListQuery<F, P>;
  columns: ListColumn<Row>[];
  /** The 新增 button's label (新增模板). */
  add: string;
  /** The empty state's words. */
  empty: string;
  /** A phone card's title (the row's name unless told) and top-right corner. */
  cardTitle?: (row: Row) => ReactNode;
  cardExtra?: (row: Row) => ReactNode;
  /** In a drawer's tab: a `ListPanel` with this title instead of the page's toolbar and table. */
  panel?: string;
  /** The add (`row` null) or edit dialog, given `onSaved`/`onClosed`. */
  dialog: (row: Row | null, props: DialogProps) => ReactNode;
  /** A row's 删除: the confirmation's title and question, and the update that soft-deletes it. */
  remove: {
    title: string;
    question: (row: Row) => string;
    update: (body: { id: number; is_delete: true }) => Promise<Envelope<unknown>>;
    /** The success toast (删除成功 unless told). */
    done?: string;
  };
  /** Why a row the caller may not change has no 编辑/删除 (仅开发者可改); undefined when it may. */
  locked?: (row: Row) => string | undefined;
  /** A row's own buttons, between 编辑 and 删除 (记录, 发送测试 …), and the 操作 column's width. */
  rowButtons?: (row: Row) => ReactNode;
  actionsWidth?: number;
  /** After a save or a delete; the list loads again by default. */
  onChanged?: () => void;
}

/**
 * The list of rows an area keeps (notify objects, templates, rules, docking interfaces,
 * parameter sets, sensors): its filters, 新增, the table, 编辑 and 删除 (a soft delete
 * through the area's update call) on each row, and the add/edit dialog. A screen gives it
 * its list query, columns and dialog.
 */
export function EntityList<Row extends { id: number }, F, P extends RowsPage<Row>>({
  list,
  columns,
  add,
  empty,
  cardTitle = (row) => (row as { name?: string }).name,
  cardExtra,
  panel,
  dialog,
  remove,
  locked,
  rowButtons,
  actionsWidth,
  onChanged = list.refresh,
}: EntityListProps<Row, F, P>) {
  const editing = useDialog<{ row: Row | null }>();
  const actions = (r: Row) => {
    const why = locked?.(r);
    if (why) return <Typography.Text type="secondary">{why}</Typography.Text>;
    return (
      <RowActions
        wrap={rowButtons ? true : undefined}
        edit={() => editing.open({ row: r })}
        remove={{
          title: remove.title,
          question: remove.question(r),
          call: () => remove.update({ id: r.id, is_delete: true }),
          done: remove.done,
          onDeleted: onChanged,
        }}
      >
        {rowButtons?.(r)}
      </RowActions>
    );
  };
  const table = { list, columns, rowKey: 'id' as const, empty, cardTitle, cardExtra, actions, actionsWidth };
  const addButton = { label: add, onClick: () => editing.open({ row: null }) };
  const row = editing.target?.row;
  return (
    <>
      {panel ? (
        <ListPanel {...table} title={panel} add={addButton} />
      ) : (
        <ListView {...table} buttons={false} add={addButton} />
      )}
      {editing.target && (
        // A new dialog for another row: it starts from that row's values.
        <Fragment key={row?.id ?? 'new'}>
          {dialog(row ?? null, { onSaved: onChanged, onClosed: editing.close })}
        </Fragment>
      )}
    </>
  );
}
