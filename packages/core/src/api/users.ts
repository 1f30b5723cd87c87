import { z } from 'zod';
import { PERMISSION } from '../permissions.ts';
import { isUrl } from '../format.ts';
import { PASSWORD_MAX, PASSWORD_MIN, userName } from './auth.ts';
import { boolField, dateTimeField, idField, intField, keywordsField, pageOf, pageQuery } from './envelope.ts';

export const USER_API = {
  list: '/api/v1/user/users',
  get: '/api/v1/user/get-user',
  add: '/api/v1/user/add-user',
  update: '/api/v1/user/update-user',
  confirmEmail: '/api/v1/user/confirm-email',
  getInfo: '/api/v1/user/get-info',
  updateInfo: '/api/v1/user/update-info',
  auditLogs: '/api/v1/user/audit-logs',
} as const;

/** Docking interfaces (数据对接): under the user prefix, served by the docking module. */
export const DOCKING_API = {
  list: '/api/v1/user/docking-interfaces',
  get: '/api/v1/user/get-docking-interface',
  add: '/api/v1/user/add-docking-interface',
  update: '/api/v1/user/update-docking-interface',
  test: '/api/v1/user/test-docking-interface',
} as const;

export const TEXT_MAX = 200;

export const getInfoQuery = z.object({ user_id: idField().optional() });

/** User info (SPEC §3): empty strings when nothing valid is stored. The variant adds name and phone. */
export const userInfo = z.object({
  id: z.number(),
  is_delete: z.boolean(),
  company_name: z.string(),
  company_address: z.string(),
  user_name: z.string(),
  phone_num: z.string(),
  /** The confirmed address (used by find-password) and one waiting for its code, or ''. */
  email: z.string(),
  pending_email: z.string(),
  /** SPEC §7 profile: the profile dialog reads the company fields as `data.info`. */
  info: z.object({ company_name: z.string(), company_address: z.string() }),
});
export type UserInfo = z.infer<typeof userInfo>;

export const phoneNum = z
  .string()
  .trim()
  .max(20, '联系电话不能超过20位')
  .regex(/^\d*$/, '联系电话只能包含数字');

/**
 * SPEC §7 profile: the profile dialog sends its fields as one `user_info` object (JSON, or
 * JSON text in a form); they count as if sent flat, which older clients still do.
 */
function liftUserInfo(value: unknown, ctx: z.core.$RefinementCtx) {
  if (typeof value !== 'object' || value === null || !('user_info' in value)) return value;
  const { user_info: raw, ...rest } = value as { user_info: unknown } & Record<string, unknown>;
  let info = raw;
  if (typeof raw === 'string') {
    try {
      info = JSON.parse(raw);
    } catch {
      info = undefined;
    }
  }
  if (typeof info !== 'object' || info === null || Array.isArray(info)) {
    ctx.addIssue({ code: 'custom', message: 'user_info 格式不正确', path: ['user_info'] });
    return rest;
  }
  return { ...rest, ...info };
}

const updateInfoFields = z.object({
  id: idField().optional(),
  user_id: idField().optional(),
  is_delete: boolField().optional(),
  company_name: z.string().trim().max(TEXT_MAX, `公司名称不能超过${TEXT_MAX}个字符`).optional(),
  company_address: z.string().trim().max(TEXT_MAX, `公司地址不能超过${TEXT_MAX}个字符`).optional(),
  user_name: z.string().optional(),
  phone_num: phoneNum.optional(),
});

/** POST /api/v1/user/update-info: both variants; user_name is read-only and ignored. */
export const updateInfoBody = z.preprocess(liftUserInfo, updateInfoFields);
export type UpdateInfoBody = z.infer<typeof updateInfoFields>;

// ---- user administration (SPEC §7 "Users") ----

/** Columns `keys` may restrict a keyword search to. */
export const USER_SEARCH_KEYS = ['user_name', 'id', 'email', 'phone_num', 'company_name'] as const;

export const usersQuery = pageQuery.extend({
  keywords: keywordsField(),
  keys: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const list = (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean);
      const bad = list.find((k) => !(USER_SEARCH_KEYS as readonly string[]).includes(k));
      if (bad) {
        ctx.addIssue({ code: 'custom', message: `keys 只能是 ${USER_SEARCH_KEYS.join('、')}` });
        return z.NEVER;
      }
      return list as (typeof USER_SEARCH_KEYS)[number][];
    }),
  user_id: idField().optional(),
  permission: intField().pipe(z.number().int().min(0).max(PERMISSION.develop)).optional(),
  need_match_count: boolField().default(true),
});
export type UsersQuery = z.infer<typeof usersQuery>;

