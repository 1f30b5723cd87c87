import { z } from 'zod';
import { FORMULA_MAX_LENGTH, tryCheckFormula } from '../formula.ts';
import { idList } from './devices.ts';
import { boolField, dateTimeField, idField, intField, keywordsField, pageQuery } from './envelope.ts';

/**
 * Formula rules (/notify-formula): when a formula over a device's readings holds for
 * `duration_s`, the rule fires (at most once per `cooldown_s` per device) and hands the hit to
 * the notification side with its template and recipients. A counting rule (`min_count` > 1)
 * fires instead when the formula held on `min_count` reports of a device within `window_s`
 * (e.g. 3 reviews of at most 2 stars within 30 minutes at a toilet's evaluation terminal).
 */
export const RULE_API = {
  list: '/api/v1/notify/rules',
  get: '/api/v1/notify/get-rule',
  add: '/api/v1/notify/add-rule',
  update: '/api/v1/notify/update-rule',
  check: '/api/v1/notify/check-formula',
  test: '/api/v1/notify/test-formula',
  hits: '/api/v1/notify/rule-hits',
  devices: '/api/v1/notify/rule-devices',
} as const;

export const RULE_SCOPES = {
  all: '我能看到的全部设备',
  devices: '指定设备',
  toilets: '指定厕所',
} as const;
export type RuleScope = keyof typeof RULE_SCOPES;
export const ruleScope = z.enum(['all', 'devices', 'toilets'], '范围只能是 all、devices 或 toilets');

/** Device kinds whose reports carry formula variables (gases, alarm flags, reviews). */
export const RULE_DEVICE_KINDS = ['gateway', 'sensor', 'jwb', 'evaluate'] as const;

export const RULE_LIMITS = {
  durationMax: 86_400,
  cooldownMax: 7 * 86_400,
  defaultCooldown: 600,
  /** A counting rule: at most this many reports, within at most windowMax seconds. */
  countMax: 100,
  windowMax: 7 * 86_400,
  /** Rules one user may keep (not deleted). */
  perUser: 200,
} as const;

const name = z.string().trim().min(1, '名称不能为空').max(50, '名称不能超过50个字符');

/** Formula text: checked with the core parser; the canonical form is what gets stored. */
export const formulaField = () =>
  z
    .string({ error: '公式不能为空' })
    .max(FORMULA_MAX_LENGTH, `公式不能超过 ${FORMULA_MAX_LENGTH} 个字符`)
    .transform((s, c) => {
      const r = tryCheckFormula(s);
      if (r.ok) return r.formula;
      c.addIssue({ code: 'custom', message: `公式错误：${r.message}` });
      return z.NEVER;
    });

const seconds = (label: string, max: number) =>
  intField(label).pipe(z.number().int().min(0, `${label}不能小于 0`).max(max, `${label}不能超过 ${max} 秒`));

/** '' / 0 / null mean "no template". */
const templateId = z.preprocess(
  (v) => (v === '' || v === null || v === 0 || v === '0' ? null : v),
  idField().nullable(),
);

const ruleFields = {
  name,
  formula: formulaField(),
  scope: ruleScope,
  device_ids: idList('device_ids'),
  toilet_ids: idList('toilet_ids'),
  duration_s: seconds('持续时间', RULE_LIMITS.durationMax),
  cooldown_s: seconds('冷却时间', RULE_LIMITS.cooldownMax),
  template_id: templateId,
  object_ids: idList('object_ids'),
  enabled: boolField(),
  min_count: intField('次数').pipe(
    z
      .number()
      .int()
      .min(1, '次数不能小于 1')
      .max(RULE_LIMITS.countMax, `次数不能超过 ${RULE_LIMITS.countMax}`),
  ),
  window_s: seconds('统计时间', RULE_LIMITS.windowMax),
};

/** A counting rule needs its window. */
const countRefine = (b: { min_count?: number; window_s?: number }, c: z.RefinementCtx) => {
  if (b.min_count !== undefined && b.min_count > 1 && b.window_s !== undefined && b.window_s <= 0)
    c.addIssue({ code: 'custom', path: ['window_s'], message: '按次数触发时，请填写统计时间' });
};

const scopeRefine = (
  b: { scope?: RuleScope; device_ids?: number[]; toilet_ids?: number[] },
  c: z.RefinementCtx,
) => {
  if (b.scope === 'devices' && !b.device_ids?.length)
    c.addIssue({ code: 'custom', path: ['device_ids'], message: '请选择至少一台设备' });
  if (b.scope === 'toilets' && !b.toilet_ids?.length)
    c.addIssue({ code: 'custom', path: ['toilet_ids'], message: '请选择至少一个厕所' });
};

export const addRuleBody = z
  .object({
    name: ruleFields.name,
    formula: ruleFields.formula,
    scope: ruleFields.scope.default('all'),
    device_ids: ruleFields.device_ids,
    toilet_ids: ruleFields.toilet_ids,
    duration_s: ruleFields.duration_s.default(0),
    cooldown_s: ruleFields.cooldown_s.default(RULE_LIMITS.defaultCooldown),
    template_id: ruleFields.template_id.optional(),
    object_ids: ruleFields.object_ids,
    enabled: ruleFields.enabled.default(true),
    min_count: ruleFields.min_count.default(1),
    window_s: ruleFields.window_s.default(0),
  })
  .superRefine(scopeRefine)
  .superRefine(countRefine);
