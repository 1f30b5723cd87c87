import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import {
  AIR_LEVELS,
  ALARM_TYPE_LABELS,
  PERMISSION,
  SERVICE,
  TZ_OFFSET_MS,
  formatDateTime,
  gasLevel,
  has,
  type Gas,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { addFile } from '../downloads/service.ts';
import { insertDeliveries } from './repo.ts';
import { notifierOf } from './runtime.ts';
import {
  claimWeeklyReport,
  releaseWeeklyReport,
  weeklyAlarmDays,
  weeklyAlarmsByType,
  weeklyDevices,
  weeklyHourly,
  weeklyLiquid,
  weeklyOnlineDays,
  weeklyRatings,
  weeklySubscribers,
} from './weekly-repo.ts';

/** The two weekly reports of SPEC §6's service flags. */
export const WEEKLY_KINDS = {
  jwb: { service: SERVICE.jwbWeeklyReport, label: '除臭机周报', kinds: ['jwb'] },
  toilet: { service: SERVICE.toiletWeeklyReport, label: '智慧厕所周报', kinds: ['gateway', 'sensor'] },
} as const;
export type WeeklyKind = keyof typeof WEEKLY_KINDS;

const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** Reports go out on Monday at 08:00 in UTC+8. */
const SEND_HOUR = 8;
const GASES: Gas[] = ['nh3', 'h2s', 'co2', 'pm25', 'voc'];
const GAS_LABELS: Record<Gas, string> = {
  nh3: '氨气',
  h2s: '硫化氢',
  co2: '二氧化碳',
  pm25: 'PM2.5',
  voc: 'VOC',
};
/** Rows of the per-device table in the e-mail; the file has every device. */
const MAIL_DEVICE_ROWS = 30;

/** Monday 00:00 (UTC+8) of the week holding `t`, as a UTC instant. */
export function mondayOf(t: Date): Date {
  const local = new Date(t.getTime() + TZ_OFFSET_MS);
  const back = (local.getUTCDay() + 6) % 7;
  return new Date(
    Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - back) - TZ_OFFSET_MS,
  );
}

/** The week whose report is due at `now`: the one before the latest Monday 08:00 passed. */
export function dueWeek(now: Date): { start: Date; end: Date } {
  let monday = mondayOf(now);
  if (now.getTime() < monday.getTime() + SEND_HOUR * 3_600_000) monday = new Date(monday.getTime() - WEEK);
  return { start: new Date(monday.getTime() - WEEK), end: monday };
}

const localDate = (d: Date) => formatDateTime(d).slice(0, 10);

export interface DeviceLine {
  id: number;
  ser_num: string;
  desc: string;
  kind: string;
  /** Hours of the week with at least one report. */
  hours: number;
  /** hours / 168, 0–1 */
  online_ratio: number;
  alarms: number;
  nh3: number | null;
  h2s: number | null;
  co2: number | null;
  pm25: number | null;
  voc: number | null;
  liquid_start: number | null;
  liquid_end: number | null;
  /** Sum of the drops of the hourly average level (refills are rises, not use). */
  liquid_used: number | null;
}

export interface WeeklyReport {
  kind: WeeklyKind;
  user: { id: number; user_name: string; email: string | null };
  start: Date;
  end: Date;
  devices: DeviceLine[];
  /** Devices with data each day (index 0 = Monday). */
  online_by_day: number[];
  alarms_by_day: number[];
  alarms_by_type: { type: string; count: number }[];
  availability: number;
  ratings: {
    count: number;
    average: number;
    stars: number[];
    badattitude: number;
    inefficiency: number;
    poorsanitary: number;
    smelly: number;
    toilets: { name: string; count: number; average: number }[];
  } | null;
}

const round = (v: number | null, digits = 3) =>
  v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits;

