import { z } from 'zod';
import { boolField, dateTimeField, idField, intField, keywordsField, pageOf, pageQuery } from './envelope.ts';

/**
 * Maintenance service (issue 18, 维修服务): the equipment-type and fault-type catalogues and
 * the repair work orders (维修记录) from report to acceptance. SPEC §2 gives only the routes;
 * the rest is our design (docs in the issue).
 */
export const MAINTENANCE_API = {
  equipmentTypes: '/api/v1/maintenance/equipment-types',
  addEquipmentType: '/api/v1/maintenance/add-equipment-type',
  updateEquipmentType: '/api/v1/maintenance/update-equipment-type',
  faultTypes: '/api/v1/maintenance/fault-types',
  addFaultType: '/api/v1/maintenance/add-fault-type',
  updateFaultType: '/api/v1/maintenance/update-fault-type',
  records: '/api/v1/maintenance/records',
  record: '/api/v1/maintenance/record',
  addRecord: '/api/v1/maintenance/add-record',
  /** What a new record about a serial number, an alarm, a part or a toilet starts with. */
  prefill: '/api/v1/maintenance/prefill',
  assign: '/api/v1/maintenance/assign',
  complete: '/api/v1/maintenance/complete',
  accept: '/api/v1/maintenance/accept',
  reject: '/api/v1/maintenance/reject',
  cancel: '/api/v1/maintenance/cancel',
  /** Accounts a record may be assigned to: those who see its device or toilet. */
  assignees: '/api/v1/maintenance/assignees',
  stats: '/api/v1/maintenance/stats',
  /** Body: the image's bytes (compressed in the browser); re-encoded and stored. */
  addPhoto: '/api/v1/maintenance/add-photo',
  /** One photo of a record (inline image, `n` from 0). */
  photo: '/api/v1/maintenance/photo',
} as const;

// ---- catalogues ----

export const EQUIPMENT_CATEGORIES = { device: '设备', part: '厕所部件', other: '其他' } as const;
export type EquipmentCategory = keyof typeof EQUIPMENT_CATEGORIES;

export const FAULT_SEVERITIES = ['一般', '严重', '紧急'] as const;

/** Longest response time a fault type may give (30 days), in hours. */
export const MAX_RESPONSE_HOURS = 720;

const text = (label: string, max: number) => z.string().trim().max(max, `${label}不能超过${max}个字符`);
const required = (label: string, max: number) => text(label, max).min(1, `请输入${label}`);
const code = z
  .string()
  .trim()
  .max(30, '编码不能超过30个字符')
  .regex(/^[A-Za-z0-9_-]*$/, '编码只能包含字母、数字、下划线和短横线');

export const equipmentTypeRow = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  category: z.string(),
  note: z.string(),
  /** Seeded with the console (not an account's): only a developer edits it. */
  builtin: z.boolean(),
  /** The caller may edit and delete it. */
  editable: z.boolean(),
  fault_count: z.number(),
  created_at: z.string(),
});
export type EquipmentTypeRow = z.infer<typeof equipmentTypeRow>;
export const equipmentTypePage = pageOf(equipmentTypeRow);

const category = z.enum(Object.keys(EQUIPMENT_CATEGORIES) as [EquipmentCategory], '类别取值无效');

export const equipmentTypesQuery = pageQuery.extend({
  keywords: keywordsField(),
  category: category.optional(),
});
export const addEquipmentTypeBody = z.object({
  name: required('名称', 30),
  code: code.default(''),
  category: category.default('other'),
  note: text('备注', 200).default(''),
});
export type AddEquipmentTypeBody = z.infer<typeof addEquipmentTypeBody>;
export const updateEquipmentTypeBody = addEquipmentTypeBody.partial().extend({
  id: idField(),
  is_delete: boolField().optional(),
});

const severity = intField('严重程度').pipe(
  z
    .number()
    .int()
    .min(0, '严重程度取值无效')
    .max(FAULT_SEVERITIES.length - 1, '严重程度取值无效'),
);
const responseHours = intField('响应时限').pipe(
  z
    .number()
    .int()
    .min(1, '响应时限至少1小时')
    .max(MAX_RESPONSE_HOURS, `响应时限不能超过${MAX_RESPONSE_HOURS}小时`),
);

export const faultTypeRow = z.object({
  id: z.number(),
  equipment_type_id: z.number(),
  equipment_type_name: z.string(),
  name: z.string(),
  code: z.string(),
  severity: z.number(),
  response_hours: z.number(),
  remedy: z.string(),
  builtin: z.boolean(),
  editable: z.boolean(),
  created_at: z.string(),
});
export type FaultTypeRow = z.infer<typeof faultTypeRow>;
export const faultTypePage = pageOf(faultTypeRow);

export const faultTypesQuery = pageQuery.extend({
  keywords: keywordsField(),
  equipment_type_id: idField().optional(),
});
export const addFaultTypeBody = z.object({
  equipment_type_id: idField(),
  name: required('名称', 30),
  code: code.default(''),
  severity: severity.default(0),
  response_hours: responseHours.default(24),
  remedy: text('处理方法', 500).default(''),
});
export type AddFaultTypeBody = z.infer<typeof addFaultTypeBody>;
export const updateFaultTypeBody = addFaultTypeBody.partial().extend({
  id: idField(),
  is_delete: boolField().optional(),
});

