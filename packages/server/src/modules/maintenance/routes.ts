import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  MAINTENANCE_API,
  RECORD_PHOTO_LIMITS,
  addEquipmentTypeBody,
  addPhotoQuery,
  photoQuery,
  addFaultTypeBody,
  addRecordBody,
  assignBody,
  assigneeList,
  assigneesQuery,
  completeBody,
  equipmentTypePage,
  equipmentTypesQuery,
  faultTypePage,
  faultTypesQuery,
  maintenanceStats,
  prefill,
  prefillQuery,
  recordDetail,
  recordPage,
  recordQuery,
  recordsQuery,
  stepBody,
  updateEquipmentTypeBody,
  updateFaultTypeBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import { sendStored } from '../files/send.ts';
import * as m from './service.ts';

const idAnswer = z.object({ id: z.number() });

export function maintenanceRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'maintenance', access: AREAS.maintenance.permission });

  r({
    method: 'GET',
    url: MAINTENANCE_API.equipmentTypes,
    summary: '设备类型列表（系统内置和可见账号添加的）',
    query: equipmentTypesQuery,
    response: equipmentTypePage,
    handler: ({ caller, query }) => m.listEquipmentTypes(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.addEquipmentType,
    summary: '新增设备类型',
    body: addEquipmentTypeBody,
    response: idAnswer,
    handler: ({ req, caller, body }) => m.addEquipmentType(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.updateEquipmentType,
    summary: '修改或删除（is_delete=true）设备类型；被维修记录使用的不能删除',
    body: updateEquipmentTypeBody,
    response: idAnswer,
    handler: ({ req, caller, body }) => m.updateEquipmentType(ctx, caller, body, req.ip),
  });
  r({
    method: 'GET',
    url: MAINTENANCE_API.faultTypes,
    summary: '故障类型列表（可按设备类型筛选）',
    query: faultTypesQuery,
    response: faultTypePage,
    handler: ({ caller, query }) => m.listFaultTypes(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.addFaultType,
    summary: '新增故障类型',
    body: addFaultTypeBody,
    response: idAnswer,
    handler: ({ req, caller, body }) => m.addFaultType(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.updateFaultType,
    summary: '修改或删除（is_delete=true）故障类型；被维修记录使用的不能删除',
    body: updateFaultTypeBody,
    response: idAnswer,
    handler: ({ req, caller, body }) => m.updateFaultType(ctx, caller, body, req.ip),
  });
  r({
    method: 'GET',
    url: MAINTENANCE_API.records,
    summary: '维修记录列表（能看到其设备或厕所的账号可见）',
    query: recordsQuery,
    response: recordPage,
    handler: ({ caller, query }) => m.listRecords(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: MAINTENANCE_API.record,
    summary: '维修记录详情和处理过程',
    query: recordQuery,
    response: recordDetail,
    handler: ({ caller, query }) => m.detail(ctx, caller, query.id),
  });
  r({
    method: 'GET',
    url: MAINTENANCE_API.prefill,
    summary: '报修预填：按序列号、告警、厕所部件或厕所',
    query: prefillQuery,
    response: prefill,
    handler: ({ caller, query }) => m.prefill(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.addRecord,
    summary: '新增维修记录（报修）',
    body: addRecordBody,
    response: z.object({ id: z.number(), no: z.string() }),
    handler: ({ req, caller, body }) => m.addRecord(ctx, caller, body, req.ip),
  });
  r({
    method: 'GET',
    url: MAINTENANCE_API.assignees,
    summary: '可指派的人员（能看到该设备或厕所的账号）',
    query: assigneesQuery,
    response: assigneeList,
    handler: ({ caller, query }) => m.assignees(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.assign,
    summary: '派单或改派',
    body: assignBody,
    response: recordDetail,
    handler: ({ req, caller, body }) => m.assign(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.complete,
    summary: '完工：处理方法、更换部件、费用、用时',
    body: completeBody,
    response: recordDetail,
    handler: ({ req, caller, body }) => m.complete(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.accept,
    summary: '验收通过',
    body: stepBody,
    response: recordDetail,
    handler: ({ req, caller, body }) => m.accept(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.reject,
    summary: '验收退回（需填写原因）',
    body: stepBody,
    response: recordDetail,
    handler: ({ req, caller, body }) => m.reject(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.cancel,
    summary: '取消维修记录（需填写原因）',
    body: stepBody,
    response: recordDetail,
    handler: ({ req, caller, body }) => m.cancel(ctx, caller, body, req.ip),
  });
  r({
    method: 'GET',
    url: MAINTENANCE_API.stats,
    summary: '维修统计：未完成和超时数、各故障平均修复时间、维修最多的设备',
    response: maintenanceStats,
    handler: ({ caller }) => m.stats(ctx, caller),
  });
  r({
    method: 'POST',
    url: MAINTENANCE_API.addPhoto,
    summary: '上传维修照片（请求体为 JPEG/PNG/WebP 图片，按内容检查并重新编码，每条最多 9 张）',
    query: addPhotoQuery,
    upload: { maxBytes: RECORD_PHOTO_LIMITS.bytes, accept: 'JPEG、PNG 或 WebP 图片' },
    response: z.object({ photo_count: z.number() }),
    handler: ({ req, caller, query }) => m.addPhoto(ctx, caller, query.id, req.body),
  });
  r({
    method: 'GET',
    url: MAINTENANCE_API.photo,
    summary: '维修照片（图片，仅能看到该记录的账号）',
    query: photoQuery,
    raw: true,
    handler: async ({ req, reply, caller, query }) => {
      const key = await m.photoKey(ctx, caller, query.id, query.n);
      await sendStored(ctx, req, reply, key, {
        filename: `photo-${query.id}-${query.n + 1}.webp`,
        inline: true,
      });
      return null;
    },
  });
}
