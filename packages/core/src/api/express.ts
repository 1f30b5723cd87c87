import { z } from 'zod';
import { boolField, idField, intField, keywordsField, pageOf, pageQuery } from './envelope.ts';

/**
 * Courier orders (issue 18, 快递单): spare parts or devices shipped to a site or back to the
 * factory, optionally for a work order. An account's own rows (modules/owned).
 */
export const EXPRESS_API = {
  list: '/api/v1/express/orders',
  add: '/api/v1/express/add-order',
  update: '/api/v1/express/update-order',
} as const;

/** Courier companies and the tracking-number format each uses (upper-cased before the check). */
export const COURIERS = [
  { value: 'sf', label: '顺丰', pattern: /^SF\d{12,13}$/, example: 'SF1234567890123' },
  { value: 'jd', label: '京东', pattern: /^JD[A-Z0-9]{13,18}$/, example: 'JDVA12345678901' },
  { value: 'zto', label: '中通', pattern: /^\d{12,15}$/, example: '734567890123' },
  { value: 'yto', label: '圆通', pattern: /^YT\d{13,15}$/, example: 'YT1234567890123' },
  { value: 'sto', label: '申通', pattern: /^\d{12,15}$/, example: '773456789012' },
  { value: 'yunda', label: '韵达', pattern: /^\d{13,15}$/, example: '4312345678901' },
  { value: 'ems', label: 'EMS', pattern: /^([A-Z]{2}\d{9}[A-Z]{2}|\d{13})$/, example: 'EA123456789CN' },
  { value: 'other', label: '其他', pattern: /^[A-Z0-9-]{6,30}$/, example: 'ABC-123456' },
] as const;
export type Courier = (typeof COURIERS)[number]['value'];
export const courierLabel = (v: string) => COURIERS.find((c) => c.value === v)?.label ?? v;

/** The refusal of a tracking number for a company, or null when it fits. */
export function trackingNoError(company: string, trackingNo: string): string | null {
  const c = COURIERS.find((x) => x.value === company);
  if (!c) return '快递公司取值无效';
  if (!c.pattern.test(trackingNo.trim().toUpperCase()))
    return `${c.label}单号格式不正确（例如 ${c.example}）`;
  return null;
}

export const EXPRESS_STATUS_LABELS = ['已下单', '运输中', '已签收'] as const;

const text = (label: string, max: number) => z.string().trim().max(max, `${label}不能超过${max}个字符`);
const required = (label: string, max: number) => text(label, max).min(1, `请输入${label}`);
const phone = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^(1\d{10}|0\d{2,3}-?\d{7,8}|400-?\d{3}-?\d{4})$/, `${label}格式不正确`);

export const expressItem = z.object({
  /** A device shipped, by serial number ('' for a part). */
  ser_num: text('序列号', 64).default(''),
  name: text('物品名称', 50).default(''),
  quantity: intField('数量')
    .pipe(z.number().int().min(1, '数量至少为1').max(9999, '数量不能超过9999'))
    .default(1),
});
export type ExpressItem = z.infer<typeof expressItem>;

const items = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  },
  z
    .array(expressItem, { error: '物品格式不正确' })
    .min(1, '请至少添加一件物品')
    .max(50, '物品不能超过50项')
    .refine((xs) => xs.every((x) => x.ser_num || x.name), { message: '每件物品请填写设备序列号或名称' }),
);

const status = intField('状态').pipe(
  z
    .number()
    .int()
    .min(0, '状态取值无效')
    .max(EXPRESS_STATUS_LABELS.length - 1, '状态取值无效'),
);

const orderFields = {
  company: z.enum(COURIERS.map((c) => c.value) as [Courier], '快递公司取值无效'),
  tracking_no: required('快递单号', 30).transform((s) => s.toUpperCase()),
  sender_name: required('寄件人', 30),
  sender_phone: phone('寄件人电话'),
  sender_address: required('寄件地址', 200),
  receiver_name: required('收件人', 30),
  receiver_phone: phone('收件人电话'),
  receiver_address: required('收件地址', 200),
  items,
  record_id: idField().optional(),
  status: status.default(0),
  note: text('备注', 200).default(''),
};

const trackingFits = (o: { company?: string; tracking_no?: string }, ctx: z.RefinementCtx) => {
  if (o.company === undefined || o.tracking_no === undefined) return;
  const err = trackingNoError(o.company, o.tracking_no);
  if (err) ctx.addIssue({ code: 'custom', message: err, path: ['tracking_no'] });
};

export const addExpressBody = z.object(orderFields).superRefine(trackingFits);
export type AddExpressBody = z.infer<typeof addExpressBody>;

export const updateExpressBody = z
  .object({
    id: idField(),
    is_delete: boolField().optional(),
    ...Object.fromEntries(Object.entries(orderFields).map(([k, v]) => [k, v.optional()])),
  } as { id: ReturnType<typeof idField>; is_delete: z.ZodOptional<ReturnType<typeof boolField>> } & {
    [K in keyof typeof orderFields]: z.ZodOptional<(typeof orderFields)[K]>;
  })
  .superRefine(trackingFits);

export const expressRow = z.object({
  id: z.number(),
  company: z.string(),
  tracking_no: z.string(),
  sender_name: z.string(),
  sender_phone: z.string(),
  sender_address: z.string(),
  receiver_name: z.string(),
  receiver_phone: z.string(),
  receiver_address: z.string(),
  items: z.array(z.object({ ser_num: z.string(), name: z.string(), quantity: z.number() })),
  record_id: z.number().nullable(),
  record_no: z.string(),
  status: z.number(),
  note: z.string(),
  user_name: z.string(),
  created_at: z.string(),
});
export type ExpressRow = z.infer<typeof expressRow>;
export const expressPage = pageOf(expressRow);

export const expressQuery = pageQuery.extend({
  target_user_id: idField().optional(),
  keywords: keywordsField(),
  company: z.enum(COURIERS.map((c) => c.value) as [Courier], '快递公司取值无效').optional(),
  status: status.optional(),
  record_id: idField().optional(),
});
