import { DOWNLOAD_API } from '@se/core';
import { post } from './client.ts';

/**
 * Starts a background export (its file lands in 下载中心 /download). `params` is the same
 * filter the list call takes.
 */
export const startExport = (name: string, params: Record<string, unknown> = {}) =>
  post<{ id: number }>(DOWNLOAD_API.create, { name, params: JSON.stringify(params) });
