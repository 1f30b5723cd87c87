/**
 * Smart campus (issue 15): buildings, rooms and placement inside the caller's organisation.
 * Who may act where is asked of modules/access (campusRight, assertPlaceable); every add,
 * edit, delete and (un)placement goes through create/mutate with its audit entry.
 */
import { BUILDING_PHOTO_MAX_BYTES } from '@se/core';
import type {
  addBuildingBody,
  campusIdQuery,
  addRoomBody,
  buildingListQuery,
  CampusDataCenter,
  campusPlaceableQuery,
  placeDeviceBody,
  placementsQuery,
  roomListQuery,
  updateBuildingBody,
  updateRoomBody,
} from '@se/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext, Caller } from '../../context.ts';
import { Params, pageWindow } from '../../db/sql.ts';
import { insertRow } from '../../db/update.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { assertPlaceable, campusRight, placeableCondition } from '../access/campus.ts';
import { create, mutate } from '../audit/mutate.ts';
import { sendStored } from '../files/send.ts';
import { NOT_AN_IMAGE, replaceStoredImage } from '../files/stored-image.ts';
import { usageByPlace } from '../meters/repo.ts';
import * as repo from './repo.ts';

const NO_BUILDING = '楼宇不存在';
const NO_ROOM = '房间不存在';

// ---- Buildings -----------------------------------------------------------------------

