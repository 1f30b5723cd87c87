import { z } from 'zod';
import { PERMISSION, has } from '../permissions.ts';
import { idField, intField, keywordsField, pageQuery } from './envelope.ts';

/**
 * Smart campus (issue 15): an organisation's buildings and rooms and where its devices
 * are placed. Every campus account belongs to one organisation (users.org_id) and sees
 * only that organisation's structure, devices and figures.
 */
export const CAMPUS_API = {
  buildings: '/api/v1/campus/buildings',
  building: '/api/v1/campus/building',
  addBuilding: '/api/v1/campus/add-building',
  updateBuilding: '/api/v1/campus/update-building',
  rooms: '/api/v1/campus/rooms',
  room: '/api/v1/campus/room',
  addRoom: '/api/v1/campus/add-room',
  updateRoom: '/api/v1/campus/update-room',
  /** Devices placed in a room or building, and the devices that could be placed. */
  placements: '/api/v1/campus/placements',
  placeable: '/api/v1/campus/placeable-devices',
  place: '/api/v1/campus/place-device',
  unplace: '/api/v1/campus/unplace-device',
  /** The manager uploads a building's photo: PNG/JPEG/WebP up to BUILDING_PHOTO_MAX_BYTES, re-encoded. */
  uploadBuildingPhoto: '/api/v1/campus/upload-building-photo',
  /** The stored photo (an image, never run as a page). */
  buildingPhoto: '/api/v1/campus/building-photo',
  /** The data centre's figures for one organisation. */
  dataCenter: '/api/v1/campus/data-center',
} as const;

/** Building use (issue 15): stored key → label. */
export const BUILDING_USE = {
  teaching: '教学楼',
  lab: '实验楼',
  office: '办公楼',
  dormitory: '宿舍楼',
  canteen: '食堂',
  gym: '体育馆',
  library: '图书馆',
  other: '其他',
} as const;
export type BuildingUse = keyof typeof BUILDING_USE;
export const BUILDING_USE_KEYS = Object.keys(BUILDING_USE) as [BuildingUse, ...BuildingUse[]];

/** Room type (issue 15): stored key → label. */
export const ROOM_TYPE = {
  classroom: '教室',
  lab: '实验室',
  office: '办公室',
  dormitory: '宿舍',
  toilet: '卫生间',
  meeting: '会议室',
  server: '机房',
  other: '其他',
} as const;
export type RoomType = keyof typeof ROOM_TYPE;
export const ROOM_TYPE_KEYS = Object.keys(ROOM_TYPE) as [RoomType, ...RoomType[]];

/** Rows of migration 0024. */
export interface CampusBuilding {
  id: number;
  org_id: number;
  name: string;
  code: string;
  use: BuildingUse;
  floors_above: number;
  floors_below: number;
  area_m2: number | null;
  address: string;
  lng: number | null;
  lat: number | null;
  manager_name: string;
  manager_phone: string;
  photo: string;
  is_delete: boolean;
  created_at: string;
  updated_at: string;
}

export interface CampusRoom {
  id: number;
  org_id: number;
  building_id: number;
  floor: number;
  number: string;
  name: string;
  type: RoomType;
  area_m2: number | null;
  capacity: number | null;
  is_delete: boolean;
  created_at: string;
  updated_at: string;
}

export interface Placement {
  device_id: number;
  org_id: number;
  building_id: number;
  room_id: number | null;
  placed_by: number | null;
  placed_at: string;
}

const text = (label: string, max: number) => z.string().trim().max(max, `${label}不能超过${max}个字符`);
const optNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? null : typeof v === 'string' ? Number(v) : v),
    z
      .number({ error: `${label}必须是数字` })
      .min(min, `${label}不能小于${min}`)
      .max(max, `${label}不能大于${max}`)
      .nullable(),
  );

/** Developers and ssSuperSaled name the organisation; everyone else acts in their own. */
const orgField = { org_id: idField().optional() };

