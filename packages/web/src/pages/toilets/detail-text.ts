import {
  AIR_LEVELS,
  DEVICE_KINDS,
  PART_STATES,
  TOILET_PART_TYPES,
  TOILET_STATUS,
  TOILET_STATUS_LABELS,
  commentPath,
  displayPath,
  type AirLevel,
  type DevicePush,
  type LiveDevice,
  type StatusLogRow,
  type ToiletDetail,
} from '@se/core';

// Texts and pure steps of the toilet detail: status history lines, part labels, addresses
// the QR code and the display screen open, and live pushes applied to the detail.

/** The address the toilet's QR code opens: the public review page on this site, by public id. */
export const commentUrl = (origin: string, publicId: string): string => `${origin}${commentPath(publicId)}`;

/** The address a display screen opens with its token. */
export const displayUrl = (origin: string, token: string): string => `${origin}${displayPath(token)}`;

const FLAG_LABEL: Record<number, string> = {
  [TOILET_STATUS.cleaning]: TOILET_STATUS_LABELS.cleaning,
  [TOILET_STATUS.repair]: TOILET_STATUS_LABELS.repair,
  [TOILET_STATUS.alarm]: TOILET_STATUS_LABELS.alarm,
};

/** One status change as a line: 设为清洁中 / 取消维修中. */
export function statusChangeText(row: Pick<StatusLogRow, 'flag' | 'on'>): string {
  const label = FLAG_LABEL[row.flag] ?? `状态 ${row.flag}`;
  return `${row.on ? '设为' : '取消'}${label}`;
}

export const partTypeLabel = (type: number): string => TOILET_PART_TYPES[type] ?? `类型 ${type}`;
export const partStateLabel = (state: number): string => PART_STATES[state] ?? `状态 ${state}`;

/** Faulty parts first, then by type, so what needs a hand is on top. */
export function partsInOrder<T extends { state: number; type: number; id: number }>(
  parts: readonly T[],
): T[] {
  return [...parts].sort((a, b) => b.state - a.state || a.type - b.type || a.id - b.id);
}

export const kindLabel = (kind: string): string =>
  kind in DEVICE_KINDS
    ? DEVICE_KINDS[kind as keyof typeof DEVICE_KINDS].label
    : kind === 'sensor'
      ? '传感器'
      : kind;

export const airLevelText = (level: string): string => AIR_LEVELS[level as AirLevel] ?? level;

function patchDevice(d: LiveDevice, push: DevicePush): LiveDevice {
  const newer = d.time === null || push.time >= d.time;
  const data = push.data ?? {};
  return {
    ...d,
    time: newer ? push.time : d.time,
    online: push.online,
    warning: newer && push.warning !== null ? push.warning : d.warning,
    latest: newer ? { ...d.latest, ...data } : { ...data, ...d.latest },
  };
}

/**
 * The detail after a live push of one of its devices (gateway, sensor or placed device);
 * the same object when the push is about none of them.
 */
export function applyDetailPush(detail: ToiletDetail, push: DevicePush): ToiletDetail {
  if (detail.gateway?.id === push.id) return { ...detail, gateway: patchDevice(detail.gateway, push) };
  const s = detail.sensors.findIndex((x) => x.id === push.id);
  if (s >= 0) {
    const sensors = detail.sensors.slice();
    sensors[s] = patchDevice(sensors[s]!, push);
    return { ...detail, sensors };
  }
  const p = detail.devices.findIndex((x) => x.id === push.id);
  if (p >= 0) {
    const devices = detail.devices.slice();
    devices[p] = patchDevice(devices[p]!, push);
    return { ...detail, devices };
  }
  return detail;
}

/** Ids the detail listens to live. */
export const liveIdsOf = (detail: ToiletDetail | undefined): number[] =>
  detail
    ? [
        ...(detail.gateway ? [detail.gateway.id] : []),
        ...detail.sensors.map((s) => s.id),
        ...detail.devices.map((d) => d.id),
      ]
    : [];

/** Occupancy as "occupied / cubicles" with a percent for the bar (null without cubicles). */
export function occupancyPercent(occupy: number | null, count: number): number | null {
  if (!count) return null;
  return Math.min(100, Math.round(((occupy ?? 0) / count) * 100));
}

/** 06:00–22:30, or 全天开放 for a day-long window. */
export function openingHoursText(open: string, close: string): string {
  if (open === close || (open === '00:00' && close === '23:59')) return '全天开放';
  return `${open}–${close}${close < open ? '（次日）' : ''}`;
}