export async function listBuildings(ctx: AppContext, caller: Caller, q: z.infer<typeof buildingListQuery>) {
  const s = await campusRight(ctx, caller, 'read', q.org_id);
  const r = await repo.listBuildings(ctx.db, {
    orgId: s.orgId,
    keywords: q.keywords,
    use: q.use,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function building(ctx: AppContext, caller: Caller, id: number, orgId?: number) {
  const s = await campusRight(ctx, caller, 'read', orgId);
  const b = await repo.buildingDetail(ctx.db, s.orgId, id);
  if (!b) throw notFound(NO_BUILDING);
  return b;
}

export async function addBuilding(
  ctx: AppContext,
  caller: Caller,
  body: z.infer<typeof addBuildingBody>,
  ip: string,
) {
  const { org_id, ...fields } = body;
  const s = await campusRight(ctx, caller, 'manage', org_id);
  if (await repo.buildingCodeTaken(ctx.db, s.orgId, fields.code)) throw conflict('楼宇编号已存在');
  const id = await create(ctx, caller, ip, {
    insert: (tx) => insertRow(tx, 'campus_buildings', { ...fields, org_id: s.orgId }),
    audit: { action: 'campus.building.add', entity: 'campus_building', targetUserId: null },
    after: fields,
  });
  return (await repo.buildingDetail(ctx.db, s.orgId, id))!;
}

export async function updateBuilding(
  ctx: AppContext,
  caller: Caller,
  body: z.infer<typeof updateBuildingBody>,
  ip: string,
) {
  const { id, org_id, ...patch } = body;
  const s = await campusRight(ctx, caller, 'manage', org_id);
  const row = await repo.findBuilding(ctx.db, s.orgId, id);
  // A deleted building is only there for its restore.
  if (!row || (row.is_delete && patch.is_delete !== false)) throw notFound(NO_BUILDING);
  if (patch.code !== undefined && (await repo.buildingCodeTaken(ctx.db, s.orgId, patch.code, id))) {
    throw conflict('楼宇编号已存在');
  }
  await mutate(ctx, caller, ip, {
    row,
    patch,
    table: repo.BUILDINGS,
    check: async (change) => {
      if (change.after.is_delete === true && (await repo.liveRoomsOf(ctx.db, id)) > 0) {
        throw conflict('该楼宇下还有房间，请先删除房间');
      }
    },
    write: async (tx, set) => {
      if (set.is_delete === true) await repo.removePlacementsOfBuilding(tx, id);
    },
    audit: (change) => ({
      action: change.after.is_delete === true ? 'campus.building.delete' : 'campus.building.update',
      entity: 'campus_building',
      entityId: id,
      targetUserId: null,
    }),
  });
  if (patch.is_delete === true) placementsChanged(ctx, s.orgId);
  return patch.is_delete === true ? { id } : (await repo.buildingDetail(ctx.db, s.orgId, id))!;
}

/**
 * The manager's photo of a building: checked by its bytes and re-encoded (no SVG, nothing
 * active survives), stored through the file-storage module; the row keeps its key.
 */
export async function uploadBuildingPhoto(
  ctx: AppContext,
  caller: Caller,
  q: z.infer<typeof campusIdQuery>,
  body: unknown,
  ip: string,
) {
  if (!Buffer.isBuffer(body)) throw badRequest(NOT_AN_IMAGE);
  const s = await campusRight(ctx, caller, 'manage', q.org_id);
  const row = await liveBuilding(ctx, s.orgId, q.id);
  const limits = { maxBytes: BUILDING_PHOTO_MAX_BYTES, maxSide: 1600 };
  const keyBase = `campus/${s.orgId}/building-${row.id}`;
  await replaceStoredImage(ctx, body, { keyBase, old: row.photo, limits }, (key) =>
    mutate(ctx, caller, ip, {
      row,
      patch: { photo: key },
      table: repo.BUILDINGS,
      audit: {
        action: 'campus.building.photo',
        entity: 'campus_building',
        entityId: row.id,
        targetUserId: null,
      },
    }),
  );
  return (await repo.buildingDetail(ctx.db, s.orgId, row.id))!;
}

/** The building's photo, for everyone who reads the campus. */
export async function sendBuildingPhoto(
  ctx: AppContext,
  caller: Caller,
  q: z.infer<typeof campusIdQuery>,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const s = await campusRight(ctx, caller, 'read', q.org_id);
  const row = await liveBuilding(ctx, s.orgId, q.id);
  if (!row.photo) throw notFound('该楼宇还没有照片');
  await sendStored(ctx, req, reply, row.photo, { filename: 'building.webp', inline: true });
}

// ---- Rooms ---------------------------------------------------------------------------

export async function listRooms(ctx: AppContext, caller: Caller, q: z.infer<typeof roomListQuery>) {
  const s = await campusRight(ctx, caller, 'read', q.org_id);
  if (q.building_id && !(await repo.findBuilding(ctx.db, s.orgId, q.building_id)))
    throw notFound(NO_BUILDING);
  const r = await repo.listRooms(ctx.db, {
    orgId: s.orgId,
    buildingId: q.building_id,
    keywords: q.keywords,
    type: q.type,
    floor: q.floor,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function room(ctx: AppContext, caller: Caller, id: number, orgId?: number) {
  const s = await campusRight(ctx, caller, 'read', orgId);
  const r = await repo.roomDetail(ctx.db, s.orgId, id);
  if (!r) throw notFound(NO_ROOM);
  return r;
}

async function liveBuilding(ctx: AppContext, orgId: number, id: number) {
  const b = await repo.findBuilding(ctx.db, orgId, id);
  if (!b || b.is_delete) throw notFound(NO_BUILDING);
  return b;
}

function checkFloor(b: { floors_above: number; floors_below: number }, floor: number) {
  if (floor === 0 || floor > b.floors_above || floor < -b.floors_below) {
    const range =
      b.floors_below > 0 ? `-${b.floors_below}～${b.floors_above}（不含 0）` : `1～${b.floors_above}`;
    throw badRequest(`楼层超出该楼宇的范围：${range}`);
  }
}

export async function addRoom(
  ctx: AppContext,
  caller: Caller,
  body: z.infer<typeof addRoomBody>,
  ip: string,
) {
  const { org_id, ...fields } = body;
  const s = await campusRight(ctx, caller, 'manage', org_id);
  const b = await liveBuilding(ctx, s.orgId, fields.building_id);
  checkFloor(b, fields.floor);
  if (await repo.roomNumberTaken(ctx.db, b.id, fields.number)) throw conflict('该楼宇已有此房间号');
  const id = await create(ctx, caller, ip, {
    insert: (tx) => insertRow(tx, 'campus_rooms', { ...fields, org_id: s.orgId }),
    audit: { action: 'campus.room.add', entity: 'campus_room', targetUserId: null },
    after: fields,
  });
  return (await repo.roomDetail(ctx.db, s.orgId, id))!;
}

/** ssUser edits a room's details; moving it to another building, or deleting it, is the manager's. */
export async function updateRoom(
  ctx: AppContext,
  caller: Caller,
  body: z.infer<typeof updateRoomBody>,
  ip: string,
) {
  const { id, org_id, ...patch } = body;
  const structural = patch.is_delete !== undefined || patch.building_id !== undefined;
  const s = await campusRight(ctx, caller, structural ? 'manage' : 'edit', org_id);
  const row = await repo.findRoom(ctx.db, s.orgId, id);
  if (!row || (row.is_delete && patch.is_delete !== false)) throw notFound(NO_ROOM);
  const buildingId = patch.building_id ?? row.building_id;
  const b = await liveBuilding(ctx, s.orgId, buildingId);
  if (patch.floor !== undefined || patch.building_id !== undefined) checkFloor(b, patch.floor ?? row.floor);
  const number = patch.number ?? row.number;
  if (
    (patch.number !== undefined || patch.building_id !== undefined || patch.is_delete === false) &&
    (await repo.roomNumberTaken(ctx.db, buildingId, number, id))
  ) {
    throw conflict('该楼宇已有此房间号');
  }
  await mutate(ctx, caller, ip, {
    row,
    patch,
    table: repo.ROOMS,
    write: async (tx, set) => {
      if (set.is_delete === true) await repo.movePlacementsOffRoom(tx, id);
      if (set.building_id !== undefined) await repo.movePlacementsOffRoom(tx, id);
    },
    audit: (change) => ({
      action: change.after.is_delete === true ? 'campus.room.delete' : 'campus.room.update',
      entity: 'campus_room',
      entityId: id,
      targetUserId: null,
    }),
  });
  return patch.is_delete === true ? { id } : (await repo.roomDetail(ctx.db, s.orgId, id))!;
}

// ---- Placement -----------------------------------------------------------------------

export async function placements(ctx: AppContext, caller: Caller, q: z.infer<typeof placementsQuery>) {
  const s = await campusRight(ctx, caller, 'read', q.org_id);
  if (q.building_id) await liveBuilding(ctx, s.orgId, q.building_id);
  if (q.room_id) {
    const r = await repo.findRoom(ctx.db, s.orgId, q.room_id);
    if (!r || r.is_delete) throw notFound(NO_ROOM);
  }
  return repo.placedDevices(ctx.db, s.orgId, { buildingId: q.building_id, roomId: q.room_id });
}

export async function placeable(ctx: AppContext, caller: Caller, q: z.infer<typeof campusPlaceableQuery>) {
  const s = await campusRight(ctx, caller, 'manage', q.org_id);
  const w = new Params();
  const seen = placeableCondition(w, s);
  return repo.placeableDevices(ctx.db, w, seen, { keywords: q.keywords, kind: q.kind, limit: 200 });
}

export async function place(
  ctx: AppContext,
  caller: Caller,
  body: z.infer<typeof placeDeviceBody>,
  ip: string,
) {
  const s = await campusRight(ctx, caller, 'manage', body.org_id);
  await assertPlaceable(ctx, s, body.device_id);
  const b = await liveBuilding(ctx, s.orgId, body.building_id);
  let roomId: number | null = null;
  if (body.room_id !== undefined) {
    const r = await repo.findRoom(ctx.db, s.orgId, body.room_id);
    if (!r || r.is_delete) throw notFound(NO_ROOM);
    if (r.building_id !== b.id) throw badRequest('房间不在所选楼宇内');
    roomId = r.id;
  }
  const before = await repo.findPlacement(ctx.db, body.device_id);
  if (before && before.org_id !== s.orgId) throw conflict('该设备已放置在其他组织');
  const row = {
    id: body.device_id,
    building_id: before?.building_id ?? null,
    room_id: before?.room_id ?? null,
  };
  await mutate(ctx, caller, ip, {
    row,
    patch: { building_id: b.id, room_id: roomId },
    write: (tx) =>
      repo.upsertPlacement(tx, {
        deviceId: body.device_id,
        orgId: s.orgId,
        buildingId: b.id,
        roomId,
        by: caller.id,
      }),
    audit: { action: 'campus.place', entity: 'device', entityId: body.device_id, targetUserId: null },
  });
  placementsChanged(ctx, s.orgId, before?.org_id);
  return repo.placedDevices(ctx.db, s.orgId, roomId ? { roomId } : { buildingId: b.id });
}

/** Live 'campus' subscribers of the organisation follow its placed devices at once. */
function placementsChanged(ctx: AppContext, ...orgIds: (number | undefined)[]) {
  ctx.events.emit('placements', [...new Set(orgIds.filter((o) => o !== undefined))]);
}

export async function unplace(
  ctx: AppContext,
  caller: Caller,
  deviceId: number,
  orgId: number | undefined,
  ip: string,
) {
  const s = await campusRight(ctx, caller, 'manage', orgId);
  const before = await repo.findPlacement(ctx.db, deviceId);
  if (!before || before.org_id !== s.orgId) throw notFound('该设备未放置在本组织');
  await mutate(ctx, caller, ip, {
    row: { id: deviceId, building_id: before.building_id, room_id: before.room_id },
    patch: { building_id: null, room_id: null },
    write: (tx) => repo.removePlacement(tx, deviceId),
    audit: { action: 'campus.unplace', entity: 'device', entityId: deviceId, targetUserId: null },
  });
  placementsChanged(ctx, s.orgId);
  return { device_id: deviceId };
}

// ---- Data centre ---------------------------------------------------------------------

export async function dataCenter(ctx: AppContext, caller: Caller, orgId?: number): Promise<CampusDataCenter> {
  const s = await campusRight(ctx, caller, 'read', orgId);
  const w = energyWindows(new Date());
  const usage = (from: Date, to: Date, grain: 'day' | 'month' = 'day') =>
    usageByPlace(ctx.db, s.orgId, 'building', grain, from.toISOString(), to.toISOString());
  const [org, buildings, ranked, alarms, today, todayPrev, month, monthPrev] = await Promise.all([
    repo.orgSummary(ctx.db, s.orgId),
    repo.buildingFigures(ctx.db, s.orgId),
    repo.roomsByCo2(ctx.db, s.orgId, 15),
    repo.campusAlarms(ctx.db, s.orgId, 30),
    usage(w.today, w.tomorrow),
    usage(w.todayPrev, w.todayPrevEnd),
    // This month so far is its month rollup (one row a meter), not the sum of its days.
    usage(w.monthStart, w.tomorrow, 'month'),
    usage(w.prevMonthStart, w.prevMonthEnd),
  ]);
  const energy = new Map<string, CampusDataCenter['energy'][number]>();
  const add = (rows: typeof today, field: 'today' | 'today_prev' | 'month' | 'month_prev') => {
    for (const r of rows) {
      const key = `${r.place_id}|${r.kind}`;
      const e = energy.get(key) ?? {
        building_id: r.place_id,
        kind: r.kind as 'electric_meter' | 'water_meter',
        today: 0,
        today_prev: 0,
        month: 0,
        month_prev: 0,
      };
      e[field] += r.usage;
      energy.set(key, e);
    }
  };
  add(today, 'today');
  add(todayPrev, 'today_prev');
  add(month, 'month');
  add(monthPrev, 'month_prev');
  const sum = (k: 'rooms' | 'devices' | 'online' | 'open_alarms') => buildings.reduce((n, b) => n + b[k], 0);
  const occ = buildings.filter((b) => b.occupancy !== null);
  return {
    org: org!,
    totals: {
      buildings: buildings.length,
      rooms: sum('rooms'),
      devices: sum('devices'),
      online: sum('online'),
      occupancy: occ.length ? occ.reduce((n, b) => n + b.occupancy!, 0) : null,
      open_alarms: sum('open_alarms'),
    },
    buildings: buildings as CampusDataCenter['buildings'],
    rooms_by_co2: ranked,
    alarms: alarms as CampusDataCenter['alarms'],
    energy: [...energy.values()],
    generated_at: new Date().toISOString(),
  };
}

const DAY_MS = 86_400_000;
const TZ_MS = 8 * 3_600_000;

/**
 * The data centre's energy windows in UTC+8 days: today, the same day last month, this
 * month so far and the same days of last month (cut at that month's end).
 */
export function energyWindows(now: Date) {
  const local = new Date(now.getTime() + TZ_MS);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth();
  const d = local.getUTCDate();
  const at = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day) - TZ_MS);
  const prevMonthDays = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const prevDay = Math.min(d, prevMonthDays);
  return {
    today: at(y, m, d),
    tomorrow: at(y, m, d + 1),
    todayPrev: at(y, m - 1, prevDay),
    todayPrevEnd: new Date(at(y, m - 1, prevDay).getTime() + DAY_MS),
    monthStart: at(y, m, 1),
    prevMonthStart: at(y, m - 1, 1),
    prevMonthEnd: at(y, m - 1, prevDay + 1),
  };
}