/** The week's numbers for the devices `user` sees (develop: all). */
export async function buildWeeklyReport(
  q: Queryable,
  user: { id: number; user_name: string; email: string | null; permissions: number; path: string },
  kind: WeeklyKind,
  week: { start: Date; end: Date },
): Promise<WeeklyReport> {
  const all = has(user.permissions, PERMISSION.develop);
  const devices = await weeklyDevices(q, WEEKLY_KINDS[kind].kinds, all ? null : user.path);
  const ids = devices.map((d) => d.id);
  const range = [ids, week.start, week.end] as const;
  const [hourly, liquid, alarms, onlineDays, alarmDays] = await Promise.all([
    weeklyHourly(q, GASES, range),
    kind === 'jwb' ? weeklyLiquid(q, range) : [],
    weeklyAlarmsByType(q, range),
    weeklyOnlineDays(q, range),
    weeklyAlarmDays(q, range),
  ]);
  const byHour = new Map(hourly.map((h) => [h.device_id, h]));
  const byLiquid = new Map(liquid.map((l) => [l.device_id, l]));
  const alarmCount = new Map<number, number>();
  const typeCount = new Map<string, number>();
  for (const a of alarms) {
    alarmCount.set(a.device_id, (alarmCount.get(a.device_id) ?? 0) + a.n);
    typeCount.set(a.type, (typeCount.get(a.type) ?? 0) + a.n);
  }
  const hoursInWeek = (week.end.getTime() - week.start.getTime()) / 3_600_000;
  const lines: DeviceLine[] = devices.map((d) => {
    const h = byHour.get(d.id);
    const l = byLiquid.get(d.id);
    const hours = h?.hours ?? 0;
    return {
      ...d,
      hours,
      online_ratio: Math.min(1, hours / hoursInWeek),
      alarms: alarmCount.get(d.id) ?? 0,
      nh3: round(h?.nh3 ?? null),
      h2s: round(h?.h2s ?? null),
      co2: round(h?.co2 ?? null, 1),
      pm25: round(h?.pm25 ?? null, 1),
      voc: round(h?.voc ?? null),
      liquid_start: l ? round(l.first, 1) : null,
      liquid_end: l ? round(l.last, 1) : null,
      liquid_used: l ? round(l.used, 1) : null,
    };
  });
  const perDay = (rows: { day: number; n: number }[]) => {
    const out = Array<number>(7).fill(0);
    for (const r of rows) if (r.day >= 0 && r.day < 7) out[r.day] = r.n;
    return out;
  };
  return {
    kind,
    user: { id: user.id, user_name: user.user_name, email: user.email },
    start: week.start,
    end: week.end,
    devices: lines,
    online_by_day: perDay(onlineDays),
    alarms_by_day: perDay(alarmDays),
    alarms_by_type: [...typeCount]
      .map(([type, count]) => ({ type, count }))
      .sort((a, b) => b.count - a.count),
    availability: lines.length ? lines.reduce((s, l) => s + l.online_ratio, 0) / lines.length : 0,
    ratings: kind === 'toilet' ? await ratings(q, user, all, week) : null,
  };
}

async function ratings(
  q: Queryable,
  user: { path: string },
  all: boolean,
  week: { start: Date; end: Date },
): Promise<WeeklyReport['ratings']> {
  const rows = await weeklyRatings(q, all ? null : user.path, week.start, week.end);
  const sum = (k: keyof (typeof rows)[number]) => rows.reduce((s, r) => s + (r[k] as number), 0);
  const count = sum('n');
  return {
    count,
    average: count ? Math.round((sum('stars') / count) * 10) / 10 : 0,
    stars: [sum('s1'), sum('s2'), sum('s3'), sum('s4'), sum('s5')],
    badattitude: sum('badattitude'),
    inefficiency: sum('inefficiency'),
    poorsanitary: sum('poorsanitary'),
    smelly: sum('smelly'),
    toilets: rows.map((r) => ({ name: r.name, count: r.n, average: Math.round((r.stars / r.n) * 10) / 10 })),
  };
}

// ---- rendering ----

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const pct = (r: number) => `${Math.round(r * 1000) / 10}%`;
const num = (v: number | null) => (v === null ? '—' : String(v));
const DAY_NAMES = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'];

export function reportTitle(r: WeeklyReport) {
  const last = new Date(r.end.getTime() - DAY);
  return `${WEEKLY_KINDS[r.kind].label}（${localDate(r.start)} 至 ${localDate(last)}）`;
}

