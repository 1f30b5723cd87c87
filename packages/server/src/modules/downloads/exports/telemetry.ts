import {
  DEVICE_KINDS,
  PERMISSION,
  REPORT_DATA,
  TELEMETRY_EXPORT,
  TZ_OFFSET_ISO,
  TZ_OFFSET_MS,
  formatDateTime,
  telemetryExportQuery,
  type ReportKind,
  type TelemetryExportQuery,
} from '@se/core';
import type { AppContext, Caller } from '../../../context.ts';
import { badRequest, notFound } from '../../../errors.ts';
import { scopeOf } from '../../access/users.ts';
import { defineExport, type ExportColumn } from '../types.ts';
import {
  countTelemetry,
  exportableDevices,
  telemetryPage,
  telemetryPageAfter,
  type ExportDevice,
} from './telemetry-repo.ts';

export type { ExportDevice };

/**
 * Rows per query: one device's readings are read in (ts, msg_id) order, page by page. Each
 * page arrives on the event loop in one piece (PGlite's worker message, or pg's parse).
 */
export const TELEMETRY_PAGE = 2000;

const LABELS: Record<string, string> = {
  nh3: '氨气',
  h2s: '硫化氢',
  voc: 'VOC',
  pm25: 'PM2.5',
  co2: '二氧化碳',
  smk_alarm: '烟雾报警',
  alarm: '求助报警',
  warning: '告警',
  liquid: '液体余量',
  state: '工作状态',
  level: '纸量',
  reading: '读数',
  star_level: '评价星级',
  badattitude: '态度差',
  inefficiency: '效率低',
  poorsanitary: '卫生差',
  smelly: '有异味',
  content: '评价内容',
  pot_int: '上报间隔',
};
const GROUPS: Record<string, string> = { male: '男厕位', female: '女厕位', others: '其他厕位' };
const SUFFIX: Record<string, string> = { count: '数', occupy: '占用', time: '时长', times: '使用次数' };

function fieldHeader(key: string) {
  const m = /^(male|female|others)_(count|occupy|time|times)$/.exec(key);
  const label = m ? `${GROUPS[m[1]!]}${SUFFIX[m[2]!]}` : LABELS[key];
  return label ? `${label}(${key})` : key;
}

const KIND_LABEL = (kind: string) =>
  kind === 'sensor' ? '传感器' : (DEVICE_KINDS[kind as keyof typeof DEVICE_KINDS]?.label ?? kind);

/** 'YYYY-MM-DD HH:mm:ss' (UTC+8) in UTC ISO form for a timestamptz parameter. */
const isoOf = (local: string) =>
  new Date(Date.parse(`${local.replace(' ', 'T')}${TZ_OFFSET_ISO}`)).toISOString();

// columns() and rows() of one job receive the same parsed filter: resolve its devices once.
const resolved = new WeakMap<object, Promise<ExportDevice[]>>();

/**
 * The devices of the filter the caller may see: every id must be visible (a sensor through
 * its gateway), a kind alone may name at most 100.
 */
export function exportDevices(ctx: AppContext, caller: Caller, q: TelemetryExportQuery) {
  let p = resolved.get(q);
  if (!p) {
    p = resolveDevices(ctx, caller, q);
    resolved.set(q, p);
  }
  return p;
}

