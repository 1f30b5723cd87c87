export { ConfirmButton } from './ConfirmButton.tsx';
export {
  SERVER_TIME,
  blankFilters,
  check,
  dateRange,
  multiSelect,
  rangeQuery,
  segmented,
  select,
  text,
  type FieldProps,
  type FilterField,
  type FilterFields,
  type Range,
} from './filters.tsx';
export { ListTable, type ListColumn, type ListTableProps } from './ListTable.tsx';
export { ListToolbar } from './ListToolbar.tsx';
export { DeleteAction, RowAction } from './RowActions.tsx';
export { useDialog, type Dialog } from './use-dialog.ts';
export { useListQuery, type ListOptions, type ListQuery, type RowsPage } from './use-list-query.ts';
