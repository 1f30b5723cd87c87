import type { z } from 'zod';
import { AREAS, TOILET_STATUS, TOILET_STATUS_LABELS, formatDateTime, toiletListQuery } from '@se/core';
import { list } from '../../toilets/service.ts';
import { defineExport, type ExportColumn } from '../types.ts';

/** The toilet list's own filter without paging. */
export const toiletExportQuery = toiletListQuery.omit({ page: true, page_size: true });
export type ToiletExportQuery = z.infer<typeof toiletExportQuery>;

const PAGE = 1000;

const COLUMNS: ExportColumn[] = [
  { header: 'ID', key: 'id', width: 8 },
  { header: '名称', key: 'name', width: 24 },
  { header: '状态', key: 'status', width: 14 },
  { header: '省份', key: 'pname', width: 12 },
  { header: '城市', key: 'cityname', width: 12 },
  { header: '区县', key: 'adname', width: 12 },
  { header: '商圈', key: 'business_area', width: 16 },
  { header: '地址', key: 'address', width: 30 },
  { header: '经度', key: 'lng', width: 12 },
  { header: '纬度', key: 'lat', width: 12 },
  { header: '网关', key: 'gateway_ser_num', width: 20 },
  { header: '评价数', key: 'star_count', width: 10 },
  { header: '平均星级', key: 'star_average', width: 10 },
  { header: '绑定用户', key: 'owners', width: 24 },
  { header: '登记时间', key: 'created_at', width: 20 },
];

const statusText = (status: number) =>
  (Object.keys(TOILET_STATUS) as (keyof typeof TOILET_STATUS)[])
    .filter((f) => (status & TOILET_STATUS[f]) !== 0)
    .map((f) => TOILET_STATUS_LABELS[f])
    .join('、') || '正常';

/** 导出 of the smart-toilet list. */
export const toiletsExport = defineExport<ToiletExportQuery>({
  name: 'toilets',
  label: '厕所列表',
  access: AREAS.smartToilet.permission,
  query: toiletExportQuery,
  columns: () => COLUMNS,
  async prepare(ctx, caller, q) {
    await list(ctx, caller, { ...q, page: 1, page_size: 10 });
  },
  async count(ctx, caller, q) {
    return (await list(ctx, caller, { ...q, page: 1, page_size: 10 }, { exact: true })).total;
  },
  async *rows(ctx, caller, q) {
    for (let page = 1; ; page++) {
      const r = await list(ctx, caller, { ...q, page, page_size: PAGE as 100 });
      const rows = r.list.parse();
      yield rows.map((t) => ({
        ...t,
        status: statusText(t.status),
        gateway_ser_num: t.gateway_ser_num || '',
        star_average: t.star_count ? Math.round((t.star_sum / t.star_count) * 10) / 10 : '',
      }));
      if (rows.length < PAGE) return;
    }
  },
  summary(q) {
    const parts: string[] = [];
    if (q.keywords) parts.push(`关键字：${q.keywords}`);
    if (q.status) parts.push(`状态：${statusText(q.status)}`);
    if (q.owner_id !== undefined) parts.push(`所属用户ID：${q.owner_id}`);
    return parts.join('；') || '全部厕所';
  },
  fileName: () => `厕所列表-${formatDateTime(Date.now()).slice(0, 10).replace(/-/g, '')}`,
  sheetName: () => '厕所',
});
