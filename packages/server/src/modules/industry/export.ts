import {
  AREAS,
  EXPOSURE_GASES,
  EXPOSURE_LIMITS,
  exposureQuery,
  type ExposureQuery,
  type ExposureRow,
} from '@se/core';
import { defineExport, type ExportColumn } from '../downloads/types.ts';
import { exposure } from './service.ts';

const VERDICT = { ok: '达标', over: '超标', unknown: '无数据' } as const;

const sheetRow = (r: ExposureRow) => ({
  building_name: r.building_name,
  room_name: r.room_name,
  shift: r.partial ? `${r.shift_label}（进行中）` : r.shift_label,
  monitors: r.monitors,
  covered_min: r.covered_min,
  ...Object.fromEntries(
    EXPOSURE_GASES.flatMap((g) => {
      const f = r.gases[g]!;
      return [
        [`${g}_twa`, f.twa ?? ''],
        [`${g}_stel`, f.stel ?? ''],
        [`${g}_max`, f.max ?? ''],
        [`${g}_verdict`, VERDICT[f.verdict]],
      ];
    }),
  ),
  breaches: EXPOSURE_GASES.flatMap((g) =>
    r.gases[g]!.breaches.map((b) => `${EXPOSURE_LIMITS[g].label} ${b}`),
  ).join('；'),
});

/** 职业接触日报: one site's exposure per work area and shift for one day (download centre). */
export const exposureExport = defineExport<ExposureQuery>({
  name: 'industry-exposure',
  label: '职业接触日报',
  access: AREAS.industry.permission,
  query: exposureQuery,
  columns: () => [
    { header: '车间', key: 'building_name', width: 16 },
    { header: '作业区域', key: 'room_name', width: 16 },
    { header: '班次', key: 'shift', width: 12 },
    { header: '监测仪数', key: 'monitors', width: 10 },
    { header: '监测时长(分钟)', key: 'covered_min', width: 14 },
    ...EXPOSURE_GASES.flatMap((g): ExportColumn[] => {
      const l = EXPOSURE_LIMITS[g];
      return [
        {
          header: `${l.label} TWA(mg/m³)${l.twa !== null ? ` 限值${l.twa}` : ''}`,
          key: `${g}_twa`,
          width: 18,
        },
        {
          header: `${l.label} STEL(mg/m³)${l.stel !== null ? ` 限值${l.stel}` : ''}`,
          key: `${g}_stel`,
          width: 18,
        },
        {
          header: `${l.label} 最高(mg/m³)${l.mac !== null ? ` MAC${l.mac}` : ''}`,
          key: `${g}_max`,
          width: 18,
        },
        { header: `${l.label} 结论`, key: `${g}_verdict`, width: 10 },
      ];
    }),
    { header: '超限项', key: 'breaches', width: 40 },
  ],
  async prepare(ctx, caller, q) {
    await exposure(ctx, caller, q);
  },
  async *rows(ctx, caller, q) {
    const r = await exposure(ctx, caller, q);
    yield r.rows.map(sheetRow);
  },
  summary: (q) => `站点ID：${q.org_id}；日期：${q.date}`,
  fileName: (q) => `职业接触日报-${q.date}`,
});
