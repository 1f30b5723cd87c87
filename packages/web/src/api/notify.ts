import {
  DOCKING_API,
  NOTIFY_API,
  type DeliveryRow,
  type NotificationRow,
  type NotifyObject,
  type NotifyObjectType,
  type NotifyTemplate,
  type Page,
} from '@se/core';
import { get, post } from './client.ts';

// 消息提醒: recipients, templates, the history of notifications with their deliveries.

export interface ObjectFilter {
  keywords?: string;
  type?: NotifyObjectType;
  page?: number;
  page_size?: number;
}
export const listObjects = (f: ObjectFilter) => get<Page<NotifyObject>>(NOTIFY_API.objects, { ...f });

export interface ObjectFields {
  name: string;
  type: NotifyObjectType;
  target: string;
}
export const addObject = (b: ObjectFields) => post<NotifyObject>(NOTIFY_API.addObject, { ...b });
export const updateObject = (b: Partial<ObjectFields> & { id: number; is_delete?: boolean }) =>
  post<NotifyObject>(NOTIFY_API.updateObject, { ...b });

export interface TemplateFilter {
  keywords?: string;
  page?: number;
  page_size?: number;
}
export const listTemplates = (f: TemplateFilter) => get<Page<NotifyTemplate>>(NOTIFY_API.templates, { ...f });
export const addTemplate = (b: { name: string; content: string }) =>
  post<NotifyTemplate>(NOTIFY_API.addTemplate, { ...b });
export const updateTemplate = (b: { id: number; name?: string; content?: string; is_delete?: boolean }) =>
  post<NotifyTemplate>(NOTIFY_API.updateTemplate, { ...b });

export interface TemplatePreview {
  text: string;
  unknown: string[];
  source: 'sample' | 'device';
}
/** Renders with a device's real values (the server checks the caller sees it). */
export const previewTemplate = (content: string, deviceId: number) =>
  post<TemplatePreview>(NOTIFY_API.previewTemplate, { content, device_id: deviceId });

export interface NotificationFilter {
  keywords?: string;
  status?: 'pending' | 'sent' | 'failed';
  start?: string;
  end?: string;
  page?: number;
  page_size?: number;
}
export const listNotifications = (f: NotificationFilter) =>
  get<Page<NotificationRow>>(NOTIFY_API.notifications, { ...f });

export const retryDelivery = (id: number) => post<DeliveryRow>(NOTIFY_API.retryDelivery, { id });

export const listDockingDeliveries = (f: {
  docking_id: number;
  status?: string;
  page?: number;
  page_size?: number;
}) => get<Page<DeliveryRow>>(NOTIFY_API.dockingDeliveries, { ...f });

export interface DockingPushes {
  push_reports?: boolean;
  push_alarms?: boolean;
  push_comments?: boolean;
}
/** Turns a docking interface's pushes on or off (the interface's own update call). */
export const setDockingPushes = (id: number, pushes: DockingPushes) =>
  post<unknown>(DOCKING_API.update, { id, ...pushes });
