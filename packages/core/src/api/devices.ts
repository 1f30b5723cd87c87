import { z } from 'zod';
import { EXTERNAL_TYPE, INDUSTRIAL_TYPES, OFFLINE_MS } from '../devices.ts';
import { boolField, idField, intField, keywordsField, pageOf, pageQuery } from './envelope.ts';

/**
 * The registry's device kinds and their API paths. Binding paths are the spec's (SPEC §7);
 * the CRUD paths follow ARCHITECTURE §3's pattern under the same area prefix.
 */
export const DEVICE_KINDS = {
  jwb: {
    label: '除臭机',
    base: '/api/v1/jwb',
    plural: 'jwbs',
    one: 'jwb',
    bindList: '/api/v1/jwb/get-user-jwb',
    bind: '/api/v1/jwb/bind-user-jwb',
    offline: OFFLINE_MS.default,
    type: null,
  },
  evaluate: {
    label: '评价器',
    base: '/api/v1/evaluate',
    plural: 'evaluates',
    one: 'evaluate',
    bindList: '/api/v1/evaluate/get-user-evl',
    bind: '/api/v1/evaluate/bind-user-evl',
    offline: OFFLINE_MS.default,
    type: null,
  },
  gateway: {
    label: '网关',
    base: '/api/v1/gateway',
    plural: 'gateways',
    one: 'gateway',
    bindList: '/api/v1/gateway/get-user-gateway',
    bind: '/api/v1/gateway/bind-user-gateway',
    offline: OFFLINE_MS.default,
    type: null,
  },
  paper_machine: {
    label: '智能纸巾机',
    base: '/api/v1/extras',
    plural: 'paper-machines',
    one: 'paper-machine',
    bindList: '/api/v1/extras/get-user-pm',
    bind: '/api/v1/extras/bind-user-pm',
    offline: OFFLINE_MS.default,
    type: EXTERNAL_TYPE.paperMachine,
  },
  electric_meter: {
    label: '电表',
    base: '/api/v1/extras',
    plural: 'electric-meters',
    one: 'electric-meter',
    bindList: '/api/v1/extras/get-user-em',
    bind: '/api/v1/extras/bind-user-em',
    offline: OFFLINE_MS.meter,
    type: EXTERNAL_TYPE.electricMeter,
  },
  water_meter: {
    label: '水表',
    base: '/api/v1/extras',
    plural: 'water-meters',
    one: 'water-meter',
    bindList: '/api/v1/extras/get-user-wm',
    bind: '/api/v1/extras/bind-user-wm',
    offline: OFFLINE_MS.meter,
    type: EXTERNAL_TYPE.waterMeter,
  },
  /** Clock-in terminals (issue 16): they report punches; see docs/protocol.md. */
  attendance: {
    label: '考勤机',
    base: '/api/v1/attendance',
    plural: 'terminals',
    one: 'terminal',
    bindList: '/api/v1/attendance/get-user-terminal',
    bind: '/api/v1/attendance/bind-user-terminal',
    offline: OFFLINE_MS.default,
    type: null,
  },
  player: {
    label: '播放器',
    base: '/api/v1/media',
    plural: 'player-devices',
    one: 'player',
    bindList: '/api/v1/media/get-user-player',
    bind: '/api/v1/media/bind-user-player',
    offline: OFFLINE_MS.default,
    type: null,
  },
} as const;
export type DeviceKind = keyof typeof DEVICE_KINDS;

