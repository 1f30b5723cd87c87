import type { Breakpoint } from '@se/core';
import {
  Card,
  Checkbox,
  Descriptions,
  Empty,
  Flex,
  Pagination,
  Spin,
  Table,
  Typography,
  type TableColumnType,
  type TableProps,
} from 'antd';
import { Fragment, useEffect, useRef, type Key, type MouseEvent, type ReactNode } from 'react';
import { useBreakpoint } from '../../layout/viewport.ts';
import { errorText } from '../error-text.ts';
import type { ListQuery, RowsPage } from './use-list-query.ts';

export interface ListColumn<Row> extends TableColumnType<Row> {
  title: string;
  /**
   * The narrowest SPEC §2 layout that has room for this column; narrower tables show it in
   * the row's expansion instead (phones show every column in the row's card).
   */
  from?: Exclude<Breakpoint, 'xs'>;
  /** Left out of the phone card (its value is the card's title or extra). */
  card?: false;
}

const ORDER: Breakpoint[] = ['xs', 'sm', 'md', 'lg', 'xl'];

/** A column without a width (the one that takes the rest, and wraps) counts this much. */
const FLEX_WIDTH = 200;

/**
 * The width under which the table scrolls inside itself rather than squeezing its columns;
 * above it the table fills its box and the width-less column takes the rest.
 */
const tableWidth = <Row,>(columns: TableColumnType<Row>[]): number =>
  columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : FLEX_WIDTH), 0);

const keyOf = <Row,>(c: ListColumn<Row>): string => String(c.key ?? c.dataIndex);

function cell<Row>(c: ListColumn<Row>, row: Row, index: number): ReactNode {
  const value = c.dataIndex === undefined ? undefined : (row as Record<string, unknown>)[String(c.dataIndex)];
  return (c.render ? c.render(value, row, index) : value) as ReactNode;
}

const details = <Row,>(columns: ListColumn<Row>[], row: Row, index: number) => (
  <Descriptions
    size="small"
    column={1}
    items={columns.map((c) => ({ key: keyOf(c), label: c.title, children: cell(c, row, index) }))}
  />
);

/**
 * A row on a phone: a card of its columns under `cardTitle` (and `cardExtra` in its corner),
 * or a block of the screen's own (`card`: an alarm as under the bell).
 */
type PhoneCard<Row> =
  | { cardTitle: (row: Row) => ReactNode; cardExtra?: (row: Row) => ReactNode; card?: never }
  | { card: (row: Row) => ReactNode; cardTitle?: never; cardExtra?: never };

interface ListTableBase<Row, F, P extends RowsPage<Row>> {
  list: ListQuery<F, P>;
  columns: ListColumn<Row>[];
  rowKey: keyof Row & string;
  /** The empty state's words (暂无用户, 没有符合条件的…). */
  empty: string;
  /** A row's actions: the table's last (操作) column, and the foot of its card on a phone. */
  actions?: (row: Row) => ReactNode;
  actionsWidth?: number;
  /** Defaults to the list loading (again). */
  loading?: boolean;
  /** Ticked rows; `rowClick` lets a click anywhere on a row tick it (a picking dialog). */
  selection?: { selected: Key[]; onChange: (keys: Key[]) => void; rowClick?: boolean };
  /** More about a row, shown when it is expanded (under the card's details on a phone). */
  expand?: (row: Row) => ReactNode;
  /** A sorter's change (paging goes through the list). */
  onSort?: TableProps<Row>['onChange'];
  /** A small table and pager, for a list inside a drawer, tab or dialog. */
  compact?: boolean;
  /** A fixed body height: the rows scroll under the header (a list inside a dialog). */
  height?: number;
  /**
   * A live list (rows replaced by pushes): a cell renders again only when its row object was
   * replaced or one of these values changed. They must be everything else the cells and
   * `actions` read (the clock, the layout …), or cells show what they read before.
   */
  liveRows?: readonly unknown[];
}

export type ListTableProps<Row, F, P extends RowsPage<Row>> = ListTableBase<Row, F, P> & PhoneCard<Row>;

/** True on the first render and whenever one of `deps` differs from the last committed render's. */
function useDepsChanged(deps: readonly unknown[] | undefined): boolean {
  const last = useRef<readonly unknown[] | undefined>(undefined);
  useEffect(() => {
    last.current = deps;
  });
  const prev = last.current;
  return !deps || !prev || deps.length !== prev.length || deps.some((d, i) => !Object.is(d, prev[i]));
}

/**
 * From this many rows a live list's table renders only the rows in view (antd's virtual
 * table, in a box of the window's height less the console's header, toolbar and pager).
 */
const VIRTUAL_FROM = 50;
const virtualHeight = () => Math.max(320, window.innerHeight - 300);

/** Cells of a live list render again only for a replaced row, unless everything must. */
const rowChanged = <Row,>(next: Row, prev: Row) => next !== prev;

