import type { FastifyInstance } from 'fastify';
import {
  LIVE_API,
  ackAlarmBody,
  alarmCount,
  alarmListQuery,
  alarmRow,
  historyData,
  historyQuery,
  pageOf,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import * as live from './service.ts';

export function liveRoutes(app: FastifyInstance, ctx: AppContext) {
  route(app, ctx, {
    method: 'GET',
    url: LIVE_API.history,
    summary: '设备历史数据（按时间段平均；长时间段读小时汇总）',
    tag: 'device',
    access: 0,
    query: historyQuery,
    response: historyData,
    handler: ({ caller, query }) => live.history(ctx, caller, query),
  });
  route(app, ctx, {
    method: 'GET',
    url: LIVE_API.alarms,
    summary: '报警列表',
    tag: 'alarm',
    access: 0,
    query: alarmListQuery,
    response: pageOf(alarmRow),
    handler: ({ caller, query }) => live.listAlarms(ctx, caller, query),
  });
  route(app, ctx, {
    method: 'GET',
    url: LIVE_API.alarmCount,
    summary: '未处理报警数',
    tag: 'alarm',
    access: 0,
    response: alarmCount,
    handler: ({ caller }) => live.countAlarms(ctx, caller),
  });
  route(app, ctx, {
    method: 'POST',
    url: LIVE_API.ackAlarm,
    summary: '确认报警',
    tag: 'alarm',
    access: 0,
    body: ackAlarmBody,
    response: alarmRow,
    handler: ({ caller, body }) => live.ackAlarm(ctx, caller, body.id),
  });
}