export type AddRuleBody = z.output<typeof addRuleBody>;

/** Only the fields sent change; a scope change must come with its ids. */
export const updateRuleBody = z
  .object({
    id: idField(),
    is_delete: boolField().optional(),
    name: ruleFields.name.optional(),
    formula: ruleFields.formula.optional(),
    scope: ruleFields.scope.optional(),
    device_ids: ruleFields.device_ids.optional(),
    toilet_ids: ruleFields.toilet_ids.optional(),
    duration_s: ruleFields.duration_s.optional(),
    cooldown_s: ruleFields.cooldown_s.optional(),
    template_id: ruleFields.template_id.optional(),
    object_ids: ruleFields.object_ids.optional(),
    enabled: ruleFields.enabled.optional(),
    min_count: ruleFields.min_count.optional(),
    window_s: ruleFields.window_s.optional(),
  })
  .superRefine(scopeRefine)
  .superRefine(countRefine);
export type UpdateRuleBody = z.output<typeof updateRuleBody>;

export const rulesQuery = pageQuery.extend({
  keywords: keywordsField(),
  enabled: boolField().optional(),
});

export const ruleRow = z.object({
  id: z.number(),
  user_id: z.number(),
  name: z.string(),
  formula: z.string(),
  scope: ruleScope,
  device_ids: z.array(z.number()),
  toilet_ids: z.array(z.number()),
  /** Serial numbers / names of the bound devices and toilets, in id order. */
  device_labels: z.array(z.string()),
  toilet_labels: z.array(z.string()),
  duration_s: z.number(),
  cooldown_s: z.number(),
  /** 1: the formula must hold for duration_s; more: on this many reports within window_s. */
  min_count: z.number(),
  window_s: z.number(),
  template_id: z.number().nullable(),
  template_name: z.string(),
  object_ids: z.array(z.number()),
  object_names: z.array(z.string()),
  enabled: z.boolean(),
  is_delete: z.boolean(),
  hit_count: z.number(),
  last_fired_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RuleRow = z.infer<typeof ruleRow>;

/** What a rule keeps besides its owner and bookkeeping: what adding sets and an edit may change. */
export const RULE_VALUE_KEYS = [
  'name',
  'formula',
  'scope',
  'device_ids',
  'toilet_ids',
  'duration_s',
  'cooldown_s',
  'template_id',
  'object_ids',
  'enabled',
  'min_count',
  'window_s',
] as const;
export type RuleValues = Pick<RuleRow, (typeof RULE_VALUE_KEYS)[number]>;

export const checkFormulaBody = z.object({
  formula: z.string().max(10_000, '公式过长'),
});

export const formulaCheckResult = z.union([
  z.object({ ok: z.literal(true), formula: z.string(), vars: z.array(z.string()) }),
  z.object({
    ok: z.literal(false),
    pos: z.number(),
    end: z.number(),
    reason: z.string(),
    message: z.string(),
  }),
]);

export const testFormulaBody = z.object({
  formula: formulaField(),
  device_id: idField(),
});

export const formulaTestResult = z.object({
  device_id: z.number(),
  ser_num: z.string(),
  desc: z.string(),
  /** The latest report time, ms; null before the first report. */
  time: z.number().nullable(),
  /** The readings the formula saw. */
  values: z.record(z.string(), z.union([z.number(), z.boolean()])),
  /** Variables the formula reads that the device has not reported. */
  missing: z.array(z.string()),
  /** true / false; null when a missing variable left it unknown. */
  result: z.boolean().nullable(),
});
export type FormulaTestResult = z.infer<typeof formulaTestResult>;

export const ruleHitsQuery = pageQuery.extend({
  rule_id: idField().optional(),
  device_id: idField().optional(),
  start: dateTimeField().optional(),
  end: dateTimeField().optional(),
});

export const ruleHitRow = z.object({
  id: z.number(),
  rule_id: z.number(),
  rule_name: z.string(),
  device_id: z.number(),
  ser_num: z.string(),
  desc: z.string(),
  formula: z.string(),
  values: z.record(z.string(), z.unknown()),
  fired_at: z.string(),
  /** Why the notification side could not take the hit; null when it did. */
  dispatch_error: z.string().nullable(),
});
export type RuleHitRow = z.infer<typeof ruleHitRow>;

export const ruleDevicesQuery = pageQuery.extend({
  keywords: keywordsField(),
  /** Fetch these ids (labels of a rule's current selection). */
  ids: idList('ids').optional(),
});

export const ruleDeviceRow = z.object({
  id: z.number(),
  kind: z.string(),
  ser_num: z.string(),
  desc: z.string(),
  location: z.string(),
});
export type RuleDeviceRow = z.infer<typeof ruleDeviceRow>;
