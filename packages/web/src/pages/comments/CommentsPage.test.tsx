import type { CommentRow } from '@se/core';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { commentStats, listComments, setCommentHidden } from '../../api/comments.ts';
import { startExport } from '../../api/downloads.ts';
import { listToilets } from '../../api/toilets.ts';
import { commentQuery, NO_FILTERS } from './comment-filter.ts';
import CommentsPage from './CommentsPage.tsx';
import { fakeBrowserSockets } from '../../test-live.ts';
import { withProviders } from '../../test-render.tsx';

vi.mock(import('../../api/comments.ts'), async (original) => ({
  ...(await original()),
  listComments: vi.fn(),
  commentStats: vi.fn(),
  setCommentHidden: vi.fn(),
}));
vi.mock(import('../../api/downloads.ts'), async (original) => ({
  ...(await original()),
  startExport: vi.fn(),
}));
vi.mock(import('../../api/toilets.ts'), async (original) => ({
  ...(await original()),
  listToilets: vi.fn(),
}));

const sockets = fakeBrowserSockets();

const comment = (id: number, over: Partial<CommentRow> = {}): CommentRow => ({
  id,
  is_delete: false,
  content: `评价${id}`,
  star_level: 2,
  sex: 0,
  badattitude: false,
  inefficiency: false,
  poorsanitary: false,
  smelly: true,
  equipment_id: null,
  equipment_ser_num: '',
  toilet_id: 7,
  toilet_name: '西湖公厕',
  source: 'qr',
  created_at: '2026-11-20 08:00:00',
  ...over,
});

const page = (list: CommentRow[]) => ({
  code: 200,
  message: '',
  data: { list, total: list.length, page: 1, page_size: 10 },
});

beforeEach(() => {
  vi.mocked(listComments).mockReset();
  vi.mocked(commentStats).mockReset();
  vi.mocked(setCommentHidden).mockReset();
  vi.mocked(startExport).mockReset();
  vi.mocked(listToilets).mockReset();
  vi.mocked(listComments).mockResolvedValue(
    page([
      comment(1),
      comment(2, {
        source: 'terminal',
        equipment_id: 9,
        equipment_ser_num: 'EVL-9',
        star_level: 5,
        smelly: false,
        content: '',
      }),
    ]),
  );
  vi.mocked(commentStats).mockResolvedValue({
    code: 200,
    message: '',
    data: {
      count: 2,
      average: 3.5,
      stars: [0, 1, 0, 0, 1],
      flags: { badattitude: 0, inefficiency: 0, poorsanitary: 0, smelly: 1 },
    },
  });
  vi.mocked(listToilets).mockResolvedValue({
    code: 200,
    message: '',
    data: { list: [], total: 0, page: 1, page_size: 20 },
  });
});

