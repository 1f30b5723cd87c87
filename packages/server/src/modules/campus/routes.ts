import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AREAS,
  BUILDING_PHOTO_MAX_BYTES,
  CAMPUS_API,
  addBuildingBody,
  addRoomBody,
  buildingListQuery,
  buildingRow,
  campusDataCenter,
  campusIdQuery,
  orgQuery,
  pageOf,
  placeDeviceBody,
  placeableDevice,
  campusPlaceableQuery,
  placedDevice,
  placementsQuery,
  roomListQuery,
  roomRow,
  unplaceDeviceBody,
  updateBuildingBody,
  updateRoomBody,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import { areaRoutes } from '../../http/route.ts';
import * as campus from './service.ts';

export function campusRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = areaRoutes(app, ctx, { tag: 'campus', access: AREAS.campus.permission });

  r({
    method: 'GET',
    url: CAMPUS_API.buildings,
    summary: '楼宇列表（本组织；含房间数、设备在线、空气质量、在用人数、未处理报警的汇总）',
    query: buildingListQuery,
    response: pageOf(buildingRow),
    handler: ({ caller, query }) => campus.listBuildings(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: CAMPUS_API.building,
    summary: '楼宇详情',
    query: campusIdQuery,
    response: buildingRow,
    handler: ({ caller, query }) => campus.building(ctx, caller, query.id, query.org_id),
  });
  r({
    method: 'POST',
    url: CAMPUS_API.addBuilding,
    summary: '新增楼宇（园区管理员）',
    body: addBuildingBody,
    response: buildingRow,
    handler: ({ req, caller, body }) => campus.addBuilding(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: CAMPUS_API.updateBuilding,
    summary: '修改、删除（is_delete=true）或恢复楼宇（园区管理员）',
    body: updateBuildingBody,
    response: z.union([buildingRow, z.object({ id: z.number() })]),
    handler: ({ req, caller, body }) => campus.updateBuilding(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: CAMPUS_API.uploadBuildingPhoto,
    summary:
      '上传楼宇照片（园区管理员；请求体为 PNG/JPEG/WebP 图片，不超过 5 MB，服务器重新编码，不支持 SVG）',
    query: campusIdQuery,
    upload: { maxBytes: BUILDING_PHOTO_MAX_BYTES, accept: 'PNG、JPEG 或 WebP 图片' },
    response: buildingRow,
    handler: ({ req, caller, query }) => campus.uploadBuildingPhoto(ctx, caller, query, req.body, req.ip),
  });
  r({
    method: 'GET',
    url: CAMPUS_API.buildingPhoto,
    summary: '楼宇照片',
    query: campusIdQuery,
    raw: true,
    handler: async ({ req, reply, caller, query }) => {
      await campus.sendBuildingPhoto(ctx, caller, query, req, reply);
      return null;
    },
  });

  r({
    method: 'GET',
    url: CAMPUS_API.rooms,
    summary: '房间列表（本组织；含最新空气质量、在用人数、未处理报警）',
    query: roomListQuery,
    response: pageOf(roomRow),
    handler: ({ caller, query }) => campus.listRooms(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: CAMPUS_API.room,
    summary: '房间详情',
    query: campusIdQuery,
    response: roomRow,
    handler: ({ caller, query }) => campus.room(ctx, caller, query.id, query.org_id),
  });
  r({
    method: 'POST',
    url: CAMPUS_API.addRoom,
    summary: '新增房间（园区管理员）',
    body: addRoomBody,
    response: roomRow,
    handler: ({ req, caller, body }) => campus.addRoom(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: CAMPUS_API.updateRoom,
    summary: '修改房间信息（园区用户）；换楼宇、删除或恢复（园区管理员）',
    body: updateRoomBody,
    response: z.union([roomRow, z.object({ id: z.number() })]),
    handler: ({ req, caller, body }) => campus.updateRoom(ctx, caller, body, req.ip),
  });

  r({
    method: 'GET',
    url: CAMPUS_API.placements,
    summary: '放置在楼宇或房间内的设备（含最新数据与未处理报警）',
    query: placementsQuery,
    response: z.array(placedDevice),
    handler: ({ caller, query }) => campus.placements(ctx, caller, query),
  });
  r({
    method: 'GET',
    url: CAMPUS_API.placeable,
    summary: '可放置的设备：组织管理员名下的设备（园区管理员）',
    query: campusPlaceableQuery,
    response: z.array(placeableDevice),
    handler: ({ caller, query }) => campus.placeable(ctx, caller, query),
  });
  r({
    method: 'POST',
    url: CAMPUS_API.place,
    summary: '把设备放置到房间（或没有合适房间时放到楼宇）（园区管理员）',
    body: placeDeviceBody,
    response: z.array(placedDevice),
    handler: ({ req, caller, body }) => campus.place(ctx, caller, body, req.ip),
  });
  r({
    method: 'POST',
    url: CAMPUS_API.unplace,
    summary: '取消设备的放置（园区管理员）',
    body: unplaceDeviceBody,
    response: z.object({ device_id: z.number() }),
    handler: ({ req, caller, body }) => campus.unplace(ctx, caller, body.device_id, body.org_id, req.ip),
  });

  r({
    method: 'GET',
    url: CAMPUS_API.dataCenter,
    summary: '园区数据中心：楼宇汇总、CO2 排行、在用人数、报警动态、设备在线',
    query: orgQuery,
    response: campusDataCenter,
    handler: ({ caller, query }) => campus.dataCenter(ctx, caller, query.org_id),
  });
}
