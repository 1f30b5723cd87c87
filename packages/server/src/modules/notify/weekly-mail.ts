import { AIR_LEVELS, ALARM_TYPE_LABELS, gasLevel, type Gas } from '@se/core';
import {
  DAY_NAMES,
  GASES,
  GAS_LABELS,
  pct,
  reportTitle,
  totalAlarms,
  type DeviceLine,
  type WeeklyReport,
} from './weekly-report.ts';

// The weekly report as an e-mail: self-contained HTML and its plain-text alternative.

/** Rows of the per-device table in the e-mail; the file has every device. */
const MAIL_DEVICE_ROWS = 30;

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const num = (v: number | null) => (v === null ? '—' : String(v));

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
  const alarms = totalAlarms(r);
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
          alarms,
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
  const alarms = totalAlarms(r);
  const lines = [
    reportTitle(r),
    `设备 ${r.devices.length} 台，平均在线率 ${pct(r.availability)}，告警 ${alarms} 次。`,
    ...(r.ratings ? [`评价 ${r.ratings.count} 条，平均 ${r.ratings.average} 星。`] : []),
    '完整报表已放入下载中心。',
  ];
  return lines.join('\n');
}