/** Ids in a form: `1,2,3`, repeated keys, or JSON text (ARCHITECTURE §3). */
export const idList = (label: string) =>
  z.preprocess(
    (v) => {
      if (v === undefined || v === null || v === '') return [];
      if (Array.isArray(v)) return v.flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]));
      if (typeof v === 'string') {
        const t = v.trim();
        if (t.startsWith('[')) {
          try {
            return JSON.parse(t);
          } catch {
            return v;
          }
        }
        return t.split(',');
      }
      return v;
    },
    z
      .array(
        z.preprocess(
          (x) => (typeof x === 'string' && /^\s*\d+\s*$/.test(x) ? Number(x) : x),
          z
            .number({ error: `${label}必须是ID列表` })
            .int()
            .min(1)
            .max(2_147_483_647),
        ),
        { error: `${label}必须是ID列表` },
      )
      .max(1000, `${label}一次最多1000个`),
  );

/** The ids a bind or place form links (`add_ids`) and unlinks (`remove_ids`), beside its target. */
export const linkChange = () => ({ add_ids: idList('add_ids'), remove_ids: idList('remove_ids') });

/**
 * Industrial type (SPEC §3): one of INDUSTRIAL_TYPES, or unlimited (null; an empty value
 * in a form or sheet means unlimited).
 */
export const industrialTypeField = () =>
  z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim() : v),
      z
        .enum(INDUSTRIAL_TYPES.map((t) => t.value) as [string, ...string[]], '工业类型只能是不限或 BH-50')
        .nullable(),
    )
    .optional();

