import { DOWNLOAD_STATUS_LABELS, type DownloadRow, type DownloadStatus, formatBytes } from '@se/core';

const DAY = 86_400_000;

export const STATUS_COLORS: Record<DownloadStatus, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  expired: 'default',
};

export const statusLabel = (s: DownloadStatus) => DOWNLOAD_STATUS_LABELS[s];

/** 1.2 MB, 830 KB, 512 B; '—' when there is no file. */
export const sizeText = (bytes: number | null): string => formatBytes(bytes);

/** 剩余 N 天 (rounded up) while the file is kept; 已过期 after; '—' before it is finished. */
export function keepText(row: Pick<DownloadRow, 'status' | 'expires_in_ms'>): string {
  if (row.status === 'expired') return '已过期';
  if (row.expires_in_ms === null) return '—';
  if (row.expires_in_ms <= 0) return '已过期';
  if (row.expires_in_ms < DAY) return `剩余 ${Math.max(1, Math.ceil(row.expires_in_ms / 3_600_000))} 小时`;
  return `剩余 ${Math.ceil(row.expires_in_ms / DAY)} 天`;
}

/** Progress in percent: rows over the expected total; null when the total is not known yet. */
export function percentOf(row: Pick<DownloadRow, 'status' | 'rows_done' | 'total'>): number | null {
  if (row.status === 'done') return 100;
  if (!row.total) return null;
  return Math.min(99, Math.floor((row.rows_done / row.total) * 100));
}

/** 12,345 / 100,000 行 */
export function rowsText(row: Pick<DownloadRow, 'status' | 'rows_done' | 'total'>): string {
  const n = (v: number) => v.toLocaleString('en-US');
  if (row.status === 'done' || row.total === null) return `${n(row.rows_done)} 行`;
  return `${n(row.rows_done)} / ${n(row.total)} 行`;
}

export const isActive = (row: Pick<DownloadRow, 'status'>) =>
  row.status === 'queued' || row.status === 'running';
