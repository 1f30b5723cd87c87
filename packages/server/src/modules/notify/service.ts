import net from 'node:net';
import {
  OFFLINE_MS,
  PERMISSION,
  has,
  TEMPLATE_SAMPLE,
  objectTargetError,
  renderTemplate,
  unknownPlaceholders,
  type NotifyObjectType,
  type TemplateVars,
} from '@se/core';
import type { z } from 'zod';
import type {
  addNotifyObjectBody,
  addNotifyTemplateBody,
  dockingDeliveriesQuery,
  notificationsQuery,
  notifyObjectsQuery,
  notifyTemplatesQuery,
  previewTemplateBody,
  updateNotifyObjectBody,
  updateNotifyTemplateBody,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { findDevice, kindOf } from '../devices/repo.ts';
import { findDocking } from '../docking/repo.ts';
import { isPrivateAddress } from '../docking/webhook.ts';
import { isSelfOrDescendant } from '../users/repo.ts';
import * as repo from './repo.ts';
import { notifierOf } from './runtime.ts';
import { assertCanManage, managedUserId, scopeOf } from '../access/users.ts';
import { owned } from '../owned/service.ts';

const page = <T>(r: { list: T[]; total: number }, q: { page: number; page_size: number }) => ({
  ...r,
  page: q.page,
  page_size: q.page_size,
});

/** The stored row without its deleted flag (the answer's shape). */
const strip = <T extends { is_delete: boolean }>({ is_delete, ...rest }: T) => {
  void is_delete;
  return rest;
};

// ---- objects ----

const objects = owned({
  missing: '提醒对象不存在',
  action: 'notify.object',
  entity: 'notify_object',
  table: repo.OBJECTS,
  find: repo.findObject,
  list: repo.listObjects,
});

/**
 * Whether `owner` may name `target` as a recipient of `type`: a user in the owner's subtree
 * (or the owner), one of the owner's own interfaces, a mailbox, a robot URL that is not on
 * a private network.
 */
async function checkTarget(ctx: AppContext, ownerId: number, type: NotifyObjectType, target: string) {
  const err = objectTargetError(type, target);
  if (err) throw badRequest(err);
  const t = target.trim();
  if (type === 'user') {
    const ownerPermissions = await repo.userPermissions(ctx.db, ownerId);
    const develop = ownerPermissions !== undefined && has(ownerPermissions, PERMISSION.develop);
    const deleted = await repo.userIsDeleted(ctx.db, Number(t));
    if (deleted !== false) throw notFound('用户不存在');
    if (!develop && !(await isSelfOrDescendant(ctx.db, ownerId, Number(t))))
      throw forbidden('只能提醒自己或自己创建的用户');
  } else if (type === 'docking') {
    const d = await findDocking(ctx.db, Number(t));
    if (!d || d.is_delete || d.user_id !== ownerId) throw notFound('对接接口不存在');
  } else if (type === 'wecom' || type === 'dingtalk') {
    const host = new URL(t).hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || (net.isIP(host) && isPrivateAddress(host))) {
      if (!ctx.config.allowPrivateWebhooks) throw badRequest('不允许访问内网或本机地址');
    }
  }
  return t;
}

type ObjectsQuery = z.output<typeof notifyObjectsQuery>;
type AddObject = z.output<typeof addNotifyObjectBody>;
type UpdateObject = z.output<typeof updateNotifyObjectBody>;

export const listObjects = (ctx: AppContext, caller: Caller, q: ObjectsQuery) =>
  objects.list(ctx, caller, q, { type: q.type });

export const addObject = (ctx: AppContext, caller: Caller, b: AddObject, ip: string) =>
  objects
    .add(ctx, caller, ip, b.target_user_id, async (userId) => {
      const target = await checkTarget(ctx, userId, b.type, b.target);
      const v = { type: b.type, name: b.name, target };
      return { insert: (tx) => repo.insertObject(tx, { user_id: userId, ...v }), after: v };
    })
    .then(strip);

export const updateObject = (ctx: AppContext, caller: Caller, b: UpdateObject, ip: string) =>
  objects
    .edit(ctx, caller, ip, b.id, async (o) => {
      const type = b.type ?? o.type;
      let target = b.target;
      if (type !== o.type && target === undefined) throw badRequest('修改类型时请同时给出新的目标');
      if (!b.is_delete && (target !== undefined || type !== o.type))
        target = await checkTarget(ctx, o.user_id, type, target ?? o.target);
      return { type: b.type, name: b.name, target, is_delete: b.is_delete };
    })
    .then((m) => strip(m.row));

