import { z } from 'zod';
import { isUrl } from '../format.ts';
import { idList } from './devices.ts';
import { boolField, dateTimeField, idField, keywordsField, pageQuery } from './envelope.ts';

/**
 * Notifications (/notify, /notify-object): recipients ("objects"), templates, the history of
 * notifications with their per-channel deliveries, and docking interfaces' push log.
 */
export const NOTIFY_API = {
  objects: '/api/v1/notify/objects',
  addObject: '/api/v1/notify/add-object',
  updateObject: '/api/v1/notify/update-object',
  templates: '/api/v1/notify/templates',
  addTemplate: '/api/v1/notify/add-template',
  updateTemplate: '/api/v1/notify/update-template',
  previewTemplate: '/api/v1/notify/preview-template',
  notifications: '/api/v1/notify/notifications',
  retryDelivery: '/api/v1/notify/retry-delivery',
  dockingDeliveries: '/api/v1/notify/docking-deliveries',
} as const;

/** The in-app inbox (/messages). */
export const MESSAGE_API = {
  list: '/api/v1/message/messages',
  unread: '/api/v1/message/unread-count',
  read: '/api/v1/message/read',
  readAll: '/api/v1/message/read-all',
  remove: '/api/v1/message/delete',
} as const;

// ---- objects ----

export const NOTIFY_OBJECT_TYPES = {
  user: '系统用户',
  email: '电子邮箱',
  docking: '对接接口',
  wecom: '企业微信群机器人',
  dingtalk: '钉钉群机器人',
} as const;
export type NotifyObjectType = keyof typeof NOTIFY_OBJECT_TYPES;
const objectTypes = Object.keys(NOTIFY_OBJECT_TYPES) as [NotifyObjectType, ...NotifyObjectType[]];
export const notifyObjectType = z.enum(
  objectTypes,
  '类型只能是系统用户、电子邮箱、对接接口、企业微信或钉钉群机器人',
);

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether `target` suits `type`; the message says what is wrong, null when it is fine. */
export function objectTargetError(type: NotifyObjectType, target: string): string | null {
  const t = target.trim();
  if (!t) return '目标不能为空';
  switch (type) {
    case 'user':
    case 'docking':
      return /^\d{1,9}$/.test(t) && Number(t) > 0 ? null : type === 'user' ? '请选择用户' : '请选择对接接口';
    case 'email':
      return t.length < 255 && EMAIL_RE.test(t) ? null : `${t} 不是有效的邮箱地址`;
    case 'wecom':
    case 'dingtalk':
      return isUrl(t) && /^https?:\/\//i.test(t) && t.length <= 500
        ? null
        : '机器人地址必须是 http:// 或 https:// 开头的有效网址';
  }
}