export const buildingFields = {
  name: text('名称', 60).min(1, '请填写名称'),
  code: text('编号', 30).default(''),
  use: z.enum(BUILDING_USE_KEYS, { error: '用途不正确' }).default('other'),
  floors_above: intField('地上层数')
    .pipe(z.number().int().min(0, '地上层数不能小于0').max(200, '地上层数不能大于200'))
    .default(1),
  floors_below: intField('地下层数')
    .pipe(z.number().int().min(0, '地下层数不能小于0').max(20, '地下层数不能大于20'))
    .default(0),
  area_m2: optNumber('建筑面积', 0, 10_000_000).optional(),
  address: text('地址', 200).default(''),
  lng: optNumber('经度', -180, 180).optional(),
  lat: optNumber('纬度', -90, 90).optional(),
  manager_name: text('负责人', 30).default(''),
  manager_phone: text('负责人电话', 30).default(''),
};
export const addBuildingBody = z.object({ ...buildingFields, ...orgField });
export const updateBuildingBody = z
  .object({ id: idField(), ...orgField })
  .extend(z.object(buildingFields).partial().shape)
  .extend({
    is_delete: z.preprocess((v) => v === 'true' || v === '1' || v === true, z.boolean()).optional(),
  });

export const roomFields = {
  building_id: idField(),
  floor: intField('楼层')
    .pipe(z.number().int().min(-20, '楼层不能小于-20').max(200, '楼层不能大于200'))
    .default(1),
  number: text('房间号', 30).min(1, '请填写房间号'),
  name: text('名称', 60).default(''),
  type: z.enum(ROOM_TYPE_KEYS, { error: '类型不正确' }).default('other'),
  area_m2: optNumber('面积', 0, 1_000_000).optional(),
  capacity: z
    .preprocess(
      (v) => (v === '' || v === null ? null : typeof v === 'string' ? Number(v) : v),
      z.number({ error: '容纳人数必须是整数' }).int('容纳人数必须是整数').min(0).max(100_000).nullable(),
    )
    .optional(),
};
export const addRoomBody = z.object({ ...roomFields, ...orgField });
export const updateRoomBody = z
  .object({ id: idField(), ...orgField })
  .extend(z.object(roomFields).partial().shape)
  .extend({
    is_delete: z.preprocess((v) => v === 'true' || v === '1' || v === true, z.boolean()).optional(),
  });

export const orgQuery = z.object(orgField);
export const campusIdQuery = z.object({ id: idField(), ...orgField });

/** A building's photo as uploaded, at most (re-encoded to WebP, 1600 px at most, on the server). */
export const BUILDING_PHOTO_MAX_BYTES = 5 * 1024 * 1024;

export const buildingListQuery = pageQuery.extend({
  ...orgField,
  keywords: keywordsField(),
  use: z.enum(BUILDING_USE_KEYS).optional(),
});
export const roomListQuery = pageQuery.extend({
  ...orgField,
  keywords: keywordsField(),
  building_id: idField().optional(),
  type: z.enum(ROOM_TYPE_KEYS).optional(),
  floor: intField().optional(),
});

export const placeDeviceBody = z.object({
  ...orgField,
  device_id: idField(),
  building_id: idField(),
  room_id: idField().optional(),
});

export const unplaceDeviceBody = z.object({ ...orgField, device_id: idField() });
export const placementsQuery = z.object({
  ...orgField,
  building_id: idField().optional(),
  room_id: idField().optional(),
});
export const campusPlaceableQuery = z.object({
  ...orgField,
  keywords: keywordsField(),
  kind: z.string().trim().max(30).optional(),
});

/** Figures of a place (a room, or a building rolling its rooms up) from its devices' latest state. */
export const placeFigures = {
  devices: z.number(),
  online: z.number(),
  co2: z.number().nullable(),
  nh3: z.number().nullable(),
  h2s: z.number().nullable(),
  voc: z.number().nullable(),
  pm25: z.number().nullable(),
  /** Occupied places a gateway reports; null when no gateway there reports occupancy. */
  occupancy: z.number().nullable(),
  last_time: z.string().nullable(),
  open_alarms: z.number(),
};
const ts = z.union([z.string(), z.date()]).transform((v) => (typeof v === 'string' ? v : v.toISOString()));
const tsNull = z
  .union([z.string(), z.date(), z.null()])
  .transform((v) => (v === null || typeof v === 'string' ? v : v.toISOString()));

