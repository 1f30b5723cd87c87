/**
 * The list-screen kit. A list screen is a filter list, a column list and its row actions:
 *
 *   const FILTERS: FilterFields<Search> = { keywords: text({ placeholder: '名称' }), city: select({ … }) };
 *   const COLUMNS: ListColumn<Row>[] = [{ title: '名称', dataIndex: 'name' }, { title: '地址', dataIndex: 'address', from: 'xl' }];
 *   const list = useListQuery({ key: ['toilets'], filters: FILTERS, load: (f, paging) => listToilets({ ...f, ...paging }) });
 *   <ListToolbar list={list} add={{ label: '登记厕所', onClick: () => dialog.open('new') }} actions={<Button>导出</Button>} />
 *   <ListTable list={list} columns={COLUMNS} rowKey="id" empty="暂无厕所" cardTitle={(r) => r.name}
 *     actions={(r) => <RowActions edit={() => dialog.open(r)} remove={{ title: '删除厕所', question: `确定删除 ${r.name} 吗？`,
 *       call: () => updateToilet({ id: r.id, is_delete: true }), onDeleted: list.refresh }} />} />
 *
 * A list in a drawer or tab is a `ListPanel` (title, 新增, instant filters, compact table).
 * Row buttons are `RowAction`s; a row's 删除 is a `DeleteAction` (asks, calls, says 删除成功,
 * reloads); any other button that asks first is a `ConfirmButton` (`DeleteButton` for 删除).
 *
 * Filters, page and page size live in the URL; dialogs hang off `useDialog()`.
 */
export { ConfirmButton, DeleteButton } from './ConfirmButton.tsx';
export { ListCard } from './ListCard.tsx';
export {
  NO_FILTERS,
  SERVER_TIME,
  nowUtc8,
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
export { ListPanel } from './ListPanel.tsx';
export { ListToolbar, type ListToolbarProps } from './ListToolbar.tsx';
export { ListView } from './ListView.tsx';
export { DeleteAction, RowAction, RowActions, type Deletion } from './RowActions.tsx';
export { useDialog, type Dialog } from './use-dialog.ts';
export {
  totalText,
  useListQuery,
  type ListOptions,
  type ListQuery,
  type RowsPage,
} from './use-list-query.ts';
