import { z } from 'zod';
import {
  AREAS,
  DEVICE_KINDS,
  GATEWAY_TYPES,
  STATUS_FILTER,
  deviceListQuery,
  formatDateTime,
  type DeviceKind,
} from '@se/core';
import { AREA_OF } from '../../devices/routes.ts';
import { filterOf, list } from '../../devices/service.ts';
import { exportColumns, exportRows } from '../../devices/transfer.ts';
import { defineExport } from '../types.ts';

const KINDS = Object.keys(DEVICE_KINDS) as [DeviceKind, ...DeviceKind[]];

/** The device list's own filter (without paging) plus the kind of device. */
export const deviceExportQuery = deviceListQuery
  .omit({ page: true, page_size: true })
  .extend({ kind: z.enum(KINDS, `设备类型只能是 ${KINDS.join('、')}`) });
export type DeviceExportQuery = z.infer<typeof deviceExportQuery>;

const onlineText = (status: number | undefined) => {
  if (!status) return '';
  const on = (status & STATUS_FILTER.online) !== 0;
  const off = (status & STATUS_FILTER.offline) !== 0;
  return on === off ? '' : on ? '在线' : '离线';
};

/** 导出 of the device lists (除臭机, 评价器, 网关, 纸巾机, 电表, 水表). */
export const devicesExport = defineExport<DeviceExportQuery>({
  name: 'devices',
  label: '设备列表',
  access: AREAS.jwb.permission,
  accessFor: (q) => AREAS[AREA_OF[q.kind]].permission,
  query: deviceExportQuery,
  columns: (q) => exportColumns(q.kind),
  async prepare(ctx, caller, q) {
    // Refuses an owner_id the caller may not manage, as the list does.
    await filterOf(ctx, caller, q.kind, q);
  },
  async count(ctx, caller, q) {
    return (await list(ctx, caller, q.kind, { ...q, page: 1, page_size: 10 }, { exact: true })).total;
  },
  rows: (ctx, caller, q) => exportRows(ctx, caller, q.kind, q),
  summary(q) {
    const parts = [`类型：${DEVICE_KINDS[q.kind].label}`];
    if (q.keywords) parts.push(`关键字：${q.keywords}`);
    const online = onlineText(q.status);
    if (online) parts.push(`在线状态：${online}`);
    if (q.type !== undefined) {
      parts.push(`网关类型：${GATEWAY_TYPES.find((g) => g.value === q.type)?.label ?? q.type}`);
    }
    if (q.industrial_type) parts.push(`工业类型：${q.industrial_type}`);
    if (q.owner_id !== undefined) parts.push(`所属用户ID：${q.owner_id}`);
    if (q.gateway_id !== undefined) parts.push(`网关ID：${q.gateway_id}`);
    return parts.join('；');
  },
  fileName: (q) =>
    `${DEVICE_KINDS[q.kind].label}列表-${formatDateTime(Date.now()).slice(0, 10).replace(/-/g, '')}`,
  sheetName: (q) => DEVICE_KINDS[q.kind].label,
});