/**
 * One page of a list: a table whose low-priority columns fold into an expandable row when the
 * layout is narrow (the table never pushes the page sideways), and one card per row on a phone.
 */
export function ListTable<Row, F, P extends RowsPage<Row>>(props: ListTableProps<Row, F, P>) {
  const { list, columns, actions, selection } = props;
  const at = ORDER.indexOf(useBreakpoint());
  const everyCell = useDepsChanged(props.liveRows);
  const loading = props.loading ?? list.query.isFetching;
  const empty = list.query.isError ? (
    <Typography.Text type="danger">
      加载失败：{errorText(list.query.error)}{' '}
      <Typography.Link onClick={() => void list.query.refetch()}>重试</Typography.Link>
    </Typography.Text>
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.empty} />
  );
  const rows = list.rows as Row[];

  if (at === 0) {
    const shown = columns.filter((c) => c.card !== false);
    const selected = new Set(selection?.selected);
    const tick = (row: Row) => {
      const key = row[props.rowKey] as Key;
      const keys = selected.has(key) ? [...selected].filter((k) => k !== key) : [...selected, key];
      selection?.onChange(keys);
    };
    return (
      <Spin spinning={loading}>
        <Flex vertical gap="small" style={{ minHeight: 120 }}>
          {rows.length === 0
            ? empty
            : rows.map((row, i) =>
                props.card ? (
                  <Fragment key={String(row[props.rowKey])}>{props.card(row)}</Fragment>
                ) : (
                  <Card
                    key={String(row[props.rowKey])}
                    size="small"
                    title={
                      <Flex gap="small" align="center">
                        {selection && (
                          <Checkbox
                            checked={selected.has(row[props.rowKey] as Key)}
                            onChange={() => tick(row)}
                            aria-label="选择"
                          />
                        )}
                        {props.cardTitle?.(row)}
                      </Flex>
                    }
                    extra={props.cardExtra?.(row)}
                    styles={{ body: { paddingBottom: actions ? 4 : undefined } }}
                  >
                    {details(shown, row, i)}
                    {props.expand?.(row)}
                    {actions?.(row)}
                  </Card>
                ),
              )}
          {list.total > 0 && (
            <Pagination {...list.pagination} size="small" showQuickJumper={false} align="end" />
          )}
        </Flex>
      </Spin>
    );
  }

  const tickOnClick = (row: Row) => ({
    // A click anywhere on the row toggles it, like its checkbox.
    onClick: (e: MouseEvent) => {
      if ((e.target as HTMLElement).closest('button, input, a')) return;
      const key = row[props.rowKey] as Key;
      const keys = selection!.selected;
      selection!.onChange(keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key]);
    },
    style: { cursor: 'pointer' },
  });
  const fits = (c: ListColumn<Row>) => !c.from || at >= ORDER.indexOf(c.from);
  const folded = columns.filter((c) => !fits(c));
  const shown: TableColumnType<Row>[] = columns.filter(fits);
  if (actions) {
    shown.push({
      title: '操作',
      key: 'actions',
      width: props.actionsWidth ?? 150,
      fixed: 'right',
      render: (_, row) => actions(row),
    });
  }
  const cells =
    props.liveRows && !everyCell ? shown.map((c) => ({ ...c, shouldCellUpdate: rowChanged<Row> })) : shown;
  // The table scrolls inside itself only when the layout is narrower than its columns' widths.
  const x = tableWidth(shown) + (folded.length ? 48 : 0) + (selection ? 32 : 0);
  const virtual = props.liveRows !== undefined && rows.length >= VIRTUAL_FROM;
  return (
    <Table<Row>
      rowKey={props.rowKey}
      size={props.compact ? 'small' : 'middle'}
      columns={cells}
      dataSource={rows}
      loading={loading}
      locale={{ emptyText: empty }}
      scroll={{ x, y: props.height ?? (virtual ? virtualHeight() : undefined) }}
      virtual={virtual}
      pagination={
        props.compact ? { ...list.pagination, showQuickJumper: false, size: 'small' } : list.pagination
      }
      expandable={
        folded.length || props.expand
          ? {
              // The column of expand buttons has a header for screen readers (a data cell
              // without one fails WCAG's table check).
              columnTitle: <span className="visually-hidden">展开详情</span>,
              expandedRowRender: (row, i) => (
                <>
                  {folded.length > 0 && details(folded, row, i)}
                  {props.expand?.(row)}
                </>
              ),
            }
          : undefined
      }
      rowSelection={
        selection && {
          selectedRowKeys: selection.selected,
          onChange: (keys) => selection.onChange(keys),
          getTitleCheckboxProps: () => ({ 'aria-label': '全选本页' }),
        }
      }
      onRow={selection?.rowClick ? (row) => tickOnClick(row) : undefined}
      onChange={props.onSort}
    />
  );
}
