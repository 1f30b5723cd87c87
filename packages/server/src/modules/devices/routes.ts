import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  DEVICE_INFO_API,
  DEVICE_KINDS,
  SENSOR_API,
  addDeviceBody,
  addSensorBody,
  bindBody,
  bindListQuery,
  bindRow,
  deviceInfo,
  deviceListQuery,
  devicePage,
  deviceRow,
  getDeviceQuery,
  pageOf,
  sensorListQuery,
  updateDeviceBody,
  updateDeviceInfoBody,
  type DeviceKind,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import { SHEET_UPLOAD_MAX_BYTES } from '../../uploads/spreadsheets.ts';
import * as info from './info.ts';
import { attachment } from '../files/send.ts';
import * as sensors from './sensors.ts';
import * as transfer from './transfer.ts';
import * as devices from './service.ts';

/** The functional area (and so the permission) of each kind's screens and calls. */
export const AREA_OF: Record<DeviceKind, keyof typeof AREAS> = {
  jwb: 'jwb',
  evaluate: 'evaluate',
  gateway: 'gateway',
  paper_machine: 'paper',
  electric_meter: 'meter',
  water_meter: 'meter',
  attendance: 'attendance',
  player: 'media',
};

/** What a spreadsheet import route takes and answers (devices, employees). */
export const SHEET_IMPORT = {
  query: z.object({ mode: z.enum(['all', 'valid'], '导入方式只能是 all 或 valid').default('all') }),
  upload: { maxBytes: SHEET_UPLOAD_MAX_BYTES, accept: '.xlsx 或 .csv' },
  response: z.object({
    imported: z.number(),
    total_rows: z.number(),
    errors: z.array(z.object({ row: z.number(), field: z.string(), message: z.string() })),
  }),
};

/** The same six calls for every kind of the registry, at the paths DEVICE_KINDS names. */
export function deviceRoutes(app: FastifyInstance, ctx: AppContext) {
  for (const kind of Object.keys(DEVICE_KINDS) as DeviceKind[]) {
    const k = DEVICE_KINDS[kind];
    const r = areaRoutes(app, ctx, { tag: kind, access: AREAS[AREA_OF[kind]].permission });

    r({
      method: 'GET',
      url: `${k.base}/${k.plural}`,
      summary: `${k.label}列表`,
      query: deviceListQuery,
      response: devicePage,
      handler: ({ caller, query }) => devices.list(ctx, caller, kind, query),
    });

    r({
      method: 'GET',
      url: `${k.base}/get-${k.one}`,
      summary: `获取${k.label}`,
      query: getDeviceQuery,
      response: deviceRow,
      handler: ({ caller, query }) => devices.get(ctx, caller, kind, query.id),
    });

    r({
      method: 'POST',
      url: `${k.base}/add-${k.one}`,
      summary: `登记${k.label}`,
      body: addDeviceBody,
      response: deviceRow,
      handler: ({ req, caller, body }) => devices.add(ctx, caller, kind, body, req.ip),
    });

    r({
      method: 'POST',
      url: `${k.base}/update-${k.one}`,
      summary: `修改或删除${k.label}`,
      body: updateDeviceBody,
      response: deviceRow,
      handler: ({ req, caller, body }) => devices.update(ctx, caller, kind, body, req.ip),
    });

    r({
      method: 'GET',
      url: `${k.base}/export-${k.plural}`,
      summary: `导出${k.label}列表（.xlsx，筛选条件同列表）`,
      // A spreadsheet built per call; people export now and then, not in a loop.
      userRateLimit: { max: 10, windowMs: 60_000 },
      query: deviceListQuery,
      raw: true,
      handler: async ({ caller, query, reply }) => {
        // Checks access (owner_id) before any byte of the file is sent.
        await devices.filterOf(ctx, caller, kind, query);
        const name = `${k.label}-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}.xlsx`;
        reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', attachment(name))
          .send(transfer.exportStream(ctx, caller, kind, query));
        return null;
      },
    });

    r({
      method: 'GET',
      url: `${k.base}/import-template-${k.one}`,
      summary: `${k.label}导入模板`,
      query: z.object({ format: z.enum(['xlsx', 'csv'], '格式只能是 xlsx 或 csv').default('xlsx') }),
      raw: true,
      handler: async ({ query, reply }) => {
        const t = await transfer.template(kind, query.format);
        reply.header('content-type', t.type).header('content-disposition', attachment(t.name)).send(t.body);
        return null;
      },
    });

    r({
      method: 'POST',
      url: `${k.base}/import-${k.plural}`,
      summary: `批量导入${k.label}（请求体为 .xlsx 或 .csv 文件；mode=all 有错误行则不导入，mode=valid 只导入有效行）`,
      ...SHEET_IMPORT,
      handler: ({ req, caller, query }) =>
        transfer.importDevices(
          ctx,
          caller,
          kind,
          req.body as Buffer | undefined,
          String(req.headers['content-type'] ?? ''),
          query.mode,
          req.ip,
        ),
    });

    r({
      method: 'GET',
      url: k.bindList,
      summary: `可绑定的${k.label}（标明是否已绑定目标用户）`,
      access: 'manager',
      query: bindListQuery,
      response: pageOf(bindRow),
      handler: ({ caller, query }) => devices.bindList(ctx, caller, kind, query),
    });

    r({
      method: 'POST',
      url: k.bind,
      summary: `绑定/解绑${k.label}（一次提交，全部成功或全部失败）`,
      access: 'manager',
      body: bindBody,
      handler: ({ req, caller, body }) => devices.bind(ctx, caller, kind, body, req.ip),
    });
  }

  const sensor = areaRoutes(app, ctx, { tag: 'sensor', access: AREAS.gateway.permission });
  const device = areaRoutes(app, ctx, { tag: 'device', access: 0 });
  sensor({
    method: 'GET',
    url: SENSOR_API.list,
    summary: '网关下的传感器列表',
    query: sensorListQuery,
    response: devicePage,
    handler: ({ caller, query }) => sensors.list(ctx, caller, query),
  });
  sensor({
    method: 'GET',
    url: SENSOR_API.get,
    summary: '获取传感器',
    query: getDeviceQuery,
    response: deviceRow,
    handler: ({ caller, query }) => sensors.get(ctx, caller, query.id),
  });
  sensor({
    method: 'POST',
    url: SENSOR_API.add,
    summary: '为网关添加传感器',
    body: addSensorBody,
    response: deviceRow,
    handler: ({ req, caller, body }) => sensors.add(ctx, caller, body, req.ip),
  });
  sensor({
    method: 'POST',
    url: SENSOR_API.update,
    summary: '修改或删除传感器',
    body: updateDeviceBody,
    response: deviceRow,
    handler: ({ req, caller, body }) => sensors.update(ctx, caller, body, req.ip),
  });

  device({
    method: 'GET',
    url: DEVICE_INFO_API.get,
    summary: '设备信息（通信号、硬件/软件版本、IMEI、SIM、MAC）',
    query: getDeviceQuery,
    response: deviceInfo,
    handler: ({ caller, query }) => info.get(ctx, caller, query.id),
  });
  device({
    method: 'POST',
    url: DEVICE_INFO_API.update,
    summary: '修改设备信息',
    body: updateDeviceInfoBody,
    response: deviceInfo,
    handler: ({ caller, body }) => info.update(ctx, caller, body),
  });
}
