/**
 * Every statement of the smart campus (issue 15): an organisation's buildings and rooms,
 * the devices placed in them, and the figures rolled up from those devices' latest state
 * (devices.latest) and open alarms. Lists are per organisation and small (hundreds of
 * rooms), so keywords use likeSql.
 */
import { OFFLINE_MS, type CampusBuilding, type CampusRoom } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, likeSql, selectPage } from '../../db/sql.ts';
import type { Patchable } from '../../db/update.ts';

export const BUILDINGS: Patchable<
  | 'name'
  | 'code'
  | 'use'
  | 'floors_above'
  | 'floors_below'
  | 'area_m2'
  | 'address'
  | 'lng'
  | 'lat'
  | 'manager_name'
  | 'manager_phone'
  | 'photo'
  | 'is_delete'
> = {
  table: 'campus_buildings',
  columns: [
    'name',
    'code',
    'use',
    'floors_above',
    'floors_below',
    'area_m2',
    'address',
    'lng',
    'lat',
    'manager_name',
    'manager_phone',
    'photo',
    'is_delete',
  ],
};

export const ROOMS: Patchable<
  'building_id' | 'floor' | 'number' | 'name' | 'type' | 'area_m2' | 'capacity' | 'is_delete'
> = {
  table: 'campus_rooms',
  columns: ['building_id', 'floor', 'number', 'name', 'type', 'area_m2', 'capacity', 'is_delete'],
};

/** Online, per kind's offline window (SPEC §4, §9). */
const ONLINE = `coalesce(d.time >= now() - (CASE WHEN d.kind IN ('electric_meter', 'water_meter') THEN ${OFFLINE_MS.meter}
  WHEN d.kind = 'sensor' THEN ${OFFLINE_MS.sensor} ELSE ${OFFLINE_MS.default} END) * interval '1 millisecond', false)`;

/** A numeric field of a device's latest report, from a device online now; else null. */
const reading = (field: string) =>
  `CASE WHEN ${ONLINE} AND jsonb_typeof(d.latest -> '${field}') = 'number' THEN (d.latest ->> '${field}')::float8 END`;

const OCCUPY = ['male', 'female', 'others'].map((g) => `coalesce(${reading(`${g}_occupy`)}, 0)`).join(' + ');
const HAS_OCCUPY = ['male', 'female', 'others']
  .map((g) => `${reading(`${g}_occupy`)} IS NOT NULL`)
  .join(' OR ');

/**
 * The devices at a place: those placed there and the sensors on gateways placed there.
 * `where` selects placements (alias p).
 */
const devicesAt = (where: string) => `(
  SELECT p.device_id AS id FROM placements p WHERE ${where}
  UNION
  SELECT s.id FROM placements p JOIN devices s ON s.gateway_id = p.device_id WHERE ${where}
)`;

/** The figures of a set of devices (a room's, a building's). */
const figures = (where: string) => `LEFT JOIN LATERAL (
  SELECT count(*)::int AS devices,
         count(*) FILTER (WHERE ${ONLINE})::int AS online,
         max(${reading('co2')}) AS co2,
         max(${reading('nh3')}) AS nh3,
         max(${reading('h2s')}) AS h2s,
         max(${reading('voc')}) AS voc,
         max(${reading('pm25')}) AS pm25,
         CASE WHEN bool_or(${HAS_OCCUPY}) THEN sum(${OCCUPY})::int END AS occupancy,
         max(d.time) AS last_time,
         (SELECT count(*)::int FROM alarms a WHERE a.device_id = ANY(array_agg(d.id)) AND a.status = 'open') AS open_alarms
    FROM devices d
   WHERE d.id IN ${devicesAt(where)} AND NOT d.is_delete
) f ON true`;

const FIGURES = `f.devices, f.online, f.co2, f.nh3, f.h2s, f.voc, f.pm25, f.occupancy, f.last_time, f.open_alarms`;

export interface PlaceFigures {
  devices: number;
  online: number;
  co2: number | null;
  nh3: number | null;
  h2s: number | null;
  voc: number | null;
  pm25: number | null;
  occupancy: number | null;
  last_time: string | null;
  open_alarms: number;
}

export type BuildingRow = CampusBuilding & PlaceFigures & { rooms: number };
export type RoomRow = CampusRoom & PlaceFigures & { building_name: string };