// ---- templates ----

const templates = owned({
  missing: '模板不存在',
  action: 'notify.template',
  entity: 'notify_template',
  table: repo.TEMPLATES,
  find: repo.findTemplate,
  list: repo.listTemplates,
});

type TemplatesQuery = z.output<typeof notifyTemplatesQuery>;
type AddTemplate = z.output<typeof addNotifyTemplateBody>;
type UpdateTemplate = z.output<typeof updateNotifyTemplateBody>;

export const listTemplates = (ctx: AppContext, caller: Caller, q: TemplatesQuery) =>
  templates.list(ctx, caller, q, {});

export const addTemplate = (ctx: AppContext, caller: Caller, b: AddTemplate, ip: string) => {
  const v = { name: b.name, content: b.content };
  return templates
    .add(ctx, caller, ip, b.target_user_id, (userId) => ({
      insert: (tx) => repo.insertTemplate(tx, { user_id: userId, ...v }),
      after: v,
    }))
    .then(strip);
};

export const updateTemplate = (ctx: AppContext, caller: Caller, b: UpdateTemplate, ip: string) =>
  templates
    .edit(ctx, caller, ip, b.id, () => ({ name: b.name, content: b.content, is_delete: b.is_delete }))
    .then((m) => strip(m.row));

/** Renders a template with a device's real values (one the caller sees) or sample values. */
export async function preview(ctx: AppContext, caller: Caller, b: z.output<typeof previewTemplateBody>) {
  let vars: TemplateVars = { ...TEMPLATE_SAMPLE };
  let source: 'sample' | 'device' = 'sample';
  if (b.device_id !== undefined) {
    const kind = await kindOf(ctx.db, b.device_id);
    const d = kind
      ? await findDevice(ctx.db, kind, b.device_id, await scopeOf(ctx, caller), OFFLINE_MS.default)
      : undefined;
    if (!d || d.is_delete) throw notFound('设备不存在');
    const latest = (d.latest ?? {}) as Record<string, unknown>;
    const readings = Object.fromEntries(
      Object.entries(latest).filter(([, v]) => typeof v === 'number' || typeof v === 'boolean'),
    ) as TemplateVars;
    vars = { ...vars, ...readings, desc: d.desc, ser_num: d.ser_num, user_name: caller.userName };
    if (d.time) vars.time = d.time;
    source = 'device';
  }
  return { text: renderTemplate(b.content, vars), unknown: unknownPlaceholders(b.content), source };
}

// ---- history ----

export async function listNotifications(
  ctx: AppContext,
  caller: Caller,
  q: z.output<typeof notificationsQuery>,
) {
  const userId = await managedUserId(ctx, caller, q.target_user_id);
  const r = await repo.listNotifications(ctx.db, {
    userId,
    keywords: q.keywords || undefined,
    deviceId: q.device_id,
    ruleId: q.rule_id,
    status: q.status,
    start: q.start,
    end: q.end,
    ...pageWindow(q),
  });
  return page(r, q);
}

/** Sends a pending or failed delivery again now. */
export async function retryDelivery(ctx: AppContext, caller: Caller, id: number) {
  const d = await repo.findDelivery(ctx.db, id);
  if (!d) throw notFound('发送记录不存在');
  await assertCanManage(ctx, caller, d.user_id);
  if (d.channel === 'inbox') throw badRequest('站内消息无需重试');
  if (d.status === 'sent') throw conflict('已发送成功，无需重试');
  if (d.status === 'sending') throw conflict('正在发送，请稍后刷新');
  if (!(await repo.requeue(ctx.db, id))) throw conflict('该记录的状态已变化，请刷新后再试');
  notifierOf(ctx)?.kick();
  const { user_id, ...row } = (await repo.findDelivery(ctx.db, id))!;
  void user_id;
  return row;
}

export async function listDockingDeliveries(
  ctx: AppContext,
  caller: Caller,
  q: z.output<typeof dockingDeliveriesQuery>,
) {
  const d = await findDocking(ctx.db, q.docking_id);
  if (!d) throw notFound('对接接口不存在');
  await assertCanManage(ctx, caller, d.user_id);
  const r = await repo.listDockingDeliveries(ctx.db, {
    dockingId: d.id,
    status: q.status,
    ...pageWindow(q),
  });
  return page(r, q);
}
