import { z } from 'zod';
import { idList } from './devices.ts';
import { boolField, dateTimeField, idField, intField, keywordsField, pageOf, pageQuery } from './envelope.ts';
import { MAX_RESPONSE_HOURS } from './maintenance.ts';

/**
 * Planned maintenance (issue 18, 计划保养): plans per equipment type or per device/toilet that
 * open a work order of kind 保养 on time, with a checklist ticked off step by step. The plans
 * screen is a tab of /maintenance-records (SPEC §2 has no route of its own for it).
 */
export const PLAN_API = {
  list: '/api/v1/maintenance/plans',
  add: '/api/v1/maintenance/add-plan',
  /** Edit, pause (enabled=false), delete (is_delete=true). */
  update: '/api/v1/maintenance/update-plan',
  /** Who a plan may be assigned to: those who see its device or toilet (whole type: the caller's subtree). */
  assignees: '/api/v1/maintenance/plan-assignees',
  /** Tick (or untick) one step of a 保养 order's checklist. */
  checkStep: '/api/v1/maintenance/check-step',
} as const;

/**
 * Maintenance teams (维修班组): a plan goes to a person or to a team; the order a team plan
 * opens goes to the team's lead and every member is told. A tab of /maintenance-records.
 */
export const TEAM_API = {
  list: '/api/v1/maintenance/teams',
  add: '/api/v1/maintenance/add-team',
  /** Edit or delete (is_delete=true; refused while a live plan uses it). */
  update: '/api/v1/maintenance/update-team',
} as const;
export const TEAM_LIMITS = { members: 50 } as const;

/**
 * What makes a plan due: days since the last order, or what the device reported since then
 * (from the hourly telemetry rollups): hours in which it reported, uses counted by the toilet's
 * gateway (male/female/others_times), liquid a dispenser used (the sum of its level's drops).
 */
export const PLAN_TRIGGERS = {
  days: { label: '按周期', unit: '天', max: 3650 },
  hours: { label: '按运行时长', unit: '小时', max: 100_000 },
  uses: { label: '按使用人次', unit: '人次', max: 10_000_000 },
  liquid: { label: '按用液量', unit: 'ml', max: 1_000_000 },
} as const;
export type PlanTrigger = keyof typeof PLAN_TRIGGERS;

/** The device kinds whose reports count towards a usage trigger (others have no such data). */
export const TRIGGER_KINDS: Record<Exclude<PlanTrigger, 'days'>, readonly string[]> = {
  hours: ['jwb', 'gateway', 'sensor', 'evaluate', 'electric_meter', 'water_meter', 'paper_machine'],
  uses: ['gateway'],
  liquid: ['jwb'],
};

/** A plan is shown as due soon when its next order falls within this many days (or 80% used). */
export const PLAN_DUE_SOON_DAYS = 7;
export const PLAN_LIMITS = { steps: 30, stepLength: 100 } as const;

const text = (label: string, max: number) => z.string().trim().max(max, `${label}不能超过${max}个字符`);

export const planRow = z.object({
  id: z.number(),
  name: z.string(),
  equipment_type_id: z.number(),
  equipment_type_name: z.string(),
  /** One device, one toilet, or neither: every device of the type the owner sees. */
  device_id: z.number().nullable(),
  ser_num: z.string(),
  toilet_id: z.number().nullable(),
  toilet_name: z.string(),
  trigger: z.string(),
  every: z.number(),
  starts_at: z.string(),
  response_hours: z.number(),
  assignee_id: z.number().nullable(),
  assignee_name: z.string(),
  /** The team it goes to instead of a person (its lead gets the order). */
  team_id: z.number().nullable(),
  team_name: z.string(),
  checklist: z.array(z.string()),
  enabled: z.boolean(),
  note: z.string(),
  user_id: z.number(),
  user_name: z.string(),
  /** The caller may edit and delete it (created it or is above its creator). */
  editable: z.boolean(),
  /** Devices or toilets it covers now. */
  targets: z.number(),
  /** Days plans: when the next order opens (the earliest of its targets). */
  next_due_at: z.string().nullable(),
  /** Usage plans: the most used target's share of `every` since its last order (1 = due). */
  progress: z.number().nullable(),
  /** Due within PLAN_DUE_SOON_DAYS (or 80% used), or due now. */
  due_soon: z.boolean(),
  /** An order it opened is past its deadline, or a due date passed without an order. */
  overdue: z.boolean(),
  open_orders: z.number(),
  last_opened_at: z.string().nullable(),
  created_at: z.string(),
});
export type PlanRow = z.infer<typeof planRow>;
export const planPage = pageOf(planRow);

const trigger = z.enum(Object.keys(PLAN_TRIGGERS) as [PlanTrigger], '触发方式取值无效');

