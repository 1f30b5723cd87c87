import { METER_UNITS, periodStart, type MeterUsage, type UsageGrain } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { badRequest, notFound } from '../../errors.ts';
import { assertDeviceRight } from '../access/devices.ts';
import { usageRows } from './repo.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Default ranges, and the longest a request may ask for, per grain. */
const DEFAULT_SPAN: Record<UsageGrain, number> = { hour: 2 * DAY, day: 30 * DAY, month: 366 * DAY };
const MAX_SPAN: Record<UsageGrain, number> = { hour: 31 * DAY, day: 800 * DAY, month: 20 * 366 * DAY };
const METER_KINDS = new Set(['electric_meter', 'water_meter']);

/** One meter's usage rows of a grain; the caller must see the meter. */
export async function usage(
  ctx: AppContext,
  caller: Caller,
  q: { id: number; grain: UsageGrain; from?: number; to?: number },
): Promise<MeterUsage> {
  const a = await assertDeviceRight(ctx, caller, 'device', q.id, 'read', { what: '查看用量' });
  if (!METER_KINDS.has(a.facts.kind)) throw notFound('仪表不存在');
  const to = q.to ?? Date.now();
  const from = q.from ?? to - DEFAULT_SPAN[q.grain];
  if (from >= to) throw badRequest('开始时间须早于结束时间');
  if (to - from > MAX_SPAN[q.grain]) throw badRequest('时间范围过长，请缩小范围或改用更粗的粒度');
  const start = periodStart(q.grain, from);
  const rows = await usageRows(
    ctx.db,
    q.id,
    q.grain,
    new Date(start).toISOString(),
    new Date(to).toISOString(),
  );
  const out = rows.map((r) => ({
    period_start: new Date(r.period_start).toISOString(),
    usage: Math.round(Number(r.usage) * 1000) / 1000,
    gap: r.gap,
    resets: r.resets,
  }));
  return {
    device_id: q.id,
    kind: a.facts.kind,
    unit: METER_UNITS[a.facts.kind] ?? '',
    grain: q.grain,
    from: new Date(start).toISOString(),
    to: new Date(to).toISOString(),
    total: Math.round(out.reduce((s, r) => s + r.usage, 0) * 1000) / 1000,
    rows: out,
  };
}

const csvCell = (v: string | number | boolean) => {
  const s = String(v);
  // A leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

const cst = (iso: string, grain: UsageGrain) => {
  const d = new Date(new Date(iso).getTime() + 8 * HOUR).toISOString();
  return grain === 'month'
    ? d.slice(0, 7)
    : grain === 'day'
      ? d.slice(0, 10)
      : `${d.slice(0, 10)} ${d.slice(11, 16)}`;
};

/** The same rows as CSV (UTF-8 with BOM so spreadsheets read the Chinese headers). */
export async function usageCsv(ctx: AppContext, caller: Caller, q: Parameters<typeof usage>[2]) {
  const u = await usage(ctx, caller, q);
  const lines = [
    ['时段(UTC+8)', `用量(${u.unit})`, '含缺测估算', '换表/清零次数'].map(csvCell).join(','),
    ...u.rows.map((r) =>
      [cst(r.period_start, u.grain), r.usage, r.gap ? '是' : '否', r.resets].map(csvCell).join(','),
    ),
  ];
  return { name: `用量-${u.device_id}-${u.grain}.csv`, body: `\ufeff${lines.join('\r\n')}\r\n` };
}