function renderPage() {
  const router = createMemoryRouter(
    [
      {
        path: '/comment',
        element: withProviders(<CommentsPage />),
      },
      { path: '/download', element: <p>download centre</p> },
    ],
    { initialEntries: ['/comment'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

// antd's table, pickers and popovers take seconds to mount in jsdom on a busy machine.
describe('/comment', { timeout: 20_000 }, () => {
  it('shows each review with its stars, level word, ticks and source', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByText('评价1')).toBeTruthy());
    const first = within(rowOf('评价1'));
    expect(first.getByText('差')).toBeTruthy();
    expect(first.getByText('有异味')).toBeTruthy();
    expect(first.getByText('扫码')).toBeTruthy();
    const second = within(rowOf('评价器 EVL-9'));
    expect(second.getByText('优')).toBeTruthy();
    expect(second.getByText('（无文字）')).toBeTruthy();
    const stats = screen.getByLabelText('评价统计');
    expect(stats.textContent).toContain('共 2 条');
    expect(stats.textContent).toContain('平均 3.5 星');
    expect(listComments).toHaveBeenCalledWith({ page: 1, page_size: 10 });
  });

  it('hides a review only after confirmation', async () => {
    vi.mocked(setCommentHidden).mockResolvedValue({
      code: 200,
      message: '',
      data: comment(1, { is_delete: true }),
    });
    renderPage();
    await waitFor(() => expect(screen.getByText('评价1')).toBeTruthy());
    fireEvent.click(within(rowOf('评价1')).getByRole('button', { name: /隐藏/ }));
    expect(setCommentHidden).not.toHaveBeenCalled();
    const confirm = await screen.findByText('隐藏后该评价不再显示，也不计入评分，可随时恢复。确定隐藏吗？');
    const box = confirm.closest('.ant-popover')!;
    fireEvent.click(within(box as HTMLElement).getByRole('button', { name: '隐藏' }));
    await waitFor(() => expect(setCommentHidden).toHaveBeenCalledWith(1, true));
    await waitFor(() => expect(listComments).toHaveBeenCalledTimes(2));
  });

  it('offers 恢复 for a hidden review', async () => {
    vi.mocked(listComments).mockResolvedValue(page([comment(3, { is_delete: true })]));
    renderPage();
    await waitFor(() => expect(screen.getByText('评价3')).toBeTruthy());
    const row = within(rowOf('评价3'));
    expect(row.getByText('已隐藏')).toBeTruthy();
    expect(row.getByRole('button', { name: /恢复/ })).toBeTruthy();
  });

  it('exports the applied filter to the download centre', async () => {
    vi.mocked(startExport).mockResolvedValue({ code: 200, message: '', data: { id: 5 } });
    renderPage();
    await waitFor(() => expect(screen.getByText('评价1')).toBeTruthy());
    fireEvent.click(screen.getByRole('checkbox', { name: '显示已隐藏' }));
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: ' 脏 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(listComments).toHaveBeenLastCalledWith({
        keywords: '脏',
        show_hidden: true,
        page: 1,
        page_size: 10,
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() =>
      expect(startExport).toHaveBeenCalledWith('comments', { keywords: '脏', show_hidden: true }),
    );
  });

  it('announces new reviews pushed over /ws and refreshes on request', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByText('评价1')).toBeTruthy());
    const ws = sockets.current();
    await sockets.connect();
    expect(ws.last('subscribe').data).toEqual({ channel: 'comments' });
    ws.reply(ws.last('subscribe'));
    await act(async () => {});
    act(() => ws.push('comments', undefined, [{ id: 10, toilet_id: 7, equipment_id: null }]));
    expect(await screen.findByText('有 1 条新评价')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '刷新查看' }));
    await waitFor(() => expect(screen.queryByText('有 1 条新评价')).toBeNull());
    await waitFor(() => expect(listComments).toHaveBeenCalledTimes(2));
  });
});

describe('commentQuery', () => {
  it('leaves blanks out and sends the rest as the server reads them', () => {
    expect(commentQuery(NO_FILTERS)).toEqual({
      toilet_id: undefined,
      star_levels: undefined,
      flags: undefined,
      source: undefined,
      start: undefined,
      end: undefined,
      keywords: undefined,
      show_hidden: undefined,
      sort: undefined,
    });
    const q = commentQuery(
      {
        toilet: { id: 7, name: '西湖公厕' },
        stars: [5, 1],
        flags: ['smelly', 'badattitude'],
        source: 'qr',
        range: [dayjs('2026-11-01 00:00:00'), dayjs('2026-11-30 23:59:59')],
        keywords: '  味道 ',
        showHidden: true,
      },
      'star_desc',
    );
    expect(q).toEqual({
      toilet_id: 7,
      star_levels: [1, 5],
      flags: ['badattitude', 'smelly'],
      source: 'qr',
      start: '2026-11-01 00:00:00',
      end: '2026-11-30 23:59:59',
      keywords: '味道',
      show_hidden: true,
      sort: 'star_desc',
    });
  });
});
