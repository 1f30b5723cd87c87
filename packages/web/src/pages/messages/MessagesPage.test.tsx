import type { MessageRow } from '@se/core';
import type { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listMessages, markRead, readAll, removeMessages, UNREAD_KEY } from '../../api/messages.ts';
import { FakeSocket } from '../../live/fake-socket.ts';
import { closeLiveSocket } from '../../live/socket.ts';
import { useSession } from '../../session/store.ts';
import MessagesPage from './MessagesPage.tsx';
import { renderWithProviders } from '../../test-render.tsx';

const { withStubs } = await vi.hoisted(() => import('../../test-mock.ts'));
vi.mock(import('../../api/messages.ts'), (original) =>
  withStubs(original, ['listMessages', 'markRead', 'readAll', 'removeMessages', 'getUnread']),
);

const msg = (id: number, read: boolean, over: Partial<MessageRow> = {}): MessageRow => ({
  id,
  kind: 'alarm',
  title: `空气质量告警：东门公厕${id}`,
  content: `设备 GW${id}，氨气 2.1 超过 1.5`,
  device_id: 3,
  alarm_id: id,
  read,
  read_at: read ? '2026-03-02 09:00:00' : null,
  created_at: '2026-03-02 08:00:00',
  ...over,
});

const page = (list: MessageRow[], total = list.length) => ({
  code: 200,
  message: '成功',
  data: { list, total, page: 1, page_size: 10 },
});

let client: QueryClient;
function renderPage() {
  const result = renderWithProviders(<MessagesPage />, { router: true });
  client = result.client;
  return result;
}

beforeEach(() => {
  vi.stubGlobal('WebSocket', FakeSocket);
  localStorage.setItem('token', 'tok');
  useSession.getState().signIn({ userName: 'zhang', permission: 2, userID: 4 });
  vi.mocked(listMessages).mockReset();
  vi.mocked(markRead).mockReset();
});
afterEach(() => closeLiveSocket());

describe('inbox', () => {
  it('says so when there is nothing, and when a filter finds nothing', async () => {
    vi.mocked(listMessages).mockResolvedValue(page([]));
    renderPage();
    expect(await screen.findByText('暂无消息')).toBeTruthy();
    fireEvent.click(screen.getByText('未读'));
    expect(await screen.findByText('没有符合条件的消息')).toBeTruthy();
    await waitFor(() =>
      expect(listMessages).toHaveBeenLastCalledWith(
        expect.objectContaining({ read: 'unread', page: 1, page_size: 10 }),
      ),
    );
  }, 20_000);

  it('shows unread messages in bold and marks one read when it is opened', async () => {
    vi.mocked(listMessages).mockResolvedValue(page([msg(2, false), msg(1, true)]));
    vi.mocked(markRead).mockResolvedValue({ code: 200, message: '成功', data: { unread: 0 } });
    renderPage();
    const unread = await screen.findByRole('button', { name: '未读：空气质量告警：东门公厕2' });
    expect(screen.getByRole('button', { name: '空气质量告警：东门公厕1' })).toBeTruthy();
    expect(unread.style.fontWeight).toBe('600');
    expect(screen.getByRole('button', { name: '空气质量告警：东门公厕1' }).style.fontWeight).toBe('400');
    fireEvent.click(unread);
    await waitFor(() => expect(markRead).toHaveBeenCalledWith([2]));
    const modal = await screen.findByRole('dialog');
    expect(within(modal).getByText('设备 GW2，氨气 2.1 超过 1.5')).toBeTruthy();
    // The header badge's count follows.
    await waitFor(() => expect(client.getQueryData(UNREAD_KEY)).toEqual({ unread: 0 }));
    // Opening a read message does not call the server again.
    fireEvent.click(screen.getByRole('button', { name: '空气质量告警：东门公厕1' }));
    expect(markRead).toHaveBeenCalledTimes(1);
  }, 20_000);

  it('marks all read, and deletes the selected ones only after confirming', async () => {
    vi.mocked(listMessages).mockResolvedValue(page([msg(2, false), msg(1, false)]));
    vi.mocked(readAll).mockResolvedValue({ code: 200, message: '成功', data: { unread: 0 } });
    vi.mocked(removeMessages).mockResolvedValue({ code: 200, message: '成功', data: { unread: 1 } });
    renderPage();
    await screen.findByRole('button', { name: '未读：空气质量告警：东门公厕2' });
    fireEvent.click(screen.getByRole('button', { name: /全部已读/ }));
    await waitFor(() => expect(readAll).toHaveBeenCalled());

    const deleteButton = () => screen.getByRole('button', { name: /删除/ });
    expect((deleteButton() as HTMLButtonElement).disabled).toBe(true);
    const boxes = screen.getAllByRole('checkbox');
    fireEvent.click(boxes[1]!);
    fireEvent.click(deleteButton());
    expect(removeMessages).not.toHaveBeenCalled();
    const confirm = await screen.findByRole('tooltip');
    fireEvent.click(within(confirm).getByRole('button', { name: '删除' }));
    await waitFor(() => expect(removeMessages).toHaveBeenCalledWith([2]));
  }, 20_000);
});