const BUILDING_COLS = `b.id, b.org_id, b.name, b.code, b.use, b.floors_above, b.floors_below, b.area_m2, b.address,
  b.lng, b.lat, b.manager_name, b.manager_phone, b.photo, b.is_delete, b.created_at, b.updated_at`;
const ROOM_COLS = `r.id, r.org_id, r.building_id, r.floor, r.number, r.name, r.type, r.area_m2, r.capacity,
  r.is_delete, r.created_at, r.updated_at`;

export interface BuildingFilter {
  orgId: number;
  keywords?: string;
  use?: string;
  limit: number;
  offset: number;
}

export function listBuildings(q: Queryable, f: BuildingFilter) {
  const w = new Params();
  const cond = [`b.org_id = ${w.p(f.orgId)}::int`, 'NOT b.is_delete'];
  if (f.use) cond.push(`b.use = ${w.p(f.use)}`);
  if (f.keywords) cond.push(likeSql(w, ['b.name', 'b.code', 'b.address', 'b.manager_name'], f.keywords));
  const where = cond.join(' AND ');
  return selectPage<BuildingRow>(q, w, f, {
    list: (page) => `SELECT ${BUILDING_COLS}, ${FIGURES},
        (SELECT count(*)::int FROM campus_rooms r WHERE r.building_id = b.id AND NOT r.is_delete) AS rooms
      FROM (SELECT * FROM campus_buildings b WHERE ${where} ORDER BY b.code, b.id ${page}) b
      ${figures('p.building_id = b.id')}
      ORDER BY b.code, b.id`,
    where,
    countFrom: 'campus_buildings b',
  });
}

/** One building of an organisation (deleted ones too: restoring). */
export function findBuilding(q: Queryable, orgId: number, id: number) {
  return first<CampusBuilding>(
    q,
    `SELECT ${BUILDING_COLS} FROM campus_buildings b WHERE b.id = $1 AND b.org_id = $2`,
    [id, orgId],
  );
}

export async function buildingDetail(q: Queryable, orgId: number, id: number) {
  return first<BuildingRow>(
    q,
    `SELECT ${BUILDING_COLS}, ${FIGURES},
        (SELECT count(*)::int FROM campus_rooms r WHERE r.building_id = b.id AND NOT r.is_delete) AS rooms
       FROM campus_buildings b ${figures('p.building_id = b.id')}
      WHERE b.id = $1 AND b.org_id = $2 AND NOT b.is_delete`,
    [id, orgId],
  );
}

export async function buildingCodeTaken(q: Queryable, orgId: number, code: string, except?: number) {
  if (!code) return false;
  const r = await first(
    q,
    `SELECT 1 FROM campus_buildings WHERE org_id = $1 AND code = $2 AND NOT is_delete AND id <> $3`,
    [orgId, code, except ?? 0],
  );
  return r !== undefined;
}

export interface RoomFilter {
  orgId: number;
  buildingId?: number;
  keywords?: string;
  type?: string;
  floor?: number;
  limit: number;
  offset: number;
}

export function listRooms(q: Queryable, f: RoomFilter) {
  const w = new Params();
  const cond = [`r.org_id = ${w.p(f.orgId)}::int`, 'NOT r.is_delete'];
  if (f.buildingId) cond.push(`r.building_id = ${w.p(f.buildingId)}::int`);
  if (f.type) cond.push(`r.type = ${w.p(f.type)}`);
  if (f.floor !== undefined) cond.push(`r.floor = ${w.p(f.floor)}::int`);
  if (f.keywords) cond.push(likeSql(w, ['r.number', 'r.name'], f.keywords));
  const where = cond.join(' AND ');
  return selectPage<RoomRow>(q, w, f, {
    list: (page) => `SELECT ${ROOM_COLS}, b.name AS building_name, ${FIGURES}
      FROM (SELECT * FROM campus_rooms r WHERE ${where} ORDER BY r.building_id, r.floor, r.number, r.id ${page}) r
      JOIN campus_buildings b ON b.id = r.building_id
      ${figures('p.room_id = r.id')}
      ORDER BY b.code, r.building_id, r.floor, r.number, r.id`,
    where,
    countFrom: 'campus_rooms r',
  });
}

export function findRoom(q: Queryable, orgId: number, id: number) {
  return first<CampusRoom>(q, `SELECT ${ROOM_COLS} FROM campus_rooms r WHERE r.id = $1 AND r.org_id = $2`, [
    id,
    orgId,
  ]);
}

