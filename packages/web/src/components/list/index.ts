export { ConfirmButton } from './ConfirmButton.tsx';
export {
  SERVER_TIME,
  blankFilters,
  check,
  choice,
  dateRange,
  multiSelect,
  segmented,
  select,
  text,
  type FieldProps,
  type FilterField,
  type FilterFields,
  type Range,
} from './filters.tsx';
export { ListTable, type ListColumn, type ListTableProps } from './ListTable.tsx';
export { AddButton, LinkButton, ListPanel, RowActions } from './ListPanel.tsx';
export { ListToolbar } from './ListToolbar.tsx';
export { useDialog, type Dialog } from './use-dialog.ts';
export { useListQuery, type ListOptions, type ListQuery, type RowsPage } from './use-list-query.ts';