export const buildingRow = z.object({
  id: z.number(),
  org_id: z.number(),
  name: z.string(),
  code: z.string(),
  use: z.string(),
  floors_above: z.number(),
  floors_below: z.number(),
  area_m2: z.number().nullable(),
  address: z.string(),
  lng: z.number().nullable(),
  lat: z.number().nullable(),
  manager_name: z.string(),
  manager_phone: z.string(),
  photo: z.string(),
  rooms: z.number(),
  ...placeFigures,
  last_time: tsNull,
  created_at: ts,
  updated_at: ts,
});
export type BuildingRow = z.infer<typeof buildingRow>;

export const roomRow = z.object({
  id: z.number(),
  org_id: z.number(),
  building_id: z.number(),
  building_name: z.string(),
  floor: z.number(),
  number: z.string(),
  name: z.string(),
  type: z.string(),
  area_m2: z.number().nullable(),
  capacity: z.number().nullable(),
  ...placeFigures,
  last_time: tsNull,
  created_at: ts,
  updated_at: ts,
});
export type RoomRow = z.infer<typeof roomRow>;

export const placedDevice = z.object({
  device_id: z.number(),
  kind: z.string(),
  ser_num: z.string(),
  desc: z.string(),
  building_id: z.number(),
  building_name: z.string(),
  room_id: z.number().nullable(),
  room_number: z.string().nullable(),
  online: z.boolean(),
  time: tsNull,
  latest: z.record(z.string(), z.unknown()),
  open_alarms: z.number(),
  placed_at: ts,
});
export type PlacedDevice = z.infer<typeof placedDevice>;

export const placeableDevice = z.object({
  id: z.number(),
  kind: z.string(),
  ser_num: z.string(),
  desc: z.string(),
  online: z.boolean(),
  building_id: z.number().nullable(),
  room_id: z.number().nullable(),
});
export type PlaceableDevice = z.infer<typeof placeableDevice>;

export const campusAlarm = z.object({
  id: z.number(),
  device_id: z.number(),
  ser_num: z.string(),
  desc: z.string(),
  type: z.string(),
  status: z.string(),
  message: z.string(),
  opened_at: ts,
  building_id: z.number(),
  building_name: z.string(),
  room_id: z.number().nullable(),
  room_number: z.string().nullable(),
});
export type CampusAlarm = z.infer<typeof campusAlarm>;

/** CO2 above which a classroom needs airing: SPEC §9's low threshold (1000 ppm); poor from 1800. */
export const CO2_AIRING_PPM = 1000;

export const campusDataCenter = z.object({
  org: z.object({ id: z.number(), name: z.string(), slogan: z.string(), logo: z.string() }),
  totals: z.object({
    buildings: z.number(),
    rooms: z.number(),
    devices: z.number(),
    online: z.number(),
    occupancy: z.number().nullable(),
    open_alarms: z.number(),
  }),
  buildings: z.array(buildingRow),
  rooms_by_co2: z.array(
    z.object({
      id: z.number(),
      building_id: z.number(),
      building_name: z.string(),
      number: z.string(),
      name: z.string(),
      type: z.string(),
      co2: z.number(),
      occupancy: z.number().nullable(),
    }),
  ),
  alarms: z.array(campusAlarm),
  /**
   * Electricity (kWh) and water (m³) of the meters placed in each building, from the usage
   * rollups (UTC+8 days): today and the same day last month, this month so far and the same
   * days of last month.
   */
  energy: z.array(
    z.object({
      building_id: z.number(),
      kind: z.enum(['electric_meter', 'water_meter']),
      today: z.number(),
      today_prev: z.number(),
      month: z.number(),
      month_prev: z.number(),
    }),
  ),
  generated_at: z.string(),
});
export type CampusDataCenter = z.infer<typeof campusDataCenter>;

export type CampusRight = 'read' | 'edit' | 'manage';

/**
 * The campus right a permission mask gives inside the account's organisation (SPEC §6):
 * ssVisitor reads, ssUser also edits rooms and acknowledges alarms, ssManager manages;
 * ssSuperSaled and develop manage the organisations they reach. Null: no campus role.
 */
export function campusRightOf(mask: number): CampusRight | null {
  if (
    has(mask, PERMISSION.develop) ||
    has(mask, PERMISSION.ssSuperSaled) ||
    has(mask, PERMISSION.ssManager)
  ) {
    return 'manage';
  }
  if (has(mask, PERMISSION.ssUser)) return 'edit';
  if (has(mask, PERMISSION.ssVisitor)) return 'read';
  return null;
}
