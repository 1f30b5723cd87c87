import {
  DOCKING_API,
  NOTIFY_API,
  type DeliveryRow,
  type NotificationRow,
  type NotifyObject,
  type NotifyTemplate,
  type Page,
  type addNotifyObjectBody,
  type addNotifyTemplateBody,
  type dockingDeliveriesQuery,
  type notificationsQuery,
  type notifyObjectsQuery,
  type notifyTemplatesQuery,
  type templatePreview,
  type updateDockingBody,
  type updateNotifyObjectBody,
  type updateNotifyTemplateBody,
} from '@se/core';
import type { z } from 'zod';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// 消息提醒: recipients, templates, the history of notifications with their deliveries.

export type ObjectFilter = RequestOf<typeof notifyObjectsQuery>;
export const listObjects = (f: ObjectFilter) => get<Page<NotifyObject>>(NOTIFY_API.objects, { ...f });

export type ObjectFields = RequestOf<typeof addNotifyObjectBody>;
export const addObject = (b: ObjectFields) => post<NotifyObject>(NOTIFY_API.addObject, { ...b });
export const updateObject = (b: RequestOf<typeof updateNotifyObjectBody>) =>
  post<NotifyObject>(NOTIFY_API.updateObject, { ...b });

export type TemplateFilter = RequestOf<typeof notifyTemplatesQuery>;
export const listTemplates = (f: TemplateFilter) => get<Page<NotifyTemplate>>(NOTIFY_API.templates, { ...f });
export const addTemplate = (b: RequestOf<typeof addNotifyTemplateBody>) =>
  post<NotifyTemplate>(NOTIFY_API.addTemplate, { ...b });
export const updateTemplate = (b: RequestOf<typeof updateNotifyTemplateBody>) =>
  post<NotifyTemplate>(NOTIFY_API.updateTemplate, { ...b });

export type TemplatePreview = z.infer<typeof templatePreview>;
/** Renders with a device's real values (the server checks the caller sees it). */
export const previewTemplate = (content: string, deviceId: number) =>
  post<TemplatePreview>(NOTIFY_API.previewTemplate, { content, device_id: deviceId });

export type NotificationFilter = RequestOf<typeof notificationsQuery>;
export const listNotifications = (f: NotificationFilter) =>
  get<Page<NotificationRow>>(NOTIFY_API.notifications, { ...f });

export const retryDelivery = (id: number) => post<DeliveryRow>(NOTIFY_API.retryDelivery, { id });

export type DockingDeliveryFilter = RequestOf<typeof dockingDeliveriesQuery>;
export const listDockingDeliveries = (f: DockingDeliveryFilter) =>
  get<Page<DeliveryRow>>(NOTIFY_API.dockingDeliveries, { ...f });

export type DockingPushes = Pick<
  RequestOf<typeof updateDockingBody>,
  'push_reports' | 'push_alarms' | 'push_comments'
>;
/** Turns a docking interface's pushes on or off (the interface's own update call). */
export const setDockingPushes = (id: number, pushes: DockingPushes) =>
  post<unknown>(DOCKING_API.update, { id, ...pushes });