/** Bars as table cells: mail clients show them without images or scripts. */
function bars(values: number[], labels: string[], color: string, suffix = '') {
  const max = Math.max(1, ...values);
  const rows = values
    .map(
      (v, i) => `<tr><td style="padding:2px 8px 2px 0;white-space:nowrap;color:#555">${esc(labels[i]!)}</td>
<td style="width:100%;padding:2px 0"><table role="presentation" cellpadding="0" cellspacing="0" style="width:100%"><tr>
<td style="width:${Math.max(1, Math.round((v / max) * 100))}%;background:${color};height:14px;font-size:0">&nbsp;</td><td style="padding-left:6px;white-space:nowrap;font-size:12px">${v}${suffix}</td></tr></table></td></tr>`,
    )
    .join('');
  return `<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;max-width:560px">${rows}</table>`;
}

const TH =
  'style="text-align:left;padding:4px 8px;border-bottom:1px solid #ddd;background:#f5f7fa;white-space:nowrap"';
const TD = 'style="padding:4px 8px;border-bottom:1px solid #eee"';

function table(head: string[], rows: (string | number)[][]) {
  return `<table cellpadding="0" cellspacing="0" style="border-collapse:collapse;font-size:13px;width:100%">
<tr>${head.map((h) => `<th ${TH}>${esc(h)}</th>`).join('')}</tr>
${rows.map((r) => `<tr>${r.map((c) => `<td ${TD}>${esc(String(c))}</td>`).join('')}</tr>`).join('\n')}</table>`;
}

const level = (g: Gas, v: number | null) => (v === null ? '—' : `${v}（${AIR_LEVELS[gasLevel(g, v)]}）`);

