import type { DownloadPage, DownloadRow } from '@se/core';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteDownload, downloadLink, listDownloads, openFileLink } from '../../api/downloads.ts';
import DownloadsPage from './DownloadsPage.tsx';
import { keepText, sizeText } from './download-text.ts';
import { telemetryParams, telemetryProblem } from './TelemetryExportDialog.tsx';
import dayjs from 'dayjs';
import { renderWithProviders } from '../../test-render.tsx';

const { withStubs } = await vi.hoisted(() => import('../../test-mock.ts'));
vi.mock(import('../../api/downloads.ts'), (original) =>
  withStubs(original, ['listDownloads', 'deleteDownload', 'downloadLink', 'openFileLink']),
);

const DAY = 86_400_000;

const job = (id: number, over: Partial<DownloadRow> = {}): DownloadRow => ({
  id,
  name: 'devices',
  label: '设备列表',
  params: { kind: 'gateway' },
  summary: '类型：网关',
  format: 'xlsx',
  status: 'done',
  rows_done: 120,
  total: 120,
  file_name: `网关列表-2026032${id}.xlsx`,
  size: 20_480,
  error: '',
  created_at: '2026-03-20 10:00:00',
  started_at: '2026-03-20 10:00:01',
  finished_at: '2026-03-20 10:00:03',
  expires_at: '2026-03-27 10:00:03',
  expires_in_ms: 7 * DAY - 60_000,
  ...over,
});

const page = (list: DownloadRow[]): { code: 200; message: string; data: DownloadPage } => ({
  code: 200,
  message: '成功',
  data: {
    list,
    total: list.length,
    page: 1,
    page_size: 10,
    active: list.filter((j) => j.status === 'queued' || j.status === 'running').length,
  },
});

const renderPage = () => {
  return renderWithProviders(<DownloadsPage />, { router: true });
};

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

beforeEach(() => {
  vi.mocked(listDownloads).mockReset();
  vi.mocked(deleteDownload).mockReset();
  vi.mocked(downloadLink).mockReset();
  vi.mocked(openFileLink).mockReset();
});