export function roomDetail(q: Queryable, orgId: number, id: number) {
  return first<RoomRow>(
    q,
    `SELECT ${ROOM_COLS}, b.name AS building_name, ${FIGURES}
       FROM campus_rooms r JOIN campus_buildings b ON b.id = r.building_id ${figures('p.room_id = r.id')}
      WHERE r.id = $1 AND r.org_id = $2 AND NOT r.is_delete`,
    [id, orgId],
  );
}

export async function roomNumberTaken(q: Queryable, buildingId: number, number: string, except?: number) {
  const r = await first(
    q,
    `SELECT 1 FROM campus_rooms WHERE building_id = $1 AND number = $2 AND NOT is_delete AND id <> $3`,
    [buildingId, number, except ?? 0],
  );
  return r !== undefined;
}

export async function liveRoomsOf(q: Queryable, buildingId: number) {
  const [r] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM campus_rooms WHERE building_id = $1 AND NOT is_delete',
    [buildingId],
  );
  return r!.n;
}

export interface PlacedDevice {
  device_id: number;
  kind: string;
  ser_num: string;
  desc: string;
  building_id: number;
  building_name: string;
  room_id: number | null;
  room_number: string | null;
  online: boolean;
  time: string | null;
  latest: Record<string, unknown>;
  open_alarms: number;
  placed_at: string;
}

const PLACED = `SELECT p.device_id, d.kind, d.ser_num, d."desc", p.building_id, b.name AS building_name,
    p.room_id, r.number AS room_number, ${ONLINE} AS online, d.time, d.latest, p.placed_at,
    (SELECT count(*)::int FROM alarms a WHERE a.device_id = d.id AND a.status = 'open') AS open_alarms
  FROM placements p
  JOIN devices d ON d.id = p.device_id
  JOIN campus_buildings b ON b.id = p.building_id
  LEFT JOIN campus_rooms r ON r.id = p.room_id`;

/** The devices placed in a building (all of them, rooms included) or in one room. */
export function placedDevices(q: Queryable, orgId: number, at: { buildingId?: number; roomId?: number }) {
  const w = new Params();
  const cond = [`p.org_id = ${w.p(orgId)}::int`, 'NOT d.is_delete'];
  if (at.buildingId) cond.push(`p.building_id = ${w.p(at.buildingId)}::int`);
  if (at.roomId) cond.push(`p.room_id = ${w.p(at.roomId)}::int`);
  return q.query<PlacedDevice>(
    `${PLACED} WHERE ${cond.join(' AND ')} ORDER BY r.number NULLS FIRST, d.kind, d.ser_num`,
    w.values,
  );
}

export interface PlaceableDevice {
  id: number;
  kind: string;
  ser_num: string;
  desc: string;
  online: boolean;
  building_id: number | null;
  room_id: number | null;
}

/**
 * Devices the organisation's manager sees (bindings of issue "devices"; sensors through
 * their gateways), with where each is placed now. `seen` is the access condition on d.id.
 */
export function placeableDevices(
  q: Queryable,
  w: Params,
  seen: string,
  f: { keywords?: string; kind?: string; limit: number },
) {
  const cond = [seen, 'NOT d.is_delete'];
  if (f.kind) cond.push(`d.kind = ${w.p(f.kind)}`);
  if (f.keywords) cond.push(likeSql(w, ['d.ser_num', 'd."desc"'], f.keywords));
  return q.query<PlaceableDevice>(
    `SELECT d.id, d.kind, d.ser_num, d."desc", ${ONLINE} AS online, p.building_id, p.room_id
       FROM devices d LEFT JOIN placements p ON p.device_id = d.id
      WHERE ${cond.join(' AND ')}
      ORDER BY d.kind, d.ser_num LIMIT ${w.p(f.limit)}`,
    w.values,
  );
}

export function findPlacement(q: Queryable, deviceId: number) {
  return first<{ device_id: number; org_id: number; building_id: number; room_id: number | null }>(
    q,
    'SELECT device_id, org_id, building_id, room_id FROM placements WHERE device_id = $1',
    [deviceId],
  );
}

export async function upsertPlacement(
  q: Queryable,
  p: { deviceId: number; orgId: number; buildingId: number; roomId: number | null; by: number },
) {
  await q.query(
    `INSERT INTO placements (device_id, org_id, building_id, room_id, placed_by)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (device_id) DO UPDATE SET org_id = $2, building_id = $3, room_id = $4, placed_by = $5, placed_at = now()`,
    [p.deviceId, p.orgId, p.buildingId, p.roomId, p.by],
  );
}

