import { ListTable, ListToolbar, type ListTableProps, type RowsPage } from '../../components/list/index.ts';
import { isPicked, pickPage, type Picks } from './binding-diff.ts';

/** Omit over each member of a union (ListTableProps is one: a phone card of columns, or its own). */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A list to tick rows in (devices to bind to a user, devices to place in a toilet): its
 * search over a compact table whose ticks are the row's `bound` state changed by `picks`.
 */
export function PickList<Row extends { id: number }, F, P extends RowsPage<Row>>({
  list,
  bound,
  picks,
  onPicks,
  rowClick,
  ...table
}: OmitEach<ListTableProps<Row, F, P>, 'rowKey' | 'compact' | 'selection'> & {
  bound: (row: Row) => boolean;
  picks: Picks;
  onPicks: (picks: Picks) => void;
  /** A click anywhere on a row ticks it. */
  rowClick?: boolean;
}) {
  const rows = (list.rows as Row[]).map((r) => ({ id: r.id, is_bind: bound(r) }));
  return (
    <>
      <ListToolbar list={list} buttons={false} />
      <ListTable
        {...table}
        list={list}
        rowKey="id"
        compact
        selection={{
          selected: rows.filter((r) => isPicked(picks, r)).map((r) => r.id),
          onChange: (keys) => onPicks(pickPage(picks, rows, keys)),
          rowClick,
        }}
      />
    </>
  );
}
