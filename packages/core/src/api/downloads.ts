import { z } from 'zod';
import { dateTimeField, idField, intField, pageOf, pageQuery } from './envelope.ts';
import { DEVICE_KINDS, idList } from './devices.ts';

/**
 * Download centre (/download): every export runs as a background job whose file can be
 * fetched for DOWNLOAD_KEEP_DAYS. `name` picks a registered export, `params` is that
 * export's filter as a JSON object (the same filter its list call takes).
 */
export const DOWNLOAD_API = {
  list: '/api/v1/download/downloads',
  create: '/api/v1/download/create',
  get: '/api/v1/download/get-download',
  /** A short-lived signed link to the file (browsers cannot add headers to a link). */
  sign: '/api/v1/download/file-url',
  file: '/api/v1/download/file',
  remove: '/api/v1/download/delete',
} as const;

export const DOWNLOAD_KEEP_DAYS = 7;
/** How long a signed file link stays valid. */
export const DOWNLOAD_LINK_MS = 5 * 60_000;

export const createDownloadBody = z.object({
  /** A registered export: 'devices', 'comments', 'telemetry', … */
  name: z.string().trim().min(1, '导出类型不能为空').max(40),
  /** The export's filter as JSON text (form bodies) or an object (JSON bodies). */
  params: z
    .union([z.string().max(8000), z.record(z.string(), z.unknown())])
    .optional()
    .transform((v, c) => {
      if (v === undefined || v === '') return {};
      if (typeof v !== 'string') return v;
      try {
        const o: unknown = JSON.parse(v);
        if (o && typeof o === 'object' && !Array.isArray(o)) return o as Record<string, unknown>;
      } catch {
        /* reported below */
      }
      c.addIssue({ code: 'custom', message: '导出参数不是合法的 JSON 对象' });
      return z.NEVER;
    }),
});
export type CreateDownloadBody = z.input<typeof createDownloadBody>;

export const DOWNLOAD_STATUS = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type DownloadStatus = (typeof DOWNLOAD_STATUS)[number];
export const DOWNLOAD_STATUS_LABELS: Record<DownloadStatus, string> = {
  queued: '排队中',
  running: '导出中',
  done: '已完成',
  failed: '失败',
  expired: '已过期',
};

export const downloadListQuery = pageQuery.extend({
  status: z.enum(DOWNLOAD_STATUS, '状态只能是 queued、running、done、failed、expired').optional(),
});
export type DownloadListQuery = z.infer<typeof downloadListQuery>;

export const downloadIdQuery = z.object({ id: idField() });
export const downloadIdBody = downloadIdQuery;

/** One job of the centre. Times are 'YYYY-MM-DD HH:mm:ss' in UTC+8. */
export const downloadRow = z.object({
  id: z.number(),
  name: z.string(),
  label: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** The filter in words, e.g. 类型：网关；关键字：西湖. */
  summary: z.string(),
  format: z.enum(['xlsx', 'csv']),
  status: z.enum(DOWNLOAD_STATUS),
  rows_done: z.number(),
  /** Expected rows; null when the export cannot tell in advance. */
  total: z.number().nullable(),
  file_name: z.string(),
  size: z.number().nullable(),
  error: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** When the file is deleted (done/failed jobs only). */
  expires_at: z.string().nullable(),
  /** Milliseconds until expires_at by the server's clock; null while unfinished. */
  expires_in_ms: z.number().nullable(),
});
export type DownloadRow = z.infer<typeof downloadRow>;

export const downloadPage = pageOf(downloadRow, {
  /** Jobs of the caller still queued or running (the page polls while any). */
  active: z.number(),
});
export type DownloadPage = z.infer<typeof downloadPage>;

export const downloadLink = z.object({ url: z.string(), expires_at: z.number() });

/** The signed link's query: job id, expiry (ms since epoch) and HMAC. */
export const downloadFileQuery = z.object({
  id: idField(),
  expires: intField().pipe(z.number().int().min(0)),
  sig: z.string().trim().min(1, '下载链接无效').max(200),
});

/** Telemetry export limits (issue 6: a month of 100 devices must finish). */
export const TELEMETRY_EXPORT = { maxDevices: 100, maxDays: 31 } as const;

/** Kinds whose raw readings can be exported: the registry's kinds plus gateway sensors. */
export const TELEMETRY_KINDS = [
  ...(Object.keys(DEVICE_KINDS) as (keyof typeof DEVICE_KINDS)[]),
  'sensor',
] as const;
export type TelemetryKind = (typeof TELEMETRY_KINDS)[number];

/**
 * 'telemetry' export: raw readings of chosen devices (ids) or of every visible device of a
 * kind, over a window of at most 31 days (UTC+8).
 */
export const telemetryExportQuery = z
  .object({
    ids: idList('ids').optional(),
    kind: z.enum(TELEMETRY_KINDS, '设备类型不正确').optional(),
    start: z.string({ error: '请填写开始时间' }).pipe(dateTimeField()),
    end: z.string({ error: '请填写结束时间' }).pipe(dateTimeField()),
  })
  .superRefine((q, c) => {
    const ids = q.ids ?? [];
    if (ids.length === 0 && !q.kind)
      c.addIssue({ code: 'custom', message: '请选择设备或设备类型', path: ['ids'] });
    if (ids.length > TELEMETRY_EXPORT.maxDevices) {
      c.addIssue({
        code: 'custom',
        message: `一次最多导出${TELEMETRY_EXPORT.maxDevices}台设备`,
        path: ['ids'],
      });
    }
    const span = Date.parse(q.end.replace(' ', 'T') + 'Z') - Date.parse(q.start.replace(' ', 'T') + 'Z');
    if (!(span > 0)) c.addIssue({ code: 'custom', message: '结束时间必须晚于开始时间', path: ['end'] });
    else if (span > TELEMETRY_EXPORT.maxDays * 86_400_000) {
      c.addIssue({ code: 'custom', message: `时间范围不能超过${TELEMETRY_EXPORT.maxDays}天`, path: ['end'] });
    }
  });
export type TelemetryExportQuery = z.infer<typeof telemetryExportQuery>;
