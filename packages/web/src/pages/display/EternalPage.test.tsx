import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { CODE, type DisplayData } from '@se/core';
import { getDisplay } from '../../api/display.ts';
import EternalPage from './EternalPage.tsx';

vi.mock(import('../../api/display.ts'), () => ({ getDisplay: vi.fn() }));
const qrText = vi.hoisted(() => vi.fn<(text: string | null) => void>());
vi.mock(import('../toilets/qr.ts'), () => ({
  useQrDataUrl: (text: string | null) => {
    qrText(text);
    return { url: 'data:image/png;base64,AA', failed: false };
  },
}));
const display = vi.mocked(getDisplay);

const data: DisplayData = {
  toilet: { public_id: 'q7Xk2bN9cR4tV1mZ8wYs3A', name: '湖滨公厕', address: '杭州市 湖滨路', status: 1 },
  document: {
    open_time: '00:00',
    close_time: '23:59',
    male_count: 4,
    female_count: 6,
    others_count: 0,
    content: '',
  },
  occupancy: [
    { key: 'male', label: '男', count: 4, occupy: 4, times: null },
    { key: 'female', label: '女', count: 6, occupy: 2, times: null },
  ],
  air: { gases: [{ gas: 'nh3', value: 0.5, level: 'fair' }], score: 0.83, level: 'good', level_text: '优' },
  star_average: 4.5,
  star_count: 12,
  gateway_online: true,
  updated_at: Date.now(),
  server_time: Date.now(),
  refresh_seconds: 15,
};

const open = (path: string) =>
  render(
    <RouterProvider
      router={createMemoryRouter([{ path: '/eternal-page', element: <EternalPage /> }], {
        initialEntries: [path],
      })}
    />,
  );

describe('/eternal-page', () => {
  it('shows free cubicles, air quality, hours and the review QR code for a token', async () => {
    display.mockResolvedValue({ code: CODE.ok, message: '成功', data });
    open('/eternal-page?token=abc');
    expect(await screen.findByRole('heading', { name: '湖滨公厕' })).toBeTruthy();
    expect(display).toHaveBeenCalledWith('abc');
    expect(screen.getByTestId('display-occupancy-male').textContent).toContain('已满');
    expect(screen.getByTestId('display-occupancy-female').textContent).toMatch(/^女4空闲/);
    expect(screen.getByTestId('display-air-level').textContent).toContain('优');
    expect(screen.getByTestId('display-hours').textContent).toBe('全天开放');
    expect(screen.getByRole('status').textContent).toContain('清洁中');
    expect(screen.getByAltText('评价二维码')).toBeTruthy();
    // The code opens the review page by the toilet's public id, never an internal number.
    expect(qrText).toHaveBeenLastCalledWith(
      `${window.location.origin}/add-comment?toilet_id=q7Xk2bN9cR4tV1mZ8wYs3A`,
    );
  });

  it('says 显示令牌已失效 for a revoked token', async () => {
    display.mockResolvedValue({ code: CODE.forbidden, message: '显示令牌已失效', data: null as never });
    open('/eternal-page?token=gone');
    expect(await screen.findByText('显示令牌已失效')).toBeTruthy();
  });
});
