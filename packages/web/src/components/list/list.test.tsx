import type { Envelope } from '@se/core';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { PaginationProps } from 'antd';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../../App.tsx';
import type { AppRoute } from '../../navigation/names.ts';
import { PageRouteContext } from '../../navigation/page-route.ts';
import { ListTable, type ListColumn } from './ListTable.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import { DeleteAction } from './RowActions.tsx';
import { select, text, type FilterFields } from './filters.tsx';
import { useListQuery, type RowsPage } from './use-list-query.ts';
import { renderWithProviders, withProviders } from '../../test-render.tsx';

interface Row {
  id: number;
  name: string;
  city: string;
}
interface Filters {
  keywords: string;
  city: string | undefined;
}

const FILTERS: FilterFields<Filters> = {
  keywords: text({ placeholder: '名称', label: '关键字' }),
  city: select<string>({ placeholder: '城市', options: [{ value: 'hz', label: '杭州' }] }),
};
const COLUMNS: ListColumn<Row>[] = [
  { title: '名称', dataIndex: 'name', card: false },
  { title: '城市', dataIndex: 'city', from: 'xl' },
];

const load = vi.fn<(f: Filters, paging: unknown) => Promise<Envelope<RowsPage<Row>>>>();
const rows = (n: number, total = n, estimated?: boolean) => ({
  code: 200 as const,
  message: '',
  data: {
    list: Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `厕所${i + 1}`, city: '杭州' })),
    total,
    estimated,
  },
});

let current: { pagination: PaginationProps };

/** The test list's table props but its `list`. */
const TABLE = { columns: COLUMNS, rowKey: 'id', empty: '没有厕所' } as const;
const cardTitle = (r: Row) => r.name;

function Screen({ local }: { local?: boolean }) {
  const list = useListQuery({ key: ['test'], filters: FILTERS, load, local });
  current = list;
  return (
    <>
      <ListToolbar list={list} />
      <ListTable list={list} {...TABLE} cardTitle={cardTitle} />
    </>
  );
}

function renderAt(url: string, local?: boolean) {
  const router = createMemoryRouter([{ path: '/list', element: withProviders(<Screen local={local} />) }], {
    initialEntries: [url],
  });
  render(<RouterProvider router={router} />);
  return router;
}

const search = (router: ReturnType<typeof renderAt>) => router.state.location.search;

beforeEach(() => {
  load.mockReset();
  load.mockResolvedValue(rows(3, 45));
});
afterEach(() => {
  Object.defineProperty(window, 'innerWidth', { value: 1024, configurable: true });
});