export const plansQuery = pageQuery.extend({
  keywords: keywordsField(),
  /** week: due within the week (overdue ones included); overdue: overdue only. */
  due: z.enum(['week', 'overdue'], '到期筛选取值无效').optional(),
  trigger: trigger.optional(),
  equipment_type_id: idField().optional(),
  toilet_id: idField().optional(),
  device_id: idField().optional(),
  enabled: boolField().optional(),
});
export type PlansQuery = z.infer<typeof plansQuery>;

const checklist = z.preprocess(
  (v) => (typeof v === 'string' ? v.split('\n') : v),
  z
    .array(text('检查项', PLAN_LIMITS.stepLength), { error: '检查项格式不正确' })
    .transform((a) => a.filter((s) => s !== ''))
    .pipe(z.array(z.string()).max(PLAN_LIMITS.steps, `检查项不能超过${PLAN_LIMITS.steps}条`)),
);

/** The fields a plan is edited by (no defaults: an edit leaves out what does not change). */
const planFields = {
  name: text('计划名称', 50).min(1, '请输入计划名称'),
  equipment_type_id: idField(),
  trigger,
  every: intField('间隔').pipe(z.number().int().min(1, '间隔至少为1').max(10_000_000, '间隔过大')),
  starts_at: dateTimeField(),
  response_hours: intField('完成时限').pipe(
    z
      .number()
      .int()
      .min(1, '完成时限至少1小时')
      .max(MAX_RESPONSE_HOURS, `完成时限不能超过${MAX_RESPONSE_HOURS}小时`),
  ),
  checklist,
  enabled: boolField(),
  note: text('备注', 200),
};

/** A new plan: for one device (serial number or id), one toilet, or the whole equipment type. */
export const addPlanBody = z.object({
  ...planFields,
  trigger: planFields.trigger.default('days'),
  starts_at: planFields.starts_at.optional(),
  response_hours: planFields.response_hours.default(72),
  checklist: planFields.checklist.default([]),
  enabled: planFields.enabled.default(true),
  note: planFields.note.default(''),
  assignee_id: idField().optional(),
  /** A team instead of a person (not both). */
  team_id: idField().optional(),
  device_id: idField().optional(),
  ser_num: z.string().trim().max(64, '序列号不能超过64个字符').optional(),
  toilet_id: idField().optional(),
});
export type AddPlanBody = z.infer<typeof addPlanBody>;

/** What it covers does not change (delete the plan and add another); the rest does. */
export const updatePlanBody = z
  .object(planFields)
  .omit({ equipment_type_id: true })
  .partial()
  .extend({
    id: idField(),
    /** null: nobody (the order waits in 待派单). */
    assignee_id: z.union([idField(), z.null()]).optional(),
    /** A team instead of a person; setting one clears the other. null: no team. */
    team_id: z.union([idField(), z.null()]).optional(),
    is_delete: boolField().optional(),
  });
export type UpdatePlanBody = z.infer<typeof updatePlanBody>;

export const checkStepBody = z.object({
  id: idField(),
  n: intField('序号').pipe(
    z
      .number()
      .int()
      .min(0, '序号取值无效')
      .max(PLAN_LIMITS.steps - 1, '序号取值无效'),
  ),
  done: boolField(),
});

export const planAssigneesQuery = z.object({
  device_id: idField().optional(),
  ser_num: z.string().trim().max(64, '序列号不能超过64个字符').optional(),
  toilet_id: idField().optional(),
  keywords: keywordsField(),
});

export const teamRow = z.object({
  id: z.number(),
  name: z.string(),
  lead_id: z.number(),
  lead_name: z.string(),
  members: z.array(z.object({ id: z.number(), user_name: z.string() })),
  note: z.string(),
  user_id: z.number(),
  user_name: z.string(),
  /** Live plans that go to it. */
  plan_count: z.number(),
  /** Its orders still open. */
  open_orders: z.number(),
  created_at: z.string(),
});
export type TeamRow = z.infer<typeof teamRow>;
export const teamPage = pageOf(teamRow);
export const teamsQuery = pageQuery.extend({ keywords: keywordsField() });

const teamFields = {
  name: text('班组名称', 50).min(1, '请输入班组名称'),
  lead_id: idField(),
  /** The lead is a member whether listed or not. */
  member_ids: idList('班组成员').pipe(
    z.array(z.number()).max(TEAM_LIMITS.members, `班组成员不能超过${TEAM_LIMITS.members}人`),
  ),
  note: text('备注', 200),
};
export const addTeamBody = z.object({
  ...teamFields,
  member_ids: teamFields.member_ids.default([]),
  note: teamFields.note.default(''),
});
export type AddTeamBody = z.infer<typeof addTeamBody>;
export const updateTeamBody = z
  .object(teamFields)
  .partial()
  .extend({ id: idField(), is_delete: boolField().optional() });
export type UpdateTeamBody = z.infer<typeof updateTeamBody>;