/** A user as lists and get-user show it (SPEC §3 "User" plus hierarchy and company). */
export const userRow = z.object({
  id: z.number(),
  is_delete: z.boolean(),
  user_name: z.string(),
  /** The confirmed address; a new one waits in pending_email until its owner enters the code. */
  email: z.string(),
  pending_email: z.string(),
  phone_num: z.string(),
  permissions: z.number(),
  services: z.number(),
  message_count: z.number(),
  parent_id: z.number().nullable(),
  parent_name: z.string(),
  /** A 127 account created by a developer: backend manager, not OEM (isBackendManager). */
  backend_manager: z.boolean(),
  company_name: z.string(),
  /** The organisation the account works inside (users.org_id: campus, attendance), or null. */
  org_id: z.number().nullable(),
  org_name: z.string(),
  created_at: z.string(),
});
export type UserRow = z.infer<typeof userRow>;

/** `total` is -1 when need_match_count is false. */
export const usersPage = pageOf(userRow);

export const getUserQuery = z.object({ user_id: idField() });

const optionalEmail = z
  .string()
  .trim()
  .max(254, '邮箱长度不能超过254个字符')
  .transform((s) => s.toLowerCase())
  .refine((s) => s === '' || z.email().safeParse(s).success, '邮箱格式不正确');

const permissionBits = intField().pipe(
  z.number().int().min(0, '权限取值无效').max(PERMISSION.develop, '权限取值无效'),
);

