/**
 * The list-screen kit. A list screen is a filter list, a column list and its row actions:
 *
 *   const FILTERS: FilterFields<Search> = { keywords: text({ placeholder: '名称' }), city: select({ … }) };
 *   const COLUMNS: ListColumn<Row>[] = [{ title: '名称', dataIndex: 'name' }, { title: '地址', dataIndex: 'address', from: 'xl' }];
 *   const list = useListQuery({ key: ['toilets'], filters: FILTERS, load: (f, paging) => listToilets({ ...f, ...paging }) });
 *   <ListToolbar list={list} actions={<Button>新增</Button>} />
 *   <ListTable list={list} columns={COLUMNS} rowKey="id" empty="暂无厕所" actions={…} cardTitle={(r) => r.name} />
 *
 * Filters, page and page size live in the URL; dialogs hang off `useDialog()`.
 */
export { ConfirmButton, DeleteButton } from './ConfirmButton.tsx';
export { ListCard } from './ListCard.tsx';
export {
  SERVER_TIME,
  blankFilters,
  check,
  choice,
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
export { AddButton, LinkButton, ListPanel, RowActions } from './ListPanel.tsx';
export { ListToolbar } from './ListToolbar.tsx';
export { DeleteAction, RowAction } from './RowActions.tsx';
export { useDialog, type Dialog } from './use-dialog.ts';
export { useListQuery, type ListOptions, type ListQuery, type RowsPage } from './use-list-query.ts';