export const notifyObject = z.object({
  id: z.number(),
  user_id: z.number(),
  type: notifyObjectType,
  name: z.string(),
  target: z.string(),
  /** The user's or interface's name for 'user' / 'docking'; the target itself otherwise. */
  target_label: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type NotifyObject = z.infer<typeof notifyObject>;

const keywords = keywordsField();

export const notifyObjectsQuery = pageQuery.extend({
  keywords,
  type: notifyObjectType.optional(),
  /** A manager may look at (and edit) a user's objects; default the caller's. */
  target_user_id: idField().optional(),
});

const objectName = z.string().trim().min(1, '名称不能为空').max(50, '名称不能超过50个字符');
const objectTarget = z.string().trim().min(1, '目标不能为空').max(500, '目标不能超过500个字符');

export const addNotifyObjectBody = z
  .object({
    name: objectName,
    type: notifyObjectType,
    target: objectTarget,
    target_user_id: idField().optional(),
  })
  .superRefine((b, c) => {
    const e = objectTargetError(b.type, b.target);
    if (e) c.addIssue({ code: 'custom', path: ['target'], message: e });
  });

export const updateNotifyObjectBody = z.object({
  id: idField(),
  is_delete: boolField().optional(),
  name: objectName.optional(),
  type: notifyObjectType.optional(),
  target: objectTarget.optional(),
});

// ---- templates ----

export const notifyTemplate = z.object({
  id: z.number(),
  user_id: z.number(),
  name: z.string(),
  content: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type NotifyTemplate = z.infer<typeof notifyTemplate>;

export const notifyTemplatesQuery = pageQuery.extend({
  keywords,
  target_user_id: idField().optional(),
});

const templateName = z.string().trim().min(1, '名称不能为空').max(50, '名称不能超过50个字符');
const templateContent = z.string().trim().min(1, '内容不能为空').max(2000, '内容不能超过2000个字符');

export const addNotifyTemplateBody = z.object({
  name: templateName,
  content: templateContent,
  target_user_id: idField().optional(),
});

export const updateNotifyTemplateBody = z.object({
  id: idField(),
  is_delete: boolField().optional(),
  name: templateName.optional(),
  content: templateContent.optional(),
});

export const previewTemplateBody = z.object({
  content: z.string().max(2000, '内容不能超过2000个字符'),
  /** Fill from this device's description, serial and latest readings; else sample values. */
  device_id: idField().optional(),
});

export const templatePreview = z.object({
  text: z.string(),
  unknown: z.array(z.string()),
  /** 'device' when a device's real values were used. */
  source: z.enum(['sample', 'device']),
});

// ---- notifications and deliveries ----

export const DELIVERY_CHANNELS = {
  inbox: '站内消息',
  email: '邮件',
  docking: '对接接口',
  wecom: '企业微信',
  dingtalk: '钉钉',
} as const;
export type DeliveryChannel = keyof typeof DELIVERY_CHANNELS;

export const DELIVERY_STATUS = {
  pending: '等待发送',
  sending: '发送中',
  /** A mail recorded in the outbox with no SMTP server to hand it to: not sent. */
  queued: '已排队',
  sent: '已发送',
  failed: '失败',
} as const;
export type DeliveryStatus = keyof typeof DELIVERY_STATUS;

/** Back-off between attempts of a failed delivery; after the last, the delivery has failed. */
export const DELIVERY_BACKOFF_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000] as const;
export const DELIVERY_MAX_ATTEMPTS = DELIVERY_BACKOFF_MS.length + 1;

export const deliveryRow = z.object({
  id: z.number(),
  notification_id: z.number().nullable(),
  object_id: z.number().nullable(),
  object_name: z.string(),
  docking_id: z.number().nullable(),
  channel: z.string(),
  kind: z.string(),
  target: z.string(),
  status: z.string(),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  last_error: z.string().nullable(),
  response_code: z.number().nullable(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
});
export type DeliveryRow = z.infer<typeof deliveryRow>;

export const notificationRow = z.object({
  id: z.number(),
  user_id: z.number(),
  rule_id: z.number().nullable(),
  device_id: z.number().nullable(),
  ser_num: z.string(),
  desc: z.string(),
  title: z.string(),
  content: z.string(),
  values: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  deliveries: z.array(deliveryRow),
});
export type NotificationRow = z.infer<typeof notificationRow>;

const dateTime = dateTimeField();

export const notificationsQuery = pageQuery.extend({
  keywords,
  device_id: idField().optional(),
  rule_id: idField().optional(),
  /** Only notifications with a delivery in this state. */
  status: z.enum(['pending', 'sent', 'failed'], '状态只能是 pending、sent、failed').optional(),
  start: dateTime.optional(),
  end: dateTime.optional(),
  target_user_id: idField().optional(),
});

export const retryDeliveryBody = z.object({ id: idField() });

export const dockingDeliveriesQuery = pageQuery.extend({
  docking_id: idField(),
  status: z.enum(['pending', 'sent', 'failed'], '状态只能是 pending、sent、failed').optional(),
});

/** What a docking interface receives; `type` says which. */
export const DOCKING_PUSH_KINDS = {
  reports: '设备数据',
  alarm: '告警',
  comment: '评价',
  rule: '规则提醒',
  test: '测试',
} as const;

// ---- messages ----

export const MESSAGE_KINDS = { alarm: '告警', rule: '规则提醒', system: '系统' } as const;
export type MessageKind = keyof typeof MESSAGE_KINDS;

export const messageRow = z.object({
  id: z.number(),
  kind: z.enum(['alarm', 'rule', 'system']),
  title: z.string(),
  content: z.string(),
  device_id: z.number().nullable(),
  alarm_id: z.number().nullable(),
  read: z.boolean(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type MessageRow = z.infer<typeof messageRow>;

export const messagesQuery = pageQuery.extend({
  keywords,
  read: z.enum(['read', 'unread'], '已读状态只能是 read 或 unread').optional(),
  kind: z.enum(['alarm', 'rule', 'system'], '类型只能是 alarm、rule、system').optional(),
  start: dateTime.optional(),
  end: dateTime.optional(),
});

export const messageIdsBody = z.object({
  ids: idList('ids').refine((ids) => ids.length > 0, '请选择消息'),
});

export const unreadCount = z.object({ unread: z.number() });
export type UnreadCount = z.infer<typeof unreadCount>;

/** What the 'messages' event (and the /ws 'messages' channel) carries per user. */
export interface MessagesEvent {
  user_id: number;
  unread: number;
}