// ---- work orders ----

/** The status flow: 待派单 → 处理中 → 待验收 → 已完成, or 已取消. */
export const RECORD_STATUS = { pending: 0, working: 1, checking: 2, done: 3, cancelled: 4 } as const;
export const RECORD_STATUS_LABELS = ['待派单', '处理中', '待验收', '已完成', '已取消'] as const;
/** Statuses in which a record is open (holds its part and the toilet's 维修中 flag). */
export const OPEN_STATUSES: readonly number[] = [
  RECORD_STATUS.pending,
  RECORD_STATUS.working,
  RECORD_STATUS.checking,
];

export const RECORD_KINDS = { repair: '维修', upkeep: '保养' } as const;
export type RecordKind = keyof typeof RECORD_KINDS;

/** Steps of a record's history. */
export const RECORD_ACTIONS = {
  report: '报修',
  assign: '派单',
  complete: '完工',
  accept: '验收通过',
  reject: '验收退回',
  cancel: '取消',
  plan: '计划生成',
} as const;
export type RecordAction = keyof typeof RECORD_ACTIONS;

/** Photos per record and the size of one (after the browser's compression). */
export const RECORD_PHOTO_LIMITS = { count: 9, bytes: 5 * 1024 * 1024 } as const;

/** The record number shown to people: WX + six digits of the id. */
export const recordNo = (id: number) => `WX${String(id).padStart(6, '0')}`;

/** The id a record number names (recordNo's text, any case, zeros optional), or null. */
export function recordIdOf(text: string): number | null {
  const no = /^wx0*(\d{1,9})$/i.exec(text.trim());
  return no ? Number(no[1]) : null;
}

export const recordRow = z.object({
  id: z.number(),
  no: z.string(),
  kind: z.string(),
  status: z.number(),
  device_id: z.number().nullable(),
  ser_num: z.string(),
  /** The device's kind (its link's screen); '' without a device. */
  device_kind: z.string(),
  toilet_id: z.number().nullable(),
  toilet_name: z.string(),
  part_id: z.number().nullable(),
  part_name: z.string(),
  alarm_id: z.number().nullable(),
  equipment_type_id: z.number(),
  equipment_type_name: z.string(),
  fault_type_id: z.number().nullable(),
  fault_type_name: z.string(),
  severity: z.number(),
  description: z.string(),
  reporter_id: z.number(),
  reporter_name: z.string(),
  assignee_id: z.number().nullable(),
  assignee_name: z.string(),
  /** The team (维修班组) the order went to (a team plan's orders), its name ('' without one). */
  team_id: z.number().nullable(),
  team_name: z.string(),
  created_at: z.string(),
  /** When it must be fixed by (created + the fault type's response time). */
  due_at: z.string(),
  /** Open past due_at, or closed after it. */
  overdue: z.boolean(),
  finished_at: z.string().nullable(),
  remedy: z.string(),
  parts_replaced: z.string(),
  cost: z.number(),
  minutes_spent: z.number(),
  photo_count: z.number(),
});
export type RecordRow = z.infer<typeof recordRow>;
export const recordPage = pageOf(recordRow);

export const recordEvent = z.object({
  id: z.number(),
  action: z.string(),
  status: z.number(),
  note: z.string(),
  user_name: z.string(),
  created_at: z.string(),
});
export type RecordEvent = z.infer<typeof recordEvent>;

/** One step of a 保养 order's checklist (from its plan): who ticked it and when. */
export const checklistItem = z.object({
  step: z.string(),
  done: z.boolean(),
  by: z.string(),
  at: z.string(),
});
export type ChecklistItem = z.infer<typeof checklistItem>;

export const recordDetail = z.object({
  record: recordRow,
  events: z.array(recordEvent),
  /** The plan a 保养 order came from (计划保养), and its checklist. */
  plan_id: z.number().nullable(),
  checklist: z.array(checklistItem),
  /** Courier orders linked to it (快递单). */
  shipments: z.array(
    z.object({
      id: z.number(),
      company: z.string(),
      tracking_no: z.string(),
      status: z.number(),
      created_at: z.string(),
    }),
  ),
  /** What the caller may do now. */
  can: z.object({
    assign: z.boolean(),
    complete: z.boolean(),
    accept: z.boolean(),
    cancel: z.boolean(),
    /** Tick the checklist's steps (while 处理中). */
    check: z.boolean(),
  }),
});
export type RecordDetail = z.infer<typeof recordDetail>;

const statusField = intField('状态').pipe(
  z
    .number()
    .int()
    .min(0, '状态取值无效')
    .max(RECORD_STATUS_LABELS.length - 1, '状态取值无效'),
);

