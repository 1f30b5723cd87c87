import ExcelJS from 'exceljs';
import { ALARM_TYPE_LABELS } from '@se/core';
import {
  DAY,
  DAY_NAMES,
  GASES,
  GAS_LABELS,
  localDate,
  pct,
  reportTitle,
  totalAlarms,
  type WeeklyReport,
} from './weekly-report.ts';

/** The report as a workbook: one sheet per section, in-cell data bars as its charts. */
export async function reportXlsx(r: WeeklyReport): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = (name: string, cols: { header: string; key: string; width?: number }[], rows: object[]) => {
    const ws = wb.addWorksheet(name);
    ws.columns = cols.map((c) => ({ ...c, width: c.width ?? 14 }));
    ws.getRow(1).font = { bold: true };
    for (const row of rows) ws.addRow(row);
    return ws;
  };
  const bar = (ws: ExcelJS.Worksheet, col: string, n: number, color: string) => {
    if (n < 1) return;
    ws.addConditionalFormatting({
      ref: `${col}2:${col}${n + 1}`,
      rules: [
        {
          type: 'dataBar',
          priority: 1,
          minLength: 0,
          maxLength: 100,
          gradient: false,
          cfvo: [{ type: 'num', value: 0 }, { type: 'max' }],
          color: { argb: color },
        } as unknown as ExcelJS.ConditionalFormattingRule,
      ],
    });
  };
  sheet(
    '概览',
    [
      { header: '项目', key: 'k', width: 18 },
      { header: '数值', key: 'v', width: 30 },
    ],
    [
      { k: '报表', v: reportTitle(r) },
      { k: '用户', v: r.user.user_name },
      { k: '设备数', v: r.devices.length },
      { k: '平均在线率', v: pct(r.availability) },
      { k: '告警次数', v: totalAlarms(r) },
      ...(r.ratings
        ? [
            { k: '评价数', v: r.ratings.count },
            { k: '平均星级', v: r.ratings.average },
          ]
        : []),
    ],
  );
  const days = sheet(
    '每日趋势',
    [
      { header: '日期', key: 'day' },
      { header: '在线设备数', key: 'online', width: 24 },
      { header: '告警数', key: 'alarms', width: 24 },
    ],
    DAY_NAMES.map((name, i) => ({
      day: `${name} ${localDate(new Date(r.start.getTime() + i * DAY))}`,
      online: r.online_by_day[i],
      alarms: r.alarms_by_day[i],
    })),
  );
  bar(days, 'B', 7, 'FF1677FF');
  bar(days, 'C', 7, 'FFFF4D4F');
  const gasCols = r.kind === 'toilet' ? GASES.map((g) => ({ header: `${GAS_LABELS[g]}均值`, key: g })) : [];
  const liquidCols =
    r.kind === 'jwb'
      ? [
          { header: '期初液位', key: 'liquid_start' },
          { header: '期末液位', key: 'liquid_end' },
          { header: '用液量', key: 'liquid_used', width: 20 },
        ]
      : [];
  const dev = sheet(
    '设备明细',
    [
      { header: '序列号', key: 'ser_num', width: 18 },
      { header: '描述', key: 'desc', width: 24 },
      { header: '有数据小时数', key: 'hours' },
      { header: '在线率(%)', key: 'ratio', width: 20 },
      { header: '告警次数', key: 'alarms' },
      ...gasCols,
      ...liquidCols,
    ],
    r.devices.map((d) => ({ ...d, ratio: Math.round(d.online_ratio * 1000) / 10 })),
  );
  bar(dev, 'D', r.devices.length, 'FF52C41A');
  if (r.kind === 'jwb') bar(dev, 'H', r.devices.length, 'FF722ED1');
  sheet(
    '告警',
    [
      { header: '类型', key: 'type', width: 16 },
      { header: '次数', key: 'count' },
    ],
    r.alarms_by_type.map((a) => ({
      type: ALARM_TYPE_LABELS[a.type as keyof typeof ALARM_TYPE_LABELS] ?? a.type,
      count: a.count,
    })),
  );
  if (r.ratings) {
    const rs = sheet(
      '评价',
      [
        { header: '厕所', key: 'name', width: 24 },
        { header: '评价数', key: 'count', width: 20 },
        { header: '平均星级', key: 'average' },
      ],
      r.ratings.toilets,
    );
    bar(rs, 'B', r.ratings.toilets.length, 'FFFAAD14');
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
