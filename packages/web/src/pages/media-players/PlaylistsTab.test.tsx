import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MediaItemRow, MediaPlayerRow } from '@se/core';
import { addPlaylist, approvedItems, listScreens } from '../../api/media-players.ts';
import { renderWithProviders } from '../../test-render.tsx';
import { PlaylistDialog } from './PlaylistsTab.tsx';
import { ScreensTab } from './ScreensTab.tsx';

vi.mock(import('../../api/media-players.ts'), async (original) => ({
  ...(await original()),
  addPlaylist: vi.fn(),
  approvedItems: vi.fn(),
  listScreens: vi.fn(),
}));

const item = (id: number, kind: MediaItemRow['kind'], name: string, duration_ms: number | null = null) =>
  ({ id, kind, name, status: 1, duration_ms }) as MediaItemRow;

describe('playlist dialog', () => {
  it('adds approved content in order, sets seconds, moves an item up and saves the order', async () => {
    vi.mocked(approvedItems).mockResolvedValue([
      item(1, 'picture', '欢迎图'),
      item(2, 'video', '宣传片', 15_500),
    ]);
    vi.mocked(addPlaylist).mockResolvedValue({ code: 200, message: '成功', data: {} as never });
    const saved = vi.fn();
    renderWithProviders(<PlaylistDialog playlist={null} onSaved={saved} onClosed={() => {}} />);
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '大厅屏' } });
    // Nothing chosen: refused before any call.
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('播放列表至少要有一项内容')).toBeTruthy();
    const add = async (name: string) => {
      fireEvent.mouseDown(screen.getByLabelText('添加内容'));
      fireEvent.click(await screen.findByTitle(new RegExp(name)));
    };
    await add('欢迎图');
    await add('宣传片');
    // A video plays its own length: no seconds box for it.
    const second = screen.getByLabelText('第2项');
    expect(within(second).getByText('16 秒')).toBeTruthy();
    expect(within(second).queryByLabelText('时长')).toBeNull();
    fireEvent.change(within(screen.getByLabelText('第1项')).getByLabelText('时长'), {
      target: { value: '12' },
    });
    fireEvent.click(within(second).getByLabelText('上移'));
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(addPlaylist).toHaveBeenCalledWith(
        expect.objectContaining({
          name: '大厅屏',
          items: [
            { media_id: 2, duration_s: 10 },
            { media_id: 1, duration_s: 12 },
          ],
        }),
      ),
    );
    expect(saved).toHaveBeenCalled();
  }, 30_000);
});

const screenRow = (over: Partial<MediaPlayerRow>): MediaPlayerRow => ({
  id: 1,
  kind: 'player',
  type: null,
  ser_num: 'PLY-1',
  desc: '',
  location: '',
  online: true,
  time: Date.now(),
  owners: '',
  toilet_id: null,
  toilet_name: '',
  latest: {},
  manifest_id: 9,
  delivery_state: 'sent',
  delivery_progress: 0,
  delivery_error: '',
  delivery_at: null,
  now_item_id: null,
  now_item_name: '',
  ...over,
});

describe('screens list', () => {
  it('shows each screen as 已下发, 下载中 n%, 播放中 with what is on screen, or 失败 with its reason', async () => {
    vi.mocked(listScreens).mockResolvedValue({
      code: 200,
      message: '成功',
      data: {
        list: [
          screenRow({ id: 1, ser_num: 'PLY-1' }),
          screenRow({ id: 2, ser_num: 'PLY-2', delivery_state: 'downloading', delivery_progress: 42.4 }),
          screenRow({ id: 3, ser_num: 'PLY-3', delivery_state: 'playing', now_item_name: '欢迎图' }),
          screenRow({
            id: 4,
            ser_num: 'GW-4',
            kind: 'gateway',
            type: 43,
            delivery_state: 'failed',
            delivery_error: '存储空间不足',
          }),
        ],
        total: 4,
        page: 1,
        page_size: 10,
      },
    });
    renderWithProviders(<ScreensTab />, { router: true });
    expect(await screen.findByText('已下发')).toBeTruthy();
    expect(screen.getByText('下载中 42%')).toBeTruthy();
    expect(screen.getByText('播放中')).toBeTruthy();
    expect(screen.getByText('欢迎图')).toBeTruthy();
    expect(screen.getByText('失败（存储空间不足）')).toBeTruthy();
    expect(screen.getByText('控制中心多媒体版 (43)')).toBeTruthy();
  }, 30_000);
});
