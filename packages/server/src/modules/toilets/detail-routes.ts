import type { FastifyInstance } from 'fastify';
import {
  AREAS,
  TOILET_DETAIL_API,
  addPartBody,
  getDeviceQuery,
  pageOf,
  placeBody,
  placeableQuery,
  placeableRow,
  setStatusBody,
  statusLogQuery,
  statusLogRow,
  toiletDetail,
  toiletDocument,
  toiletPart,
  toiletRow,
  updateDocumentBody,
  updatePartBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as detail from './detail-service.ts';

/** The toilet detail: document, parts, status with notes, placed devices. */
export function toiletDetailRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'toilet', access: AREAS.smartToilet.permission });
  r({
    method: 'GET',
    url: TOILET_DETAIL_API.detail,
    summary: '厕所详情：开放时间与厕位数、部件、网关与传感器、放置的设备、最近评价',
    query: getDeviceQuery,
    response: toiletDetail,
    handler: ({ caller, query }) => detail.detail(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: TOILET_DETAIL_API.updateDocument,
    summary: '修改厕所信息（厕位数、开放时间 00:00 / 关闭时间 23:59、说明）',
    body: updateDocumentBody,
    response: toiletDocument,
    handler: ({ req, caller, body }) => detail.updateDocument(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: TOILET_DETAIL_API.addPart,
    summary: '添加部件（类型 0 蹲位 1 坐位 2 洗手台 3 水龙头 4 门 5 门锁 6 其他）',
    body: addPartBody,
    response: toiletPart,
    handler: ({ req, caller, body }) => detail.addPart(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: TOILET_DETAIL_API.updatePart,
    summary: '修改或删除部件（状态 0 正常 1 故障）',
    body: updatePartBody,
    response: toiletPart,
    handler: ({ req, caller, body }) => detail.updatePart(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: TOILET_DETAIL_API.setStatus,
    summary: '设置或取消清洁中（1）/维修中（2），附备注；报警（4）随设备告警',
    body: setStatusBody,
    response: toiletRow,
    handler: ({ req, caller, body }) => detail.setStatus(ctx, caller, body, req.ip),
  });
  r({
    method: 'GET',
    url: TOILET_DETAIL_API.statusLog,
    summary: '清洁/维修状态变更记录',
    query: statusLogQuery,
    response: pageOf(statusLogRow),
    handler: ({ caller, query }) => detail.statusLog(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: TOILET_DETAIL_API.placeable,
    summary: '可放置到厕所的设备（标明是否已放在此厕所或其他厕所）',
    query: placeableQuery,
    response: pageOf(placeableRow),
    handler: ({ caller, query }) => detail.placeable(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: TOILET_DETAIL_API.place,
    summary: '把设备放入厕所或移出（一次提交，全部成功或全部失败）',
    body: placeBody,
    handler: ({ req, caller, body }) => detail.place(ctx, caller, body, req.ip),
  });
}
