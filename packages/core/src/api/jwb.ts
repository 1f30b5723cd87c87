import { z } from 'zod';
import { ENVIRONMENT_PRESETS, JWB_CACHE_OPS, PARAMETER_DEFAULTS, SENSOR_OPS, WEEKDAYS } from '../devices.ts';
import { idField, intField, pageQuery } from './envelope.ts';

const hhmm = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, '时间格式应为 HH:MM');

const schedule = Object.fromEntries(
  WEEKDAYS.flatMap((d) => [
    [`${d}_start`, hhmm.optional()],
    [`${d}_end`, hhmm.optional()],
  ]),
) as Record<`${(typeof WEEKDAYS)[number]}_${'start' | 'end'}`, z.ZodOptional<typeof hhmm>>;

const smallInt = (label: string) =>
  intField().pipe(z.number().int().min(0, `${label}不能小于0`).max(1_000_000, `${label}过大`));

/** Dispenser config (SPEC §3 "Device config"): weekly schedule and working settings. */
export const jwbConfig = z.object({
  id: z.number(),
  device_id: z.number(),
  is_delete: z.boolean(),
  config_name: z.string(),
  ...(Object.fromEntries(
    WEEKDAYS.flatMap((d) => [
      [`${d}_start`, z.string()],
      [`${d}_end`, z.string()],
    ]),
  ) as Record<`${(typeof WEEKDAYS)[number]}_${'start' | 'end'}`, z.ZodString>),
  work_mode: z.number(),
  work_fre: z.number(),
  all_fre: z.number(),
  ip_address: z.string(),
  work_limit: z.number(),
  config_date: z.string(),
});
export type JwbConfig = z.infer<typeof jwbConfig>;

export const updateConfigBody = z.object({
  /** The dispenser's id. */
  id: idField(),
  config_name: z.string().trim().max(20, '配置名称不能超过20个字符').optional(),
  ...schedule,
  work_mode: smallInt('工作模式').optional(),
  work_fre: smallInt('工作频率').optional(),
  all_fre: smallInt('总频率').optional(),
  ip_address: z.string().trim().max(100, 'IP 地址不能超过100个字符').optional(),
  work_limit: smallInt('工作上限').optional(),
});
export type UpdateConfigBody = z.infer<typeof updateConfigBody>;

type NumericParam = Exclude<
  keyof typeof PARAMETER_DEFAULTS,
  'parameter_desc' | 'environment' | 'parameter_num'
>;
export const NUMERIC_PARAMS = Object.keys(PARAMETER_DEFAULTS).filter(
  (k) => !['parameter_desc', 'environment', 'parameter_num'].includes(k),
) as NumericParam[];

const paramNumber = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z.number({ error: '参数必须是数字' }).finite().min(-100_000).max(100_000),
);
const environment = z.enum(
  ENVIRONMENT_PRESETS.map((p) => p.environment) as [string, ...string[]],
  '应用环境取值无效',
);

export const parameterSet = z.object({
  id: z.number(),
  is_delete: z.boolean(),
  parameter_desc: z.string(),
  parameter_num: z.number(),
  ...(Object.fromEntries(NUMERIC_PARAMS.map((k) => [k, z.number()])) as Record<NumericParam, z.ZodNumber>),
  environment: z.string(),
  user_id: z.number().nullable(),
  shared: z.boolean(),
});
export type ParameterSet = z.infer<typeof parameterSet>;

const paramFields = Object.fromEntries(NUMERIC_PARAMS.map((k) => [k, paramNumber.optional()])) as Record<
  NumericParam,
  z.ZodOptional<typeof paramNumber>
>;

export const addParameterBody = z.object({
  parameter_desc: z.string().trim().max(50, '参数说明不能超过50个字符').default(''),
  ...paramFields,
  environment: environment.optional(),
});

export const updateParameterBody = z.object({
  id: idField(),
  is_delete: z.preprocess((v) => v === 'true' || v === true || v === '1', z.boolean()).optional(),
  parameter_desc: z.string().trim().max(50, '参数说明不能超过50个字符').optional(),
  ...paramFields,
  environment: environment.optional(),
});

export const parameterListQuery = pageQuery.extend({
  keywords: z.string().trim().max(100).optional(),
});

export const applyParameterBody = z.object({ id: idField(), parameter_num: idField() });

export const cacheOperationBody = z.object({
  id: idField(),
  op: intField().pipe(
    z
      .number()
      .int()
      .refine(
        (n) => Object.values(JWB_CACHE_OPS).includes(n as 0),
        '操作只能是 0 重启、1 强力、2 深度睡眠、3 氨气校准',
      ),
  ),
});

export const sensorOperationBody = z.object({
  /** The gateway's id. */
  id: idField(),
  op: intField().pipe(
    z
      .number()
      .int()
      .refine((n) => Object.values(SENSOR_OPS).includes(n as 0), '操作只能是 0 搜索、1 删除、2 清空、3 添加'),
  ),
  ser_num: z.string().trim().max(64).optional(),
});

export const COMMAND_STATUS = {
  pending: '待下发',
  sent: '已下发',
  done: '已完成',
  failed: '失败',
  timeout: '超时',
} as const;
export type CommandStatus = keyof typeof COMMAND_STATUS;

export const COMMAND_TYPES = {
  cache: '缓存操作',
  sensor: '传感器操作',
  config: '配置下发',
  parameter: '参数下发',
  /** Clock-in terminals: the employee list (issue 16). */
  employees: '同步员工',
} as const;

export const CACHE_OP_LABELS = ['重启', '强力', '深度睡眠', '氨气校准'] as const;
export const SENSOR_OP_LABELS = ['搜索', '删除', '清空', '添加'] as const;

export const deviceCommand = z.object({
  id: z.number(),
  device_id: z.number(),
  type: z.string(),
  op: z.number().nullable(),
  payload: z.unknown(),
  status: z.string(),
  created_by_name: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  done_at: z.string().nullable(),
  result: z.string(),
});
export type DeviceCommand = z.infer<typeof deviceCommand>;

export const commandListQuery = pageQuery.extend({ device_id: idField() });

/** A command not closed by the device within this time reads 超时. */
export const COMMAND_TIMEOUT_MS = 10 * 60_000;

export const JWB_API = {
  getConfig: '/api/v1/jwb/get-config',
  updateConfig: '/api/v1/jwb/update-config',
  parameters: '/api/v1/jwb/parameters',
  getParameter: '/api/v1/jwb/get-parameter',
  addParameter: '/api/v1/jwb/add-parameter',
  updateParameter: '/api/v1/jwb/update-parameter',
  applyParameter: '/api/v1/jwb/apply-parameter',
  cacheOperation: '/api/v1/jwb/cache-operation',
  sensorOperation: '/api/v1/gateway/sensor-operation',
  commands: '/api/v1/device/commands',
} as const;