/** POST /api/v1/user/update-user. message_count is read-only (it counts unread messages). */
export const updateUserBody = z.object({
  id: idField(),
  is_delete: boolField().optional(),
  user_name: userName.optional(),
  email: optionalEmail.optional(),
  phone_num: phoneNum.optional(),
  permissions: permissionBits.optional(),
  services: intField().pipe(z.number().int().min(0).max(2_147_483_647)).optional(),
  message_count: z.unknown().optional(),
  /**
   * Moves the account (with the accounts below it in the same organisation) to another
   * organisation; 0 takes it out of any. The caller manages both (access/orgs.ts).
   */
  org_id: intField('所属组织')
    .pipe(z.number().int().min(0, '所属组织取值无效').max(2_147_483_647))
    .optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBody>;

/** POST /api/v1/user/add-user: a manager creates an account below itself. */
export const addUserBody = z.object({
  user_name: userName,
  password: z
    .string()
    .min(PASSWORD_MIN, `密码长度不能少于${PASSWORD_MIN}个字符`)
    .max(PASSWORD_MAX, `密码长度不能超过${PASSWORD_MAX}个字符`),
  email: optionalEmail.default(''),
  phone_num: phoneNum.default(''),
  permissions: permissionBits,
  /**
   * The organisation the new account works inside. Left out, it inherits the creator's
   * (users.org_id); only ssSuperSaled and develop name another (an ssManager for an
   * organisation they administer).
   */
  org_id: idField().optional(),
});
export type AddUserBody = z.infer<typeof addUserBody>;

// ---- docking interfaces ----

export const dockingUrl = z
  .string()
  .trim()
  .min(1, '地址不能为空')
  .max(500, '地址不能超过500个字符')
  .refine((u) => isUrl(u) && /^https?:\/\//i.test(u), '地址必须是 http:// 或 https:// 开头的有效网址');

export const dockingInterface = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  token: z.string(),
  user_id: z.number(),
  user_name: z.string(),
  is_delete: z.boolean(),
  /** Opt-ins: what the platform pushes to this interface as signed JSON. */
  push_reports: z.boolean(),
  push_alarms: z.boolean(),
  push_comments: z.boolean(),
  created_at: z.string(),
});
export type DockingInterface = z.infer<typeof dockingInterface>;

export const dockingQuery = pageQuery.extend({
  target_user_id: idField().optional(),
  keywords: keywordsField(),
  token: z.string().trim().max(200).optional(),
});

const dockingName = z.string().trim().min(1, '名称不能为空').max(50, '名称不能超过50个字符');
const dockingToken = z.string().trim().max(200, '令牌不能超过200个字符');

export const addDockingBody = z.object({
  name: dockingName,
  url: dockingUrl,
  /** Empty: the server generates one. */
  token: dockingToken.default(''),
  /** A manager may add one for a user it manages; default the caller. */
  target_user_id: idField().optional(),
  push_reports: boolField().optional(),
  push_alarms: boolField().optional(),
  push_comments: boolField().optional(),
});

export const updateDockingBody = z.object({
  id: idField(),
  is_delete: boolField().optional(),
  name: dockingName.optional(),
  url: dockingUrl.optional(),
  token: dockingToken.optional(),
  user_id: idField().optional(),
  push_reports: boolField().optional(),
  push_alarms: boolField().optional(),
  push_comments: boolField().optional(),
});

export const getDockingQuery = z.object({ id: idField() });
export const testDockingBody = z.object({ id: idField() });
export const dockingTestResult = z.object({
  ok: z.boolean(),
  status: z.number().nullable(),
  latency_ms: z.number(),
  error: z.string().nullable(),
});

// ---- audit log ----

const dateTime = dateTimeField();

export const auditQuery = pageQuery.extend({
  target_user_id: idField().optional(),
  actor_id: idField().optional(),
  start: dateTime.optional(),
  end: dateTime.optional(),
});

export const auditEntry = z.object({
  id: z.number(),
  actor_id: z.number(),
  actor_name: z.string(),
  target_user_id: z.number().nullable(),
  target_name: z.string(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.number().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** Chinese names of audit actions. */
export const AUDIT_ACTIONS: Record<string, string> = {
  'user.add': '新增用户',
  'user.update': '修改用户',
  'user.delete': '删除用户',
  'user.restore': '恢复用户',
  'user.email': '确认邮箱变更',
  'info.update': '修改公司信息',
  'docking.add': '新增对接接口',
  'docking.update': '修改对接接口',
  'docking.delete': '删除对接接口',
  'device.add': '登记设备',
  'device.update': '修改设备',
  'device.delete': '删除设备',
  'device.restore': '恢复设备',
  'device.bind': '绑定/解绑设备',
  'comment.hide': '隐藏评价',
  'comment.restore': '恢复评价',
  'toilet.document': '修改厕所信息',
  'toilet.part.add': '新增厕所部件',
  'toilet.part.update': '修改厕所部件',
  'toilet.part.delete': '删除厕所部件',
  'toilet.status': '设置厕所状态',
  'toilet.place': '放置设备到厕所',
  'maintenance.equipment_type.add': '新增设备类型',
  'maintenance.equipment_type.update': '修改设备类型',
  'maintenance.equipment_type.delete': '删除设备类型',
  'maintenance.fault_type.add': '新增故障类型',
  'maintenance.fault_type.update': '修改故障类型',
  'maintenance.fault_type.delete': '删除故障类型',
  'maintenance.record.add': '新增维修记录',
  'maintenance.record.assign': '维修派单',
  'maintenance.record.complete': '维修完工',
  'maintenance.record.accept': '维修验收',
  'maintenance.record.reject': '维修验收退回',
  'maintenance.record.cancel': '取消维修记录',
  'maintenance.record.check': '勾选保养检查项',
  'maintenance.plan.add': '新增保养计划',
  'maintenance.plan.update': '修改保养计划',
  'maintenance.team.add': '新增维修班组',
  'maintenance.team.update': '修改维修班组',
  'maintenance.team.delete': '删除维修班组',
  'maintenance.plan.delete': '删除保养计划',
  'express.order.add': '新增快递单',
  'express.order.update': '修改快递单',
  'express.order.delete': '删除快递单',
  'display.token.add': '新增显示令牌',
  'display.token.revoke': '吊销显示令牌',
  'rule.add': '新增提醒公式',
  'rule.update': '修改提醒公式',
  'rule.delete': '删除提醒公式',
  'notify.object.add': '新增提醒对象',
  'notify.object.update': '修改提醒对象',
  'notify.object.delete': '删除提醒对象',
  'notify.template.add': '新增消息模板',
  'notify.template.update': '修改消息模板',
  'notify.template.delete': '删除消息模板',
  'attendance.org.add': '创建考勤组织',
  'attendance.department.add': '新增部门',
  'attendance.department.update': '修改部门',
  'attendance.department.delete': '删除部门',
  'attendance.employee.add': '新增员工',
  'attendance.employee.update': '修改员工',
  'attendance.employee.delete': '删除员工',
  'attendance.employee.import': '导入员工',
  'attendance.punch.resolve': '认领打卡记录',
  'attendance.terminal.sync': '同步员工到考勤机',
  'attendance.patrol.set': '设置巡检要求',
  'attendance.patrol.scan': '扫码巡检',
  'auth.login_failed': '多次登录失败',
  'auth.password_changed': '修改密码',
  'media.playlist.add': '新增播放列表',
  'media.playlist.update': '修改播放列表',
  'media.playlist.delete': '删除播放列表',
  'media.schedule.add': '新增排期',
  'media.schedule.update': '修改排期',
  'media.schedule.delete': '撤销排期',
  'media.group.add': '新增播放器分组',
  'media.group.update': '修改播放器分组',
  'media.group.delete': '删除播放器分组',
  'media.add': '新增媒体内容',
  'media.update': '修改媒体内容',
  'media.delete': '删除媒体内容',
  'media.approve': '审核通过媒体内容',
  'media.reject': '驳回媒体内容',
  'media.quota': '修改媒体存储配额',
  'campus.building.add': '新增楼宇',
  'campus.building.update': '修改楼宇',
  'campus.building.delete': '删除楼宇',
  'campus.building.photo': '上传楼宇照片',
  'campus.room.add': '新增房间',
  'campus.room.update': '修改房间',
  'campus.room.delete': '删除房间',
  'campus.place': '放置设备',
  'campus.unplace': '取消放置设备',
  'org.update': '修改组织信息',
  'org.add': '新增组织',
  'org.logo': '更换组织标志',
  'attendance.scheme.add': '新增考勤班次',
  'attendance.scheme.update': '修改考勤班次',
  'attendance.scheme.delete': '删除考勤班次',
  'attendance.scheme.assign': '分配考勤班次',
  'attendance.holiday.set': '设置节假日',
  'attendance.holiday.reset': '恢复法定节假日',
  'attendance.record.correct': '更正考勤结果',
  'attendance.record.revert': '撤销考勤更正',
};
