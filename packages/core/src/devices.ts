/** Device kinds and the constants of SPEC §3, §4 and §9. */

/** Offline after this long without a report (SPEC §4, §9). */
export const OFFLINE_MS = {
  default: 18_000_000,
  meter: 604_800_000,
  sensor: 3_600_000,
} as const;

/** List filters for online/offline state are bit flags (SPEC §4). */
export const STATUS_FILTER = { online: 1 << 17, offline: 1 << 18 } as const;

/** External device types (SPEC §3). */
export const EXTERNAL_TYPE = { paperMachine: 785, electricMeter: 801, waterMeter: 817 } as const;

/** Gateway types (SPEC §3): null means unlimited in filters. */
export const GATEWAY_TYPES = [
  { value: 43, label: '控制中心多媒体版' },
  { value: 40, label: '智慧网关精简版' },
] as const;

export const INDUSTRIAL_TYPES = [{ value: 'BH-50', label: 'BH-50' }] as const;

/** Toilet status flags (SPEC §4). */
export const TOILET_STATUS = { cleaning: 1, repair: 2, alarm: 4 } as const;
export const TOILET_STATUS_LABELS: Record<keyof typeof TOILET_STATUS, string> = {
  cleaning: '清洁中',
  repair: '维修中',
  alarm: '报警',
};

/** Toilet part types (SPEC §4). */
export const TOILET_PART_TYPES = ['蹲位', '坐位', '洗手台', '水龙头', '门', '门锁', '其他'] as const;

/** Dispenser warning bits (SPEC §9). */
export const JWB_WARNING = {
  lackOfLiquid: 32768,
  lackOfWater: 16384,
  atomizer: 1024,
  fan: 8192,
  wash: 8,
  cutWater: 4,
} as const;

/** The warning bits with the tags the console shows. */
export const JWB_WARNINGS = [
  { bit: JWB_WARNING.lackOfLiquid, label: '缺液' },
  { bit: JWB_WARNING.lackOfWater, label: '缺水' },
  { bit: JWB_WARNING.atomizer, label: '雾化器' },
  { bit: JWB_WARNING.fan, label: '风扇' },
  { bit: JWB_WARNING.wash, label: '清洗' },
  { bit: JWB_WARNING.cutWater, label: '断水' },
] as const;
export const MAX_LIQUID_MARGIN = 550;

/** Paper dispenser warning bits (docs/protocol.md; the SPEC names the field, not its bits). */
export const PAPER_WARNING = {
  outOfPaper: 1,
  paperJam: 2,
  lowPaper: 4,
  motor: 8,
  lowBattery: 16,
  coverOpen: 32,
} as const;

export const PAPER_WARNINGS = [
  { bit: PAPER_WARNING.outOfPaper, label: '缺纸' },
  { bit: PAPER_WARNING.paperJam, label: '卡纸' },
  { bit: PAPER_WARNING.lowPaper, label: '纸量低' },
  { bit: PAPER_WARNING.motor, label: '电机故障' },
  { bit: PAPER_WARNING.lowBattery, label: '电量低' },
  { bit: PAPER_WARNING.coverOpen, label: '机盖未关' },
] as const;

/** The labels of the bits set in a device's `warning` (a dispenser's unless `kind` says paper). */
export function warningLabels(warning: number, kind = 'jwb'): string[] {
  const bits = kind === 'paper_machine' ? PAPER_WARNINGS : JWB_WARNINGS;
  return bits.filter((w) => (warning & w.bit) !== 0).map((w) => w.label);
}

/** Sensor operation codes and dispenser cache operation codes (SPEC §4). */
export const SENSOR_OPS = { search: 0, delete: 1, clear: 2, add: 3 } as const;
export const JWB_CACHE_OPS = { restart: 0, mightiness: 1, deepSleep: 2, nh3Calibration: 3 } as const;

/** Liquid concentration presets (SPEC §9): liquid_time. */
export const LIQUID_PRESETS = [
  { label: '极淡', liquid_time: 2000 },
  { label: '淡', liquid_time: 2500 },
  { label: '中', liquid_time: 3500 },
  { label: '微浓', liquid_time: 4500 },
  { label: '浓', liquid_time: 5500 },
  { label: '超浓', liquid_time: 6500 },
] as const;

/** Fragrance environment presets (SPEC §9): atomizer_cps / liquid_time / fan_cps. */
export const ENVIRONMENT_PRESETS = [
  { environment: 'default application', label: '默认', atomizer_cps: 0.85, liquid_time: 3500, fan_cps: 0.85 },
  { environment: 'public toilet', label: '公厕', atomizer_cps: 1, liquid_time: 4500, fan_cps: 1 },
  { environment: 'station', label: '车站', atomizer_cps: 1, liquid_time: 4500, fan_cps: 1 },
  { environment: 'school', label: '学校', atomizer_cps: 1, liquid_time: 4500, fan_cps: 1 },
  { environment: 'scenic area', label: '景区', atomizer_cps: 1, liquid_time: 4500, fan_cps: 1 },
  { environment: 'office building', label: '写字楼', atomizer_cps: 0.8, liquid_time: 2500, fan_cps: 0.8 },
  { environment: 'ultra-quiet', label: '超静音', atomizer_cps: 0.6, liquid_time: 2500, fan_cps: 0.4 },
] as const;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thurs', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: '周一',
  tue: '周二',
  wed: '周三',
  thurs: '周四',
  fri: '周五',
  sat: '周六',
  sun: '周日',
};

export const DEFAULT_START = '05:30';
export const DEFAULT_END = '22:00';

type Schedule = Record<Weekday, { start: string; end: string }>;
const daily = (start: string, end: string): Schedule =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, { start, end }])) as Schedule;

/** Preset schedules (SPEC §9); 新建 starts from the defaults and is edited by hand. */
export const SCHEDULE_PRESETS: { config_name: string; schedule: Schedule }[] = [
  { config_name: '推荐', schedule: daily('05:30', '22:00') },
  { config_name: '地铁', schedule: daily('05:30', '22:30') },
  { config_name: '高铁', schedule: daily('05:30', '23:00') },
  { config_name: '汽车站', schedule: daily('05:30', '19:00') },
  {
    config_name: '学校',
    schedule: {
      ...daily('07:00', '19:00'),
      sat: { start: '00:01', end: '00:00' },
      sun: { start: '00:01', end: '00:00' },
    },
  },
  { config_name: '全天', schedule: daily('00:00', '00:00') },
  { config_name: '新建', schedule: daily(DEFAULT_START, DEFAULT_END) },
];

/** Parameter set defaults (SPEC §3 "Device parameter set"). */
export const PARAMETER_DEFAULTS = {
  parameter_desc: '',
  parameter_num: 2,
  water_co: 1800,
  atomizer_cps: 1,
  re_com: 60,
  com_int: 300,
  magnetic_max_time: 300,
  max_free_time: 240,
  wash_int: 9999,
  nh3_smpl: 60,
  nh3_cps_a: 1,
  nh3_cps_b: 0,
  nh3_h_tri: 2,
  nh3_n_tri: 0.9,
  nh3_l_tri: 0.2,
  nh3_abnormal: 40,
  water_l_tri: 180,
  water_h_tri: 140,
  work_time: 180,
  nop_time: 5,
  liquid_time: 3500,
  fan_cps: 1.2,
  rfid_cps: 1,
  water_abnormal: 0,
  environment: 'default application',
} as const;

/** Whether a device whose last report was at `time` (ms) is online at `now`. */
export function isOnline(time: number | null, thresholdMs: number, now = Date.now()): boolean {
  return time !== null && now - time <= thresholdMs;
}