/** The list's filter without paging: what the export takes. */
export const recordFilter = z.object({
  keywords: keywordsField(),
  status: statusField.optional(),
  kind: z.enum(Object.keys(RECORD_KINDS) as [RecordKind], '类型取值无效').optional(),
  equipment_type_id: idField().optional(),
  fault_type_id: idField().optional(),
  toilet_id: idField().optional(),
  device_id: idField().optional(),
  assignee_id: idField().optional(),
  /** Orders a team's plans opened (维修班组). */
  team_id: idField().optional(),
  /** Open and past its deadline (true), or not (false). */
  overdue: boolField().optional(),
  begin: dateTimeField().optional(),
  end: dateTimeField().optional(),
});
export const recordsQuery = pageQuery.extend(recordFilter.shape);
export type RecordFilter = z.infer<typeof recordFilter>;
export type RecordsQuery = z.infer<typeof recordsQuery>;

/** The download centre's export of the records list (same filter). */
export const RECORDS_EXPORT = 'maintenance-records';

export const recordQuery = z.object({ id: idField() });

const serNum = z
  .string()
  .trim()
  .max(64, '序列号不能超过64个字符')
  .regex(/^[A-Za-z0-9_.:-]*$/, '序列号格式不正确');

/**
 * A new record: about a device (serial number or id), a toilet part, or a toilet; from an
 * alarm the alarm names the device.
 */
export const addRecordBody = z.object({
  kind: z.enum(Object.keys(RECORD_KINDS) as [RecordKind], '类型取值无效').default('repair'),
  ser_num: serNum.optional(),
  device_id: idField().optional(),
  part_id: idField().optional(),
  toilet_id: idField().optional(),
  alarm_id: idField().optional(),
  equipment_type_id: idField(),
  fault_type_id: idField().optional(),
  description: required('故障描述', 500),
  assignee_id: idField().optional(),
});
export type AddRecordBody = z.infer<typeof addRecordBody>;

export const prefillQuery = z.object({
  ser_num: serNum.optional(),
  alarm_id: idField().optional(),
  part_id: idField().optional(),
  toilet_id: idField().optional(),
  /**
   * A toilet by the public id of its 评价 QR code (`/add-comment?toilet_id=<public id>`, 扫码):
   * answered like `toilet_id`; one that is not a public id answers like an unknown toilet.
   */
  toilet_public_id: z.string().trim().max(200, '厕所不存在').optional(),
});
export type PrefillQuery = z.infer<typeof prefillQuery>;
export const prefill = z.object({
  device_id: z.number().nullable(),
  ser_num: z.string(),
  device_desc: z.string(),
  toilet_id: z.number().nullable(),
  toilet_name: z.string(),
  part_id: z.number().nullable(),
  part_name: z.string(),
  alarm_id: z.number().nullable(),
  equipment_type_id: z.number().nullable(),
  fault_type_id: z.number().nullable(),
  description: z.string(),
});
export type Prefill = z.infer<typeof prefill>;

const note = text('备注', 500).default('');

export const assignBody = z.object({ id: idField(), assignee_id: idField(), note });
export const completeBody = z.object({
  id: idField(),
  remedy: required('处理方法', 500),
  parts_replaced: text('更换部件', 500).default(''),
  cost: z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v === '' ? 0 : v),
      z.number({ error: '费用必须是数字' }).min(0, '费用不能小于0').max(10_000_000, '费用不能超过10000000'),
    )
    .default(0),
  minutes_spent: intField('用时')
    .pipe(z.number().int().min(0, '用时不能小于0').max(100_000, '用时过长'))
    .default(0),
  note,
});
export type CompleteBody = z.infer<typeof completeBody>;
export const stepBody = z.object({ id: idField(), note });

export const addPhotoQuery = z.object({ id: idField() });
export const photoQuery = z.object({
  id: idField(),
  n: intField('序号').pipe(
    z
      .number()
      .int()
      .min(0, '序号取值无效')
      .max(RECORD_PHOTO_LIMITS.count - 1, '序号取值无效'),
  ),
});

export const assigneesQuery = z.object({ id: idField(), keywords: keywordsField() });
export const assigneeRow = z.object({ id: z.number(), user_name: z.string(), company_name: z.string() });
export const assigneeList = z.array(assigneeRow);
export type AssigneeRow = z.infer<typeof assigneeRow>;

export const maintenanceStats = z.object({
  open: z.number(),
  overdue: z.number(),
  /** Mean time to repair (created → completed), minutes, per fault type. */
  mttr: z.array(z.object({ fault_type_name: z.string(), count: z.number(), minutes: z.number() })),
  /** The devices repaired most often (top 10). */
  top_devices: z.array(z.object({ device_id: z.number(), ser_num: z.string(), count: z.number() })),
});
export type MaintenanceStats = z.infer<typeof maintenanceStats>;

/** The add-record screen opened for one thing (报修 from an alarm, a part, a toilet; a device's QR code). */
export function addRecordPath(q: {
  alarm_id?: number;
  part_id?: number;
  toilet_id?: number;
  ser_num?: string;
}) {
  const [k, v] = Object.entries(q).find(([, x]) => x !== undefined) ?? [];
  return k ? `/add-maintenance-record?${k}=${encodeURIComponent(String(v))}` : '/add-maintenance-record';
}