// antd's table and popovers take seconds to mount in jsdom on a busy machine.
describe('download centre page', { timeout: 20_000 }, () => {
  it('says so when there are no exports', async () => {
    vi.mocked(listDownloads).mockResolvedValue(page([]));
    renderPage();
    expect(await screen.findByText('暂无导出文件')).toBeTruthy();
    expect(screen.getByText(/文件保留 7 天/)).toBeTruthy();
  });

  it('shows each job’s state: progress, error, expiry, and download only for finished files', async () => {
    vi.mocked(listDownloads).mockResolvedValue(
      page([
        job(5, {
          status: 'queued',
          rows_done: 0,
          total: null,
          file_name: '',
          size: null,
          expires_in_ms: null,
        }),
        job(4, {
          status: 'running',
          rows_done: 45_000,
          total: 100_000,
          file_name: '',
          size: null,
          expires_in_ms: null,
          label: '历史数据',
        }),
        job(3, { status: 'failed', error: '当前账号已没有导出此数据的权限', file_name: '', size: null }),
        job(2, { status: 'expired', label: '厕所列表' }),
        job(1),
      ]),
    );
    renderPage();
    const running = within(await waitFor(() => rowOf('历史数据')));
    expect(running.getByText('导出中')).toBeTruthy();
    expect(running.getByText('45,000 / 100,000 行')).toBeTruthy();
    expect(running.getByText('45%')).toBeTruthy();
    expect(within(rowOf('当前账号已没有导出此数据的权限')).getByText('失败')).toBeTruthy();
    const expired = within(rowOf('厕所列表'));
    expect(expired.getAllByText('已过期')).toHaveLength(2);
    expect(expired.getByRole('button', { name: /下载/ })).toHaveProperty('disabled', true);
    const done = within(rowOf('网关列表-20260321.xlsx'));
    expect(done.getByText('已完成')).toBeTruthy();
    expect(done.getByText('剩余 7 天')).toBeTruthy();
    expect(done.getByText('20 KB')).toBeTruthy();
    expect(done.getByRole('button', { name: /下载/ })).toHaveProperty('disabled', false);
    expect(screen.getByText('等待开始')).toBeTruthy();
  });

  it('polls every 2 s while a job is unfinished and stops when none is', async () => {
    vi.mocked(listDownloads)
      .mockResolvedValueOnce(page([job(1, { status: 'running', rows_done: 10, total: 100 })]))
      .mockResolvedValue(page([job(1)]));
    renderPage();
    await screen.findByText('导出中');
    await waitFor(() => expect(screen.getByText('已完成')).toBeTruthy(), { timeout: 4000 });
    expect(listDownloads).toHaveBeenCalledTimes(2);
    await act(() => new Promise((r) => setTimeout(r, 2500)));
    expect(listDownloads).toHaveBeenCalledTimes(2);
  }, 10_000);

  it('stops polling when the page is left', async () => {
    vi.mocked(listDownloads).mockResolvedValue(page([job(1, { status: 'queued' })]));
    const view = renderPage();
    await screen.findByText('排队中');
    view.unmount();
    await new Promise((r) => setTimeout(r, 2500));
    expect(listDownloads).toHaveBeenCalledTimes(1);
  }, 10_000);

  it('downloads through a signed link', async () => {
    vi.mocked(listDownloads).mockResolvedValue(page([job(1)]));
    vi.mocked(downloadLink).mockResolvedValue({
      code: 200,
      message: '成功',
      data: { url: '/api/v1/download/file?id=1&expires=1&sig=abc', expires_at: 1 },
    });
    renderPage();
    fireEvent.click(
      within(await waitFor(() => rowOf('网关列表-20260321.xlsx'))).getByRole('button', { name: /下载/ }),
    );
    await waitFor(() =>
      expect(openFileLink).toHaveBeenCalledWith('/api/v1/download/file?id=1&expires=1&sig=abc'),
    );
    expect(downloadLink).toHaveBeenCalledWith(1);
  });

  it('deletes a job after confirmation', async () => {
    vi.mocked(listDownloads)
      .mockResolvedValueOnce(page([job(1)]))
      .mockResolvedValue(page([]));
    vi.mocked(deleteDownload).mockResolvedValue({ code: 200, message: '成功', data: null });
    renderPage();
    fireEvent.click(
      within(await waitFor(() => rowOf('网关列表-20260321.xlsx'))).getByRole('button', { name: /删除/ }),
    );
    expect(await screen.findByText('确定删除“设备列表”吗？')).toBeTruthy();
    expect(deleteDownload).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '删除' }));
    await waitFor(() => expect(deleteDownload).toHaveBeenCalledWith(1));
    expect(await screen.findByText('暂无导出文件')).toBeTruthy();
  });
});

describe('download text', () => {
  it('counts the days left, rounding up, and hours on the last day', () => {
    expect(keepText({ status: 'done', expires_in_ms: 6 * DAY + 1 })).toBe('剩余 7 天');
    expect(keepText({ status: 'done', expires_in_ms: 3 * 3_600_000 - 1 })).toBe('剩余 3 小时');
    expect(keepText({ status: 'done', expires_in_ms: -1 })).toBe('已过期');
    expect(keepText({ status: 'running', expires_in_ms: null })).toBe('—');
  });
  it('sizes files', () => {
    expect([sizeText(null), sizeText(512), sizeText(2048), sizeText(5 * 1024 * 1024)]).toEqual([
      '—',
      '512 B',
      '2.0 KB',
      '5.0 MB',
    ]);
  });
  it('checks the history export’s filter before sending it, with the server’s own schema', () => {
    const at = (t: string) => dayjs(t);
    expect(telemetryProblem(telemetryParams('gateway', [], null))).toBe('请选择时间范围');
    expect(
      telemetryProblem(
        telemetryParams('gateway', [1], [at('2026-01-01 00:00:00'), at('2026-02-02 00:00:00')]),
      ),
    ).toBe('时间范围不能超过31天');
    const ok = telemetryParams('sensor', [], [at('2026-01-01 00:00:00'), at('2026-01-31 00:00:00')]);
    expect(ok).toEqual({ kind: 'sensor', start: '2026-01-01 00:00:00', end: '2026-01-31 00:00:00' });
    expect(telemetryProblem(ok)).toBeNull();
  });
});