async function resolveDevices(ctx: AppContext, caller: Caller, q: TelemetryExportQuery) {
  const scope = await scopeOf(ctx, caller);
  const ids = [...new Set(q.ids ?? [])];
  const rows = await exportableDevices(ctx.db, scope, ids, q.kind, TELEMETRY_EXPORT.maxDevices + 1);
  if (ids.length) {
    const found = new Set(rows.map((r) => r.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      throw notFound(
        `设备不存在或无权查看${q.kind ? `（或不是${KIND_LABEL(q.kind)}）` : ''}：ID ${missing.slice(0, 10).join('、')}`,
      );
    }
  } else if (rows.length > TELEMETRY_EXPORT.maxDevices) {
    throw badRequest(
      `可见的${KIND_LABEL(q.kind!)}超过${TELEMETRY_EXPORT.maxDevices}台，请选择具体设备（一次最多${TELEMETRY_EXPORT.maxDevices}台）`,
    );
  }
  if (rows.length === 0) throw badRequest(`没有可导出的${q.kind ? KIND_LABEL(q.kind) : '设备'}`);
  return rows;
}

const PAD = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const DAY = 86_400_000;

/** Formats ms as local 'YYYY-MM-DD HH:mm:ss' (UTC+8), the date part cached per day: rows come in time order. */
export function timeFormatter() {
  let day = NaN;
  let prefix = '';
  return (ms: number) => {
    const local = ms + TZ_OFFSET_MS;
    const d = Math.floor(local / DAY);
    if (d !== day) {
      day = d;
      prefix = formatDateTime(d * DAY - TZ_OFFSET_MS).slice(0, 11);
    }
    let s = Math.floor((local - d * DAY) / 1000);
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    return `${prefix}${PAD[h]}:${PAD[m]}:${PAD[s - m * 60]}`;
  };
}

/** A microsecond epoch as an exact ISO timestamp parameter. */
const isoMicros = (us: number) => {
  const ms = Math.floor(us / 1000);
  return new Date(ms).toISOString().replace('Z', `${String(us - ms * 1000).padStart(3, '0')}Z`);
};

/**
 * Raw readings of one device, in time order, by keyset pages over (ts, msg_id): each query
 * is an index range scan of the device's partition(s), so memory and per-page cost stay flat
 * however long the range.
 */
export async function* deviceReadings(ctx: AppContext, deviceId: number, start: string, end: string) {
  let after: { us: number; msg: string } | null = null;
  for (;;) {
    const page: { us: number; msg_id: string; data: Record<string, unknown> }[] = after
      ? await telemetryPageAfter(ctx.db, deviceId, isoMicros(after.us), end, after.msg, TELEMETRY_PAGE)
      : await telemetryPage(ctx.db, deviceId, start, end, TELEMETRY_PAGE);
    if (page.length) yield page;
    if (page.length < TELEMETRY_PAGE) return;
    const last = page[page.length - 1]!;
    after = { us: last.us, msg: last.msg_id };
  }
}

/** 'telemetry': raw readings of up to 100 devices over up to 31 days, as CSV. */
export const telemetryExport = defineExport<TelemetryExportQuery>({
  name: 'telemetry',
  label: '历史数据',
  access: PERMISSION.visitor,
  format: 'csv',
  query: telemetryExportQuery,
  async prepare(ctx, caller, q) {
    await exportDevices(ctx, caller, q);
  },
  async columns(q, ctx, caller) {
    const devices = await exportDevices(ctx, caller, q);
    const keys: string[] = [];
    for (const kind of new Set(devices.map((d) => d.kind))) {
      const schema = REPORT_DATA[kind as ReportKind];
      if (schema) for (const k of Object.keys(schema.shape)) if (!keys.includes(k)) keys.push(k);
    }
    const cols: ExportColumn[] = [
      { header: '时间', key: 'time' },
      { header: '序列号', key: 'ser_num' },
      { header: '描述', key: 'desc' },
    ];
    return [...cols, ...keys.map((k) => ({ header: fieldHeader(k), key: k }))];
  },
  async count(ctx, caller, q) {
    const devices = await exportDevices(ctx, caller, q);
    return countTelemetry(
      ctx.db,
      devices.map((d) => d.id),
      isoOf(q.start),
      isoOf(q.end),
    );
  },
  async *rows(ctx, caller, q) {
    const devices = await exportDevices(ctx, caller, q);
    const time = timeFormatter();
    const [start, end] = [isoOf(q.start), isoOf(q.end)];
    for (const d of devices) {
      for await (const page of deviceReadings(ctx, d.id, start, end)) {
        const rows: Record<string, unknown>[] = new Array(page.length);
        for (let i = 0; i < page.length; i++) {
          const r = page[i]!;
          // The stored report holds only its kind's fields (unknown keys were dropped).
          const row = r.data;
          row.time = time(r.us / 1000);
          row.ser_num = d.ser_num;
          row.desc = d.desc;
          rows[i] = row;
        }
        yield rows;
      }
    }
  },
  summary(q) {
    const who = q.ids?.length ? `${q.ids.length}台设备` : `全部可见${KIND_LABEL(q.kind!)}`;
    return `${who}；${q.start} 至 ${q.end}`;
  },
  fileName: (q) =>
    `历史数据-${q.start.slice(0, 10).replace(/-/g, '')}-${q.end.slice(0, 10).replace(/-/g, '')}`,
});