describe('useListQuery', { timeout: 20_000 }, () => {
  it('reads a linked search and page from the URL and fills the inputs', async () => {
    renderAt('/list?keywords=东门&city=hz&page=3&size=20');
    await waitFor(() =>
      expect(load).toHaveBeenCalledWith({ keywords: '东门', city: 'hz' }, { page: 3, page_size: 20 }),
    );
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('东门');
  });

  it('keeps a typed search out of the list until 查询, which starts at page 1 in the URL', async () => {
    const router = renderAt('/list?page=2');
    await screen.findByText('厕所1');
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: ' 西湖 ' } });
    expect(search(router)).toBe('?page=2');
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(search(router)).toBe('?keywords=%E8%A5%BF%E6%B9%96'));
    await waitFor(() =>
      expect(load).toHaveBeenLastCalledWith(
        { keywords: '西湖', city: undefined },
        { page: 1, page_size: 10 },
      ),
    );
  });

  it('pages in the URL; a new page size goes back to page 1, and 重置 clears the search', async () => {
    const router = renderAt('/list?keywords=a');
    await screen.findByText('厕所1');
    act(() => current.pagination.onChange!(4, 10));
    expect(search(router)).toBe('?keywords=a&page=4');
    await waitFor(() => expect(load).toHaveBeenLastCalledWith(expect.anything(), { page: 4, page_size: 10 }));
    act(() => current.pagination.onChange!(4, 20));
    expect(search(router)).toBe('?keywords=a&size=20');
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(search(router)).toBe('?size=20'));
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('');
  });

  it('restores the previous search and its inputs on the back button', async () => {
    const router = renderAt('/list');
    await screen.findByText('厕所1');
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: '东门' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(search(router)).toContain('keywords='));
    await act(() => router.navigate(-1));
    expect(search(router)).toBe('');
    await waitFor(() => expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe(''));
    await waitFor(() =>
      expect(load).toHaveBeenLastCalledWith({ keywords: '', city: undefined }, { page: 1, page_size: 10 }),
    );
  });

  it('asks again on 查询 with an unchanged search', async () => {
    renderAt('/list');
    await screen.findByText('厕所1');
    expect(load).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
  });

  it('keeps a drawer list (local state) out of the URL', async () => {
    const router = renderAt('/list?keywords=a', true);
    await screen.findByText('厕所1');
    expect(load).toHaveBeenLastCalledWith({ keywords: '', city: undefined }, { page: 1, page_size: 10 });
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: '西湖' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(load).toHaveBeenLastCalledWith(
        { keywords: '西湖', city: undefined },
        { page: 1, page_size: 10 },
      ),
    );
    act(() => current.pagination.onChange!(2, 10));
    await waitFor(() => expect(load).toHaveBeenLastCalledWith(expect.anything(), { page: 2, page_size: 10 }));
    expect(search(router)).toBe('?keywords=a');
  });

  it('offers the SPEC §9 page sizes with 10 as default and a size changer', async () => {
    renderAt('/list');
    await screen.findByText('厕所1');
    expect(current.pagination).toMatchObject({
      pageSizeOptions: ['10', '20', '30', '40', '50', '100'],
      showSizeChanger: true,
      pageSize: 10,
      current: 1,
    });
  });

  it('says 共 N 条 of an exact total and 约 N 条 of an estimated one', async () => {
    renderAt('/list');
    expect(await screen.findByText('共 45 条')).toBeTruthy();
    cleanup();
    load.mockResolvedValue(rows(3, 120000, true));
    renderAt('/list');
    expect(await screen.findByText('约 120000 条')).toBeTruthy();
    expect(screen.queryByText('共 120000 条')).toBeNull();
  });

  it('steps back to the last page with rows when the page it shows has emptied', async () => {
    load.mockResolvedValue(rows(0, 25));
    const router = renderAt('/list?page=5');
    await waitFor(() => expect(search(router)).toBe('?page=3'));
    await waitFor(() => expect(load).toHaveBeenLastCalledWith(expect.anything(), { page: 3, page_size: 10 }));
  });
});

/** A kept-alive page on /list, mounted beside whatever route is shown (as the shell does). */
function renderKept() {
  const route = { path: '/list', name: 'List' } as AppRoute;
  const shell = withProviders(
    <>
      <PageRouteContext value={route}>
        <Screen />
      </PageRouteContext>
      <Outlet />
    </>,
  );
  const router = createMemoryRouter([{ element: shell, children: [{ path: '/list' }, { path: '/other' }] }], {
    initialEntries: ['/list'],
  });
  render(<RouterProvider router={router} />);
  return router;
}

describe('useListQuery on a kept-alive page', { timeout: 20_000 }, () => {
  it('keeps its search while another route is shown, and gets it back through a plain link', async () => {
    const router = renderKept();
    await screen.findByText('厕所1');
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: '东门' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(search(router)).toBe('?keywords=%E4%B8%9C%E9%97%A8'));
    await act(() => router.navigate('/other?keywords=x&page=2'));
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('东门');
    expect(load).not.toHaveBeenCalledWith({ keywords: 'x', city: undefined }, expect.anything());
    const before = load.mock.calls.length;
    // The menu links to /list without a query.
    await act(() => router.navigate('/list'));
    await waitFor(() => expect(search(router)).toBe('?keywords=%E4%B8%9C%E9%97%A8'));
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('东门');
    expect(load.mock.calls.slice(before).map(([f]) => f.keywords)).not.toContain('');
    // 重置 there is meant: the blank search stays.
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(search(router)).toBe(''));
    await waitFor(() =>
      expect(load).toHaveBeenLastCalledWith({ keywords: '', city: undefined }, { page: 1, page_size: 10 }),
    );
  });
});

