import { z } from 'zod';
import { normalizeDate } from '../format.ts';

/** Body codes (SPEC §8, ARCHITECTURE §3). Every response is HTTP 200 with one of these. */
export const CODE = {
  ok: 200,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  rateLimited: 429,
  server: 500,
  unavailable: 503,
  expired: 4001,
  revoked: 4002,
} as const;

export type Code = (typeof CODE)[keyof typeof CODE];

/** Codes after which the client clears its session and goes to the login page. */
export const SESSION_CODES: readonly number[] = [CODE.unauthorized, CODE.expired, CODE.revoked];

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** SPEC §9 page sizes; default 10. */
export const PAGE_SIZES = [10, 20, 30, 40, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

/**
 * A list counts its rows exactly up to this many; past it `total` is an estimate and the
 * answer says so (`estimated: true`, shown as "约 N 条"), so no count scans a whole tenant.
 */
export const EXACT_COUNT_LIMIT = 1_000;

export interface Page<T> {
  list: T[];
  total: number;
  /** True when `total` is an estimate (more than EXACT_COUNT_LIMIT rows match). */
  estimated?: boolean;
  page: number;
  page_size: number;
}

/** Form posts carry every value as text: these read text and typed JSON alike. */
export const intField = (label?: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
    z
      .number({ error: label ? `${label}必须是整数` : undefined })
      .int()
      .safe(),
  );

export const idField = () => intField().pipe(z.number().int().min(1).max(2_147_483_647));

export const boolField = () =>
  z.preprocess((v) => {
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number') return v !== 0;
    if (typeof v === 'string') {
      const t = v.trim().toLowerCase();
      if (['true', '1', 'on', 'yes'].includes(t)) return true;
      if (['false', '0', 'off', 'no', ''].includes(t)) return false;
    }
    return v;
  }, z.boolean());

/** 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss' (SPEC §5), normalised to the long form. */
export const dateTimeField = () =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      const d = normalizeDate(s);
      if (!d) {
        ctx.addIssue({ code: 'custom', message: '时间格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss' });
        return z.NEVER;
      }
      return d;
    });

export const pageQuery = z.object({
  page: intField().pipe(z.number().int().min(1).max(1_000_000)).default(1),
  page_size: intField()
    .pipe(
      z
        .number()
        .int()
        .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), {
          message: `每页条数只能是 ${PAGE_SIZES.join('、')}`,
        }),
    )
    .default(DEFAULT_PAGE_SIZE),
});

export type PageQuery = z.infer<typeof pageQuery>;

/** A list page's answer (`Page<T>`) as a schema; `extra` adds fields beside the four. */
export const pageOf = <T extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(
  item: T,
  extra?: E,
) =>
  z
    .object({
      list: z.array(item),
      total: z.number(),
      estimated: z.boolean().optional(),
      page: z.number(),
      page_size: z.number(),
    })
    .extend(extra ?? ({} as E));

/** The free-text search box of a list (SPEC §9). */
export const keywordsField = () => z.string().trim().max(100, '关键字不能超过100个字符').optional();

/** Chinese names of fields, used in validation messages on both sides. */
export const FIELD_LABELS: Record<string, string> = {
  filter: '账号',
  password: '密码',
  password1: '密码',
  password2: '确认密码',
  old_password: '原密码',
  remeber: '记住我',
  email: '邮箱',
  email_captcha: '邮箱验证码',
  pending_email: '待确认邮箱',
  code: '验证码',
  purpose: '用途',
  user_name: '用户名',
  phone_num: '联系电话',
  token: '令牌',
  open_token: '小程序令牌',
  app_id: '小程序 AppID',
  user_id: '用户ID',
  target_user_id: '目标用户ID',
  id: 'ID',
  is_delete: '删除标记',
  company_name: '公司名称',
  company_address: '公司地址',
  permissions: '权限',
  services: '服务',
  page: '页码',
  page_size: '每页条数',
  keywords: '关键字',
  name: '名称',
  url: '地址',
  failures: '失败次数',
  network: '来源网络',
  network_locked: '已锁定该网络',
};