/** The report as a self-contained HTML e-mail (inline styles, bars as tables, no images). */
export function reportHtml(r: WeeklyReport): string {
  const title = reportTitle(r);
  const worst = [...r.devices].sort((a, b) => a.online_ratio - b.online_ratio || b.alarms - a.alarms);
  const shown = worst.slice(0, MAIL_DEVICE_ROWS);
  const totalAlarms = r.alarms_by_type.reduce((s, a) => s + a.count, 0);
  const parts = [
    `<h2 style="margin:0 0 4px">${esc(title)}</h2>`,
    `<p style="color:#666;margin:0 0 16px">${esc(r.user.user_name)}，您好！以下是您可查看的 ${r.devices.length} 台设备上周的运行情况。</p>`,
    `<h3>概览</h3>`,
    table(
      ['设备数', '平均在线率', '告警次数', ...(r.ratings ? ['评价数', '平均星级'] : [])],
      [
        [
          r.devices.length,
          pct(r.availability),
          totalAlarms,
          ...(r.ratings ? [r.ratings.count, r.ratings.average] : []),
        ],
      ],
    ),
    `<h3>每日在线设备数</h3>`,
    bars(r.online_by_day, DAY_NAMES, '#1677ff', ' 台'),
    `<h3>每日告警数</h3>`,
    bars(r.alarms_by_day, DAY_NAMES, '#ff4d4f', ' 次'),
  ];
  if (r.alarms_by_type.length) {
    parts.push(
      `<h3>告警类型</h3>`,
      table(
        ['类型', '次数'],
        r.alarms_by_type.map((a) => [
          ALARM_TYPE_LABELS[a.type as keyof typeof ALARM_TYPE_LABELS] ?? a.type,
          a.count,
        ]),
      ),
    );
  }
  const head = ['序列号', '描述', '在线率', '告警'];
  const row = (d: DeviceLine) => [d.ser_num, d.desc, pct(d.online_ratio), d.alarms];
  if (r.kind === 'jwb') {
    parts.push(
      `<h3>设备明细${r.devices.length > shown.length ? `（在线率最低的 ${shown.length} 台，全部见下载中心）` : ''}</h3>`,
      table(
        [...head, '期初液位', '期末液位', '用液量'],
        shown.map((d) => [...row(d), num(d.liquid_start), num(d.liquid_end), num(d.liquid_used)]),
      ),
    );
  } else {
    parts.push(
      `<h3>设备明细与空气质量${r.devices.length > shown.length ? `（在线率最低的 ${shown.length} 台，全部见下载中心）` : ''}</h3>`,
      table(
        [...head, ...GASES.map((g) => `${GAS_LABELS[g]}均值`)],
        shown.map((d) => [...row(d), ...GASES.map((g) => level(g, d[g]))]),
      ),
    );
  }
  if (r.ratings) {
    const rt = r.ratings;
    parts.push(
      `<h3>评价（${rt.count} 条，平均 ${rt.average} 星）</h3>`,
      bars(rt.stars, ['1星', '2星', '3星', '4星', '5星'], '#faad14', ' 条'),
      table(
        ['态度差', '效率低', '卫生差', '有异味'],
        [[rt.badattitude, rt.inefficiency, rt.poorsanitary, rt.smelly]],
      ),
    );
    if (rt.toilets.length)
      parts.push(
        table(
          ['厕所', '评价数', '平均星级'],
          rt.toilets.slice(0, 20).map((t) => [t.name, t.count, t.average]),
        ),
      );
  }
  parts.push(
    `<p style="color:#999;font-size:12px;margin-top:24px">此邮件由智慧环境管理系统自动发送；完整报表已放入下载中心。</p>`,
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head>
<body style="font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;color:#222;max-width:760px;margin:0 auto;padding:16px">
${parts.join('\n')}</body></html>`;
}

/** Plain-text alternative of the e-mail. */
export function reportText(r: WeeklyReport): string {
  const totalAlarms = r.alarms_by_type.reduce((s, a) => s + a.count, 0);
  const lines = [
    reportTitle(r),
    `设备 ${r.devices.length} 台，平均在线率 ${pct(r.availability)}，告警 ${totalAlarms} 次。`,
    ...(r.ratings ? [`评价 ${r.ratings.count} 条，平均 ${r.ratings.average} 星。`] : []),
    '完整报表已放入下载中心。',
  ];
  return lines.join('\n');
}

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
  const totalAlarms = r.alarms_by_type.reduce((s, a) => s + a.count, 0);
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
      { k: '告警次数', v: totalAlarms },
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

// ---- the job ----

/**
 * Sends the weekly reports due at `now` to every user whose services ask for them: an
 * HTML e-mail (queued as a delivery, so it is retried) and a workbook in the download
 * centre. A report is claimed per user, kind and week before it is made, so a restart or
 * a second server copy never sends it twice. Answers how many reports were made.
 */
export async function runWeeklyReports(ctx: AppContext, now = new Date()): Promise<number> {
  const week = dueWeek(now);
  const mask = SERVICE.jwbWeeklyReport | SERVICE.toiletWeeklyReport;
  const users = await weeklySubscribers(ctx.db, mask);
  let made = 0;
  for (const u of users) {
    for (const kind of Object.keys(WEEKLY_KINDS) as WeeklyKind[]) {
      if ((u.services & WEEKLY_KINDS[kind].service) === 0) continue;
      const claim = await claimWeeklyReport(ctx.db, u.id, kind, week.start);
      if (claim === undefined) continue;
      // PGlite never yields between queries: let requests and MQTT acks in between reports.
      await yieldToEventLoop();
      try {
        await sendReport(ctx, u, kind, week);
        made++;
      } catch (err) {
        ctx.log.warn({ err, user: u.id, kind }, 'weekly report failed; retried on the next run');
        await releaseWeeklyReport(ctx.db, claim);
      }
    }
  }
  return made;
}

async function sendReport(
  ctx: AppContext,
  u: { id: number; user_name: string; email: string | null; permissions: number; path: string },
  kind: WeeklyKind,
  week: { start: Date; end: Date },
) {
  const r = await buildWeeklyReport(ctx.db, u, kind, week);
  const title = reportTitle(r);
  await addFile(ctx, u.id, WEEKLY_KINDS[kind].label, `${title}.xlsx`, await reportXlsx(r), {
    name: `weekly-${kind}`,
    summary: `${r.devices.length} 台设备`,
    params: { week_start: localDate(week.start) },
    rows: r.devices.length,
  });
  if (u.email) {
    await insertDeliveries(ctx.db, [
      {
        user_id: u.id,
        channel: 'email',
        kind: 'weekly',
        target: u.email,
        payload: { subject: title, text: reportText(r), html: reportHtml(r) },
      },
    ]);
    notifierOf(ctx)?.kick();
  }
}