export async function removePlacement(q: Queryable, deviceId: number) {
  await q.query('DELETE FROM placements WHERE device_id = $1', [deviceId]);
}

/** Placements follow a deleted room up to its building, a deleted building's are removed. */
export async function movePlacementsOffRoom(q: Queryable, roomId: number) {
  await q.query('UPDATE placements SET room_id = NULL WHERE room_id = $1', [roomId]);
}
export async function removePlacementsOfBuilding(q: Queryable, buildingId: number) {
  await q.query('DELETE FROM placements WHERE building_id = $1', [buildingId]);
}

// ---- Data centre -------------------------------------------------------------------

export interface RankedRoom {
  id: number;
  building_id: number;
  building_name: string;
  number: string;
  name: string;
  type: string;
  co2: number;
  occupancy: number | null;
}

/**
 * Rooms by their latest CO2, highest first (the data centre's airing ranking). The room
 * figures of `figures`, computed for every room at once: one pass over the organisation's
 * placements instead of one per room.
 */
export function roomsByCo2(q: Queryable, orgId: number, limit: number) {
  const placed = 'p.org_id = $1 AND p.room_id IS NOT NULL';
  return q.query<RankedRoom>(
    `SELECT r.id, r.building_id, b.name AS building_name, r.number, r.name, r.type, f.co2, f.occupancy
       FROM (SELECT x.room_id, max(${reading('co2')}) AS co2,
                    CASE WHEN bool_or(${HAS_OCCUPY}) THEN sum(${OCCUPY})::int END AS occupancy
               FROM (SELECT p.room_id, p.device_id AS id FROM placements p WHERE ${placed}
                     UNION
                     SELECT p.room_id, s.id FROM placements p JOIN devices s ON s.gateway_id = p.device_id
                      WHERE ${placed}) x
               JOIN devices d ON d.id = x.id AND NOT d.is_delete
              GROUP BY x.room_id) f
       JOIN campus_rooms r ON r.id = f.room_id
       JOIN campus_buildings b ON b.id = r.building_id
      WHERE r.org_id = $1 AND NOT r.is_delete AND NOT b.is_delete AND f.co2 IS NOT NULL
      ORDER BY f.co2 DESC, r.id LIMIT $2`,
    [orgId, limit],
  );
}

export interface CampusAlarm {
  id: number;
  device_id: number;
  ser_num: string;
  desc: string;
  type: string;
  status: string;
  message: string;
  opened_at: string;
  building_id: number;
  building_name: string;
  room_id: number | null;
  room_number: string | null;
}

/** Open and acknowledged alarms of the organisation's placed devices (and their sensors), newest first. */
export function campusAlarms(q: Queryable, orgId: number, limit: number) {
  return q.query<CampusAlarm>(
    `SELECT a.id::int, a.device_id, d.ser_num, d."desc", a.type, a.status, a.message, a.opened_at,
            p.building_id, b.name AS building_name, p.room_id, r.number AS room_number
       FROM placements p
       JOIN devices d ON (d.id = p.device_id OR d.gateway_id = p.device_id) AND NOT d.is_delete
       JOIN alarms a ON a.device_id = d.id AND a.status <> 'closed'
       JOIN campus_buildings b ON b.id = p.building_id
       LEFT JOIN campus_rooms r ON r.id = p.room_id
      WHERE p.org_id = $1
      ORDER BY a.opened_at DESC, a.id DESC LIMIT $2`,
    [orgId, limit],
  );
}

/** Every building of the organisation with its figures (the data centre's building panel). */
export function buildingFigures(q: Queryable, orgId: number) {
  return q.query<BuildingRow>(
    `SELECT ${BUILDING_COLS}, ${FIGURES},
        (SELECT count(*)::int FROM campus_rooms r WHERE r.building_id = b.id AND NOT r.is_delete) AS rooms
       FROM campus_buildings b ${figures('p.building_id = b.id')}
      WHERE b.org_id = $1 AND NOT b.is_delete ORDER BY b.code, b.id`,
    [orgId],
  );
}

export function orgSummary(q: Queryable, orgId: number) {
  return first<{ id: number; name: string; slogan: string; logo: string }>(
    q,
    'SELECT id, name, slogan, logo FROM organisations WHERE id = $1',
    [orgId],
  );
}
