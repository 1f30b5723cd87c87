import type { FastifyInstance } from 'fastify';
import {
  AREAS,
  TOILET_API,
  addToiletBody,
  bindBody,
  bindListQuery,
  bindRow,
  getDeviceQuery,
  pageOf,
  toiletListQuery,
  toiletRow,
  updateToiletBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as toilets from './service.ts';
import { toiletDetailRoutes } from './detail-routes.ts';

export function toiletRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'toilet', access: AREAS.smartToilet.permission });
  r({
    method: 'GET',
    url: TOILET_API.list,
    summary: '厕所列表',
    query: toiletListQuery,
    response: pageOf(toiletRow),
    handler: ({ caller, query }) => toilets.list(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: TOILET_API.get,
    summary: '获取厕所',
    query: getDeviceQuery,
    response: toiletRow,
    handler: ({ caller, query }) => toilets.get(ctx, caller, query.id),
  });
  r({
    method: 'POST',
    url: TOILET_API.add,
    summary: '登记厕所',
    body: addToiletBody,
    response: toiletRow,
    handler: ({ req, caller, body }) => toilets.add(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: TOILET_API.update,
    summary: '修改或删除厕所（状态：清洁 1、维修 2、报警 4）',
    body: updateToiletBody,
    response: toiletRow,
    handler: ({ req, caller, body }) => toilets.update(ctx, caller, body, req.ip),
  });
  r({
    method: 'GET',
    url: TOILET_API.bindList,
    summary: '可绑定的厕所（标明是否已绑定目标用户）',
    access: 'manager',
    query: bindListQuery,
    response: pageOf(bindRow),
    handler: ({ caller, query }) => toilets.bindList(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: TOILET_API.bind,
    summary: '绑定/解绑厕所（一次提交，全部成功或全部失败）',
    access: 'manager',
    body: bindBody,
    handler: ({ req, caller, body }) => toilets.bind(ctx, caller, body, req.ip),
  });
  toiletDetailRoutes(app, ctx);
}
