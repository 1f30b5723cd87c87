import { DOWNLOAD_API, type DownloadPage, type PageQuery } from '@se/core';
import { get, post } from './client.ts';

/**
 * Starts a background export (its file lands in 下载中心 /download). `params` is the same
 * filter the list call takes.
 */
export const startExport = (name: string, params: Record<string, unknown> = {}) =>
  post<{ id: number }>(DOWNLOAD_API.create, { name, params: JSON.stringify(params) });

/** The caller's export jobs, newest first; `active` counts those still queued or running. */
export const listDownloads = (q: Partial<PageQuery>) => get<DownloadPage>(DOWNLOAD_API.list, q);

export const deleteDownload = (id: number) => post<null>(DOWNLOAD_API.remove, { id });

/** A signed link to the file, valid a few minutes: what the browser opens to download. */
export const downloadLink = (id: number) =>
  get<{ url: string; expires_at: number }>(DOWNLOAD_API.sign, { id });

/**
 * Opens a file link: the server answers with Content-Disposition: attachment, so the
 * browser saves the file and the page stays where it is.
 */
export function openFileLink(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