describe('ListTable', { timeout: 20_000 }, () => {
  it('folds a column that needs a wider layout into the row expansion', async () => {
    renderAt('/list');
    await screen.findByText('厕所1');
    expect(screen.queryByRole('columnheader', { name: '城市' })).toBeNull();
    expect(screen.queryByText('杭州')).toBeNull();
  });

  it('shows one card per row on a phone, with every column and the pager', async () => {
    Object.defineProperty(window, 'innerWidth', { value: 375, configurable: true });
    renderAt('/list');
    const title = await screen.findByText('厕所2');
    expect(document.querySelector('.ant-table')).toBeNull();
    const card = title.closest('.ant-card') as HTMLElement;
    expect(within(card).getByText('城市')).toBeTruthy();
    expect(within(card).getByText('杭州')).toBeTruthy();
    expect(within(card).queryByText('名称')).toBeNull();
    expect(screen.getByText('共 45 条')).toBeTruthy();
  });

  it("shows a screen's own block per row on a phone, and an estimated total there too", async () => {
    Object.defineProperty(window, 'innerWidth', { value: 375, configurable: true });
    load.mockResolvedValue(rows(2, 5000, true));
    function Blocks() {
      const list = useListQuery({ key: ['blocks'], filters: FILTERS, load, local: true });
      return <ListTable list={list} {...TABLE} card={(r) => <p data-testid="block">{r.name}</p>} />;
    }
    renderWithProviders(<Blocks />);
    await waitFor(() =>
      expect(screen.getAllByTestId('block').map((b) => b.textContent)).toEqual(['厕所1', '厕所2']),
    );
    expect(document.querySelector('.ant-card')).toBeNull();
    expect(screen.getByText('约 5000 条')).toBeTruthy();
  });

  it('ticks a row clicked anywhere when asked to, and 全选本页 ticks the whole page', async () => {
    const picked = vi.fn<(keys: unknown[]) => void>();
    function Picker() {
      const list = useListQuery({ key: ['pick'], filters: FILTERS, load, local: true });
      const selection = { selected: [2], onChange: picked, rowClick: true };
      return <ListTable list={list} {...TABLE} cardTitle={cardTitle} selection={selection} />;
    }
    renderWithProviders(<Picker />);
    fireEvent.click(await screen.findByText('厕所1'));
    expect(picked).toHaveBeenLastCalledWith([2, 1]);
    fireEvent.click(screen.getByText('厕所2'));
    expect(picked).toHaveBeenLastCalledWith([]);
    fireEvent.click(screen.getByRole('checkbox', { name: '全选本页' }));
    expect(picked).toHaveBeenLastCalledWith([2, 1, 3]);
  });

  it('says so when there are no rows', async () => {
    load.mockResolvedValue(rows(0, 0));
    renderAt('/list');
    expect(await screen.findByText('没有厕所')).toBeTruthy();
  });

  it('renders again only the row a push replaced, and every row when what the cells read changes', async () => {
    const rendered: string[] = [];
    function Live({ unit }: { unit: string }) {
      const list = useListQuery({ key: ['live'], filters: FILTERS, load, local: true });
      const columns: ListColumn<Row>[] = [
        {
          title: '名称',
          dataIndex: 'name',
          render: (name: string) => {
            rendered.push(name);
            return `${name}${unit}`;
          },
        },
      ];
      return <ListTable list={list} {...TABLE} columns={columns} cardTitle={cardTitle} liveRows={[unit]} />;
    }
    const view = renderWithProviders(<Live unit="号" />);
    await screen.findByText('厕所3号');
    rendered.length = 0;

    // A push replaces row 2 in the cached page; the other rows keep their objects.
    act(() =>
      view.client.setQueriesData<RowsPage<Row>>({ queryKey: ['live'] }, (page) => ({
        ...page!,
        list: page!.list.map((r) => (r.id === 2 ? { ...r, name: '西湖' } : r)),
      })),
    );
    await screen.findByText('西湖号');
    expect(new Set(rendered)).toEqual(new Set(['西湖']));

    view.rerender(withProviders(<Live unit="座" />, view.client));
    await screen.findByText('厕所1座');
    expect(screen.getByText('西湖座')).toBeTruthy();
    expect(screen.getByText('厕所3座')).toBeTruthy();
  });
});

describe('DeleteAction', { timeout: 20_000 }, () => {
  it('asks, deletes, says 删除成功 and reloads the list', async () => {
    const call = vi.fn().mockResolvedValue({ code: 200, message: '', data: null });
    const deleted = vi.fn();
    render(
      <UiProvider>
        <DeleteAction title="删除厕所" question="确定删除「东门」吗？" call={call} onDeleted={deleted} />
      </UiProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText('确定删除「东门」吗？')).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
    const ok = screen.getAllByRole('button', { name: /删\s*除/ }).at(-1)!;
    fireEvent.click(ok);
    await waitFor(() => expect(deleted).toHaveBeenCalled(), { timeout: 5000 });
    expect(call).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('删除成功', {}, { timeout: 5000 })).toBeTruthy();
  });
});
