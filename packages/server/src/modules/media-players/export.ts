import type { z } from 'zod';
import { AREAS, formatDateTime, playReportQuery } from '@se/core';
import { defineExport, type ExportColumn } from '../downloads/types.ts';
import { playReport } from './service.ts';

/** The proof-of-play report's own filter without paging. */
export const playReportExportQuery = playReportQuery.omit({ page: true, page_size: true });
export type PlayReportExportQuery = z.infer<typeof playReportExportQuery>;

const PAGE = 1000;
const what = (q: PlayReportExportQuery) => (q.by === 'item' ? '内容' : '播放器');

/** 导出 of 播放统计 (proof of play), per item or per player, through the download centre. */
export const playReportExport = defineExport<PlayReportExportQuery>({
  name: 'media-plays',
  label: '播放统计',
  access: AREAS.media.permission,
  query: playReportExportQuery,
  columns: (q): ExportColumn[] => [
    { header: 'ID', key: 'id', width: 10 },
    { header: what(q), key: 'name', width: 30 },
    { header: '播放次数', key: 'plays', width: 12 },
    { header: '播放总秒数', key: 'seconds', width: 14 },
    { header: '最后播放', key: 'last_at', width: 20 },
  ],
  async prepare(ctx, caller, q) {
    await playReport(ctx, caller, { ...q, page: 1, page_size: 10 });
  },
  async count(ctx, caller, q) {
    return (await playReport(ctx, caller, { ...q, page: 1, page_size: 10 }, true)).total;
  },
  async *rows(ctx, caller, q) {
    for (let page = 1; ; page++) {
      const r = await playReport(ctx, caller, { ...q, page, page_size: PAGE as 100 });
      yield r.list.map((row) => ({ ...row, last_at: row.last_at ?? '' }));
      if (r.list.length < PAGE) return;
    }
  },
  summary(q) {
    const parts = [`按${what(q)}`];
    if (q.from) parts.push(`从 ${q.from}`);
    if (q.to) parts.push(`到 ${q.to}`);
    return parts.join('；');
  },
  fileName: (q) => `播放统计-按${what(q)}-${formatDateTime(Date.now()).slice(0, 10).replace(/-/g, '')}`,
  sheetName: () => '播放统计',
});
