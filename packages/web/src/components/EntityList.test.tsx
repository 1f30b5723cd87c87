import type { Envelope } from '@se/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test-render.tsx';
import { EntityList, type EntityListProps } from './EntityList.tsx';
import {
  NO_FILTERS,
  select,
  text,
  useListQuery,
  type FilterFields,
  type ListColumn,
  type RowsPage,
} from './list/index.ts';

interface Row {
  id: number;
  name: string;
  content: string;
}
const row: Row = { id: 7, name: '超标', content: '{desc}超标' };
const load = vi.fn<() => Promise<Envelope<RowsPage<Row>>>>();
const update = vi.fn<(b: { id: number; is_delete: true }) => Promise<Envelope<null>>>();

const COLUMNS: ListColumn<Row>[] = [
  { title: '名称', dataIndex: 'name' },
  { title: '内容', dataIndex: 'content' },
];

const dialog: EntityListProps<Row, unknown, RowsPage<Row>>['dialog'] = (t, { onClosed }) => (
  <div role="dialog">
    {t ? `编辑 ${t.name}` : '新增'}
    <button onClick={onClosed}>关闭</button>
  </div>
);

/** A list of templates; `more` sets what the case is about (a panel, locked rows). */
function Screen(more: Partial<EntityListProps<Row, unknown, RowsPage<Row>>>) {
  const list = useListQuery({ key: ['entity-test'], filters: NO_FILTERS, local: true, load });
  const remove = { title: '删除模板', question: (t: Row) => `确定删除模板「${t.name}」吗？`, update };
  return (
    <EntityList
      list={list}
      columns={COLUMNS}
      add="新增模板"
      empty="暂无模板"
      remove={remove}
      dialog={dialog}
      {...more}
    />
  );
}

type Filters = { kind: number | undefined; keywords: string };
/** A picked kind waits for no 查询 (there is none); typed words wait for Enter. */
const FILTERS: FilterFields<Filters> = {
  kind: select({ placeholder: '类型', options: [{ value: 3, label: '风机' }] }),
  keywords: text({ placeholder: '名称', label: '关键字' }),
};
const filtered = vi.fn<(f: Filters) => Promise<Envelope<RowsPage<Row>>>>();

function FilteredScreen() {
  const list = useListQuery({ key: ['entity-filtered'], filters: FILTERS, local: true, load: filtered });
  const remove = { title: '删除模板', question: (t: Row) => t.name, update };
  return <EntityList list={list} columns={COLUMNS} add="新增" empty="暂无" remove={remove} dialog={dialog} />;
}

describe('EntityList', () => {
  // Each test counts its own calls, whatever ran before it.
  beforeEach(() => {
    for (const f of [load, update, filtered]) f.mockReset();
  });

  it('applies a picked filter at once and typed words on Enter, keeping the other', async () => {
    filtered.mockResolvedValue({ code: 200, message: '', data: { list: [row], total: 1 } });
    renderWithProviders(<FilteredScreen />);
    expect(await screen.findByText('{desc}超标')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: '东门' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '类型' }));
    fireEvent.click(await screen.findByTitle('风机'));
    await waitFor(() =>
      expect(filtered).toHaveBeenLastCalledWith({ kind: 3, keywords: '东门' }, expect.anything()),
    );
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: '西门' } });
    expect(filtered).toHaveBeenCalledTimes(2);
    fireEvent.keyDown(screen.getByLabelText('关键字'), { key: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(filtered).toHaveBeenLastCalledWith({ kind: 3, keywords: '西门' }, expect.anything()),
    );
  }, 20_000);

  it('opens the dialog for a new row and a row, and deletes a row only once confirmed', async () => {
    load.mockResolvedValue({ code: 200, message: '', data: { list: [row], total: 1 } });
    update.mockResolvedValue({ code: 200, message: '', data: null });
    renderWithProviders(<Screen />);
    expect(await screen.findByText('{desc}超标')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /新增模板/ }));
    expect(await screen.findByText('新增')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '关闭' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /编\s*辑/ }));
    expect(await screen.findByText('编辑 超标')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '关闭' }));

    fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText('确定删除模板「超标」吗？')).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
    fireEvent.click(screen.getAllByRole('button', { name: /删\s*除/ }).at(-1)!);
    await waitFor(() => expect(update).toHaveBeenCalledWith({ id: 7, is_delete: true }), { timeout: 5000 });
    // The list loads again after the delete.
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2), { timeout: 5000 });
  }, 20_000);

  it('in a panel, shows why a row the caller may not change has no 编辑 or 删除', async () => {
    load.mockResolvedValue({
      code: 200,
      message: '',
      data: { list: [row, { ...row, id: 8, name: '公共' }], total: 2 },
    });
    renderWithProviders(
      <Screen panel="消息模板" locked={(t) => (t.id === 8 ? '仅开发者可改' : undefined)} />,
    );
    expect(await screen.findByText('消息模板')).toBeTruthy();
    expect(await screen.findByText('仅开发者可改')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /编\s*辑/ })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: /删\s*除/ })).toHaveLength(1);
  }, 20_000);
});
