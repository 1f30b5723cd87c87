import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  DEVICE_KINDS,
  addDeviceBody,
  bindBody,
  bindListQuery,
  bindRow,
  SENSOR_API,
  addSensorBody,
  deviceListQuery,
  sensorListQuery,
  devicePage,
  deviceRow,
  getDeviceQuery,
  updateDeviceBody,
  type DeviceKind,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import * as sensors from './sensors.ts';
import * as devices from './service.ts';

const AREA_OF: Record<DeviceKind, keyof typeof AREAS> = {
  jwb: 'jwb',
  evaluate: 'evaluate',
  gateway: 'gateway',
  paper_machine: 'paper',
  electric_meter: 'meter',
  water_meter: 'meter',
};

/** The same six calls for every kind of the registry, at the paths DEVICE_KINDS names. */
export function deviceRoutes(app: FastifyInstance, ctx: AppContext) {
  for (const kind of Object.keys(DEVICE_KINDS) as DeviceKind[]) {
    const k = DEVICE_KINDS[kind];
    const access = AREAS[AREA_OF[kind]].permission;
    const tag = kind;

    route(app, ctx, {
      method: 'GET',
      url: `${k.base}/${k.plural}`,
      summary: `${k.label}列表`,
      tag,
      access,
      query: deviceListQuery,
      response: devicePage,
      handler: ({ caller, query }) => devices.list(ctx, caller, kind, query),
    });

    route(app, ctx, {
      method: 'GET',
      url: `${k.base}/get-${k.one}`,
      summary: `获取${k.label}`,
      tag,
      access,
      query: getDeviceQuery,
      response: deviceRow,
      handler: ({ caller, query }) => devices.get(ctx, caller, kind, query.id),
    });

    route(app, ctx, {
      method: 'POST',
      url: `${k.base}/add-${k.one}`,
      summary: `登记${k.label}`,
      tag,
      access,
      body: addDeviceBody,
      response: deviceRow,
      handler: ({ req, caller, body }) => devices.add(ctx, caller, kind, body, req.ip),
    });

    route(app, ctx, {
      method: 'POST',
      url: `${k.base}/update-${k.one}`,
      summary: `修改或删除${k.label}`,
      tag,
      access,
      body: updateDeviceBody,
      response: deviceRow,
      handler: ({ req, caller, body }) => devices.update(ctx, caller, kind, body, req.ip),
    });

    route(app, ctx, {
      method: 'GET',
      url: k.bindList,
      summary: `可绑定的${k.label}（标明是否已绑定目标用户）`,
      tag,
      access: 'manager',
      query: bindListQuery,
      response: z.object({
        list: z.array(bindRow),
        total: z.number(),
        page: z.number(),
        page_size: z.number(),
      }),
      handler: ({ caller, query }) => devices.bindList(ctx, caller, kind, query),
    });

    route(app, ctx, {
      method: 'POST',
      url: k.bind,
      summary: `绑定/解绑${k.label}（一次提交，全部成功或全部失败）`,
      tag,
      access: 'manager',
      body: bindBody,
      handler: ({ req, caller, body }) => devices.bind(ctx, caller, kind, body, req.ip),
    });
  }

  const sensorAccess = AREAS.gateway.permission;
  route(app, ctx, {
    method: 'GET',
    url: SENSOR_API.list,
    summary: '网关下的传感器列表',
    tag: 'sensor',
    access: sensorAccess,
    query: sensorListQuery,
    response: devicePage,
    handler: ({ caller, query }) => sensors.list(ctx, caller, query),
  });
  route(app, ctx, {
    method: 'GET',
    url: SENSOR_API.get,
    summary: '获取传感器',
    tag: 'sensor',
    access: sensorAccess,
    query: getDeviceQuery,
    response: deviceRow,
    handler: ({ caller, query }) => sensors.get(ctx, caller, query.id),
  });
  route(app, ctx, {
    method: 'POST',
    url: SENSOR_API.add,
    summary: '为网关添加传感器',
    tag: 'sensor',
    access: sensorAccess,
    body: addSensorBody,
    response: deviceRow,
    handler: ({ req, caller, body }) => sensors.add(ctx, caller, body, req.ip),
  });
  route(app, ctx, {
    method: 'POST',
    url: SENSOR_API.update,
    summary: '修改或删除传感器',
    tag: 'sensor',
    access: sensorAccess,
    body: updateDeviceBody,
    response: deviceRow,
    handler: ({ req, caller, body }) => sensors.update(ctx, caller, body, req.ip),
  });
}
