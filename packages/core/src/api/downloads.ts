import { z } from 'zod';

/**
 * Download centre (/download): every export runs as a background job whose file can be
 * fetched for DOWNLOAD_KEEP_DAYS. `name` picks a registered export, `params` is that
 * export's filter as a JSON object (the same filter its list call takes).
 */
export const DOWNLOAD_API = {
  list: '/api/v1/download/downloads',
  create: '/api/v1/download/create',
  get: '/api/v1/download/get-download',
  file: '/api/v1/download/file',
  remove: '/api/v1/download/delete',
} as const;

export const DOWNLOAD_KEEP_DAYS = 7;

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
