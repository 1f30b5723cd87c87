import {
  type DeviceKind,
  type DeviceRow,
  formatDateTime,
  formatQuantity,
  GATEWAY_TYPES,
  STATUS_FILTER,
  warningLabels,
} from '@se/core';

/** The device list of each route of SPEC §2 (one page component serves them all). */
export const KIND_OF_ROUTE: Record<string, DeviceKind> = {
  Equipments: 'jwb',
  Evaluates: 'evaluate',
  Gateways: 'gateway',
  ElectricMeters: 'electric_meter',
  WaterMeters: 'water_meter',
  PaperMachines: 'paper_machine',
};

/** Which kind-specific parts a device list and its drawer show. */
export const features = (kind: DeviceKind) => ({
  /** Dispensers: warning bits, config, parameter sets, cache operations. */
  dispenser: kind === 'jwb',
  gateway: kind === 'gateway',
  meter: kind === 'electric_meter' || kind === 'water_meter',
  /** Evaluation terminals carry the star rating given at them. */
  rating: kind === 'evaluate',
  /** Paper dispensers: warning bits (缺纸, 卡纸 …) and the paper level. */
  paper: kind === 'paper_machine',
  /** Clock-in terminals: punches and 同步员工. */
  terminal: kind === 'attendance',
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago a device last reported: "x 分钟前" under an hour (at least 1, so a report
 * seconds ago reads 1 分钟前), "x 小时前" under a day, "x 天前" beyond; 从未上报 before the
 * first report. A clock a little ahead of the browser's counts as just now.
 */
export function lastReportText(time: number | null, now: number): string {
  if (time === null) return '从未上报';
  const ago = Math.max(0, now - time);
  if (ago < HOUR) return `${Math.max(1, Math.floor(ago / MINUTE))} 分钟前`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} 小时前`;
  return `${Math.floor(ago / DAY)} 天前`;
}

/** The exact time behind lastReportText, for its tooltip (UTC+8 like every time here). */
export const lastReportTitle = (time: number | null): string =>
  time === null ? '设备登记后尚未上报数据' : formatDateTime(time);

/**
 * The red tags of a device's warning bits: a fragrance dispenser's (缺液, 缺水, 雾化器, 风扇,
 * 清洗, 断水) or a paper dispenser's (缺纸, 卡纸, 纸量低 …).
 */
export const warningTags = (warning: number | null | undefined, kind: DeviceKind = 'jwb'): string[] =>
  warning ? warningLabels(warning, kind) : [];

export const gatewayTypeLabel = (type: number | null): string =>
  GATEWAY_TYPES.find((t) => t.value === type)?.label ?? (type === null ? '—' : String(type));

export type OnlineChoice = 'all' | 'online' | 'offline';

/** The 在线状态 filter as the list's status bits; 全部 sends none. */
export const statusBits = (choice: OnlineChoice): number | undefined =>
  choice === 'online' ? STATUS_FILTER.online : choice === 'offline' ? STATUS_FILTER.offline : undefined;

/** A meter's reading with its unit. */
export function readingText(row: Pick<DeviceRow, 'kind' | 'reading'>, kind: DeviceKind): string {
  return formatQuantity(row.reading, kind === 'electric_meter' ? 'kWh' : kind === 'water_meter' ? 'm³' : '');
}

export const dash = (text: string | null | undefined): string => (text ? text : '—');

export const coordText = (row: Pick<DeviceRow, 'lng' | 'lat'>): string =>
  row.lng === null || row.lat === null ? '—' : `${row.lng}, ${row.lat}`;

/** A token shown masked until revealed: its ends stay so two devices can be told apart. */
export function maskToken(token: string): string {
  if (token.length <= 8) return '•'.repeat(token.length);
  return `${token.slice(0, 4)}${'•'.repeat(Math.min(16, token.length - 8))}${token.slice(-4)}`;
}