export const deviceListQuery = pageQuery.extend({
  keywords: keywordsField(),
  /** Online 1<<17 and offline 1<<18 bits (SPEC §4); none or both: every device. */
  status: intField().pipe(z.number().int().min(0)).optional(),
  type: intField().optional(),
  industrial_type: z.string().trim().max(20).optional(),
  /** Only devices bound to this user (or its subtree). */
  owner_id: idField().optional(),
  gateway_id: idField().optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

const coord = (min: number, max: number, label: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v),
    z
      .number({ error: `${label}必须是数字` })
      .min(min, `${label}超出范围`)
      .max(max, `${label}超出范围`)
      .optional(),
  );

export const serNum = z
  .string()
  .trim()
  .min(1, '序列号不能为空')
  .max(64, '序列号不能超过64个字符')
  .regex(/^[A-Za-z0-9_.:-]+$/, '序列号只能包含字母、数字、下划线、点、冒号和短横线');

const deviceFields = {
  desc: z.string().trim().max(100, '描述不能超过100个字符'),
  lng: coord(-180, 180, '经度'),
  lat: coord(-90, 90, '纬度'),
  location: z.string().trim().max(200, '位置不能超过200个字符'),
  version: z.string().trim().max(50, '版本不能超过50个字符'),
  url: z.string().trim().max(500, '地址不能超过500个字符'),
  type: intField().optional(),
  industrial_type: industrialTypeField(),
  gateway_id: idField().optional(),
};

export const addDeviceBody = z.object({
  ser_num: serNum,
  desc: deviceFields.desc.default(''),
  lng: deviceFields.lng,
  lat: deviceFields.lat,
  location: deviceFields.location.default(''),
  version: deviceFields.version.default(''),
  url: deviceFields.url.default(''),
  type: deviceFields.type,
  industrial_type: deviceFields.industrial_type,
  gateway_id: deviceFields.gateway_id,
});
export type AddDeviceBody = z.infer<typeof addDeviceBody>;

export const updateDeviceBody = z.object({
  id: idField(),
  is_delete: boolField().optional(),
  desc: deviceFields.desc.optional(),
  lng: deviceFields.lng,
  lat: deviceFields.lat,
  location: deviceFields.location.optional(),
  version: deviceFields.version.optional(),
  url: deviceFields.url.optional(),
  type: deviceFields.type,
  industrial_type: deviceFields.industrial_type,
});
export type UpdateDeviceBody = z.infer<typeof updateDeviceBody>;

export const getDeviceQuery = z.object({ id: idField() });

export const deviceInfo = z.object({
  id: z.number(),
  com_num: z.string(),
  hard_num: z.string(),
  soft_num: z.string(),
  imei_num: z.string(),
  sim_num: z.string(),
  mac_address: z.string(),
  create_time: z.string(),
  update_time: z.string(),
});
export type DeviceInfoRow = z.infer<typeof deviceInfo>;

/** A device's toilet (when the caller sees it) and campus place (issue 19). */
export const devicePlace = z.object({
  toilet_id: z.number().nullable(),
  toilet_name: z.string(),
  building_id: z.number().nullable(),
  building_name: z.string(),
  room_id: z.number().nullable(),
  room_number: z.string(),
  room_name: z.string(),
});
export type DevicePlace = z.infer<typeof devicePlace>;

/** An account a device is bound to, as the device's drawer lists it. */
export const boundUser = z.object({ id: z.number(), user_name: z.string(), manageable: z.boolean() });
export type BoundUser = z.infer<typeof boundUser>;

export const deviceRow = z.object({
  id: z.number(),
  kind: z.string(),
  is_delete: z.boolean(),
  ser_num: z.string(),
  desc: z.string(),
  lng: z.number().nullable(),
  lat: z.number().nullable(),
  location: z.string(),
  version: z.string(),
  url: z.string(),
  /**
   * The secret the device signs in with: only in the single-device answer (get-…, add-…,
   * update-…) and only to those who manage the device (docs/permissions.md).
   */
  token: z.string().optional(),
  /** Last report, ms since the epoch; null before the first one. */
  time: z.number().nullable(),
  online: z.boolean(),
  warning: z.number(),
  star_count: z.number(),
  star_level: z.number(),
  config_date: z.string().nullable(),
  parameter_num: z.number().nullable(),
  type: z.number().nullable(),
  industrial_type: z.string().nullable(),
  gateway_id: z.number().nullable(),
  reading: z.number().nullable(),
  /** The latest value of every field the device reported (docs/protocol.md). */
  latest: z.record(z.string(), z.unknown()),
  owners: z.string(),
  created_at: z.string(),
  /** Where the device is: only in the single-device answer (get-…), for its drawer's links. */
  place: devicePlace.nullable().optional(),
  /**
   * The accounts it is bound to (`owners` by id), only in the single-device answer: the
   * drawer's 分配 dialog unbinds them; `manageable` when the caller may change that binding. Only
   * accounts at or below the caller, and those above it, are named (never a sibling customer).
   */
  bound_users: z.array(boundUser).optional(),
});
export type DeviceRow = z.infer<typeof deviceRow>;

export const devicePage = pageOf(deviceRow);

/** Binding list (SPEC §7): the caller's devices, each saying whether it is bound to the target. */
export const bindListQuery = pageQuery.extend({
  target_user_id: idField(),
  keywords: keywordsField(),
  only_bound: boolField().default(false),
});

export const bindRow = z.object({
  id: z.number(),
  ser_num: z.string(),
  desc: z.string(),
  location: z.string(),
  is_bind: z.boolean(),
});

export const bindBody = z.object({ user_id: idField(), ...linkChange() });
export type BindBody = z.infer<typeof bindBody>;

// ---- sensors (attached to a gateway) ----

export const sensorListQuery = pageQuery.extend({
  gateway_id: idField(),
  keywords: keywordsField(),
  status: intField().pipe(z.number().int().min(0)).optional(),
});

export const addSensorBody = z.object({
  gateway_id: idField(),
  ser_num: serNum,
  desc: deviceFields.desc.default(''),
  location: deviceFields.location.default(''),
});

// ---- toilets ----

const shortText = (label: string, max = 100) => z.string().trim().max(max, `${label}不能超过${max}个字符`);

export const toiletRow = z.object({
  id: z.number(),
  /** The id of the toilet's QR code and public review page (random; the id above counts up). */
  public_id: z.string(),
  status: z.number(),
  is_delete: z.boolean(),
  name: z.string(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  pname: z.string(),
  cityname: z.string(),
  adname: z.string(),
  business_area: z.string(),
  address: z.string(),
  star_sum: z.number(),
  star_count: z.number(),
  img_url: z.string(),
  gateway_id: z.number().nullable(),
  gateway_ser_num: z.string(),
  owners: z.string(),
  created_at: z.string(),
});
export type ToiletRow = z.infer<typeof toiletRow>;

export const toiletListQuery = pageQuery.extend({
  keywords: keywordsField(),
  /** Toilets with all of these status flags (cleaning 1, repair 2, alarm 4). */
  status: intField().pipe(z.number().int().min(0).max(7)).optional(),
  owner_id: idField().optional(),
});

const toiletFields = {
  name: z.string().trim().min(1, '名称不能为空').max(100, '名称不能超过100个字符'),
  lat: coord(-90, 90, '纬度'),
  lng: coord(-180, 180, '经度'),
  pname: shortText('省份', 50),
  cityname: shortText('城市', 50),
  adname: shortText('区县', 50),
  business_area: shortText('商圈', 100),
  address: shortText('地址', 200),
  img_url: shortText('图片地址', 500),
};

export const addToiletBody = z.object({
  name: toiletFields.name,
  lat: toiletFields.lat,
  lng: toiletFields.lng,
  pname: toiletFields.pname.default(''),
  cityname: toiletFields.cityname.default(''),
  adname: toiletFields.adname.default(''),
  business_area: toiletFields.business_area.default(''),
  address: toiletFields.address.default(''),
  img_url: toiletFields.img_url.default(''),
  gateway_id: idField().optional(),
});
export type AddToiletBody = z.infer<typeof addToiletBody>;

export const updateToiletBody = z.object({
  id: idField(),
  is_delete: boolField().optional(),
  status: intField().pipe(z.number().int().min(0, '状态取值无效').max(7, '状态取值无效')).optional(),
  name: toiletFields.name.optional(),
  lat: toiletFields.lat,
  lng: toiletFields.lng,
  pname: toiletFields.pname.optional(),
  cityname: toiletFields.cityname.optional(),
  adname: toiletFields.adname.optional(),
  business_area: toiletFields.business_area.optional(),
  address: toiletFields.address.optional(),
  img_url: toiletFields.img_url.optional(),
  /** 0 unlinks the gateway. */
  gateway_id: intField().pipe(z.number().int().min(0)).optional(),
});
export type UpdateToiletBody = z.infer<typeof updateToiletBody>;

export const TOILET_API = {
  list: '/api/v1/toilet/toilets',
  get: '/api/v1/toilet/get-toilet',
  add: '/api/v1/toilet/add-toilet',
  update: '/api/v1/toilet/update-toilet',
  bindList: '/api/v1/toilet/get-user-st',
  bind: '/api/v1/toilet/bind-user-st',
} as const;

export const SENSOR_API = {
  list: '/api/v1/gateway/sensors',
  get: '/api/v1/gateway/get-sensor',
  add: '/api/v1/gateway/add-sensor',
  update: '/api/v1/gateway/update-sensor',
} as const;

const infoText = (label: string) => z.string().trim().max(64, `${label}不能超过64个字符`).optional();

/** Device info (SPEC §3): hardware identity, editable by whoever sees the device. */
export const updateDeviceInfoBody = z.object({
  /** The device's id. */
  id: idField(),
  com_num: infoText('通信号'),
  hard_num: infoText('硬件版本'),
  soft_num: infoText('软件版本'),
  imei_num: infoText('IMEI'),
  sim_num: infoText('SIM 卡号'),
  mac_address: z
    .string()
    .trim()
    .refine(
      (s) => s === '' || /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/.test(s),
      'MAC 地址格式应为 AA:BB:CC:DD:EE:FF',
    )
    .optional(),
});

export const DEVICE_INFO_API = {
  get: '/api/v1/device/get-device-info',
  update: '/api/v1/device/update-device-info',
} as const;
