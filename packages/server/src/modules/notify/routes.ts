import type { FastifyInstance } from 'fastify';
import {
  AREAS,
  NOTIFY_API,
  PERMISSION,
  addNotifyObjectBody,
  addNotifyTemplateBody,
  deliveryRow,
  dockingDeliveriesQuery,
  notificationRow,
  notificationsQuery,
  notifyObject,
  notifyObjectsQuery,
  notifyTemplate,
  notifyTemplatesQuery,
  pageOf,
  previewTemplateBody,
  retryDeliveryBody,
  templatePreview,
  updateNotifyObjectBody,
  updateNotifyTemplateBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as notify from './service.ts';

export function notifyRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'notify', access: AREAS.notify.permission });
  r({
    method: 'GET',
    url: NOTIFY_API.objects,
    summary: '提醒对象列表',
    query: notifyObjectsQuery,
    response: pageOf(notifyObject),
    handler: ({ caller, query }) => notify.listObjects(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: NOTIFY_API.addObject,
    summary: '新增提醒对象（系统用户、邮箱、对接接口、企业微信/钉钉群机器人）',
    body: addNotifyObjectBody,
    response: notifyObject,
    handler: ({ req, caller, body }) => notify.addObject(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: NOTIFY_API.updateObject,
    summary: '修改或删除提醒对象',
    body: updateNotifyObjectBody,
    response: notifyObject,
    handler: ({ req, caller, body }) => notify.updateObject(ctx, caller, body, req.ip),
  });
  r({
    method: 'GET',
    url: NOTIFY_API.templates,
    summary: '消息模板列表',
    query: notifyTemplatesQuery,
    response: pageOf(notifyTemplate),
    handler: ({ caller, query }) => notify.listTemplates(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: NOTIFY_API.addTemplate,
    summary: '新增消息模板',
    body: addNotifyTemplateBody,
    response: notifyTemplate,
    handler: ({ req, caller, body }) => notify.addTemplate(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: NOTIFY_API.updateTemplate,
    summary: '修改或删除消息模板',
    body: updateNotifyTemplateBody,
    response: notifyTemplate,
    handler: ({ req, caller, body }) => notify.updateTemplate(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: NOTIFY_API.previewTemplate,
    summary: '预览消息模板（示例值或某台设备的最新数据）',
    body: previewTemplateBody,
    response: templatePreview,
    handler: ({ caller, body }) => notify.preview(ctx, caller, body),
  });
  r({
    method: 'GET',
    url: NOTIFY_API.notifications,
    summary: '提醒记录（含各渠道发送状态）',
    query: notificationsQuery,
    response: pageOf(notificationRow),
    handler: ({ caller, query }) => notify.listNotifications(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: NOTIFY_API.retryDelivery,
    summary: '立即重新发送一条失败或等待中的发送记录',
    rateLimit: { max: 60, windowMs: 60_000 },
    body: retryDeliveryBody,
    response: deliveryRow,
    handler: ({ caller, body }) => notify.retryDelivery(ctx, caller, body.id),
  });
  r({
    method: 'GET',
    url: NOTIFY_API.dockingDeliveries,
    summary: '对接接口的推送记录',
    // Docking interfaces are the data-integration role's business (as their own routes).
    access: PERMISSION.apier,
    query: dockingDeliveriesQuery,
    response: pageOf(deliveryRow),
    handler: ({ caller, query }) => notify.listDockingDeliveries(ctx, caller, query),
  });
}
