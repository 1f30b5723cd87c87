import { GATEWAY_TYPES, INDUSTRIAL_TYPES, type DeviceKind } from '@se/core';
import type { DeviceFilter } from '../../api/devices.ts';
import { choice, text, type FilterFields } from '../../components/list/index.ts';
import { features, statusBits, type OnlineChoice } from './device-text.ts';

// The device list's filters: what its search box and choices keep in the URL, and the
// query they stand for (the list's and its 导出's).

export interface Search {
  keywords: string;
  online: OnlineChoice;
  /** Gateways only; 0 = 不限. */
  type: number;
  /** Gateways only; '' = 不限. */
  industrial: string;
}

/** 在线状态: 全部 / 在线 / 离线 (also the industrial monitors' filter). */
export const ONLINE_FILTER = choice<OnlineChoice>({
  label: '在线状态',
  options: [
    { value: 'all', label: '全部' },
    { value: 'online', label: '在线' },
    { value: 'offline', label: '离线' },
  ],
  width: 170,
});

/** The same filter as a function (the screens' list). */
export const onlineFilter = () => ONLINE_FILTER;

const COMMON = {
  keywords: text({ placeholder: '序列号 / 描述 / 位置', label: '关键字', width: 240, search: true }),
  online: ONLINE_FILTER,
};

/** Gateways have a type filter too; other kinds keep it at 不限, out of sight and the URL. */
const FILTERS: FilterFields<Search> = {
  ...COMMON,
  type: { initial: 0, encode: () => undefined, decode: () => 0 },
  industrial: { initial: '', encode: () => undefined, decode: () => '' },
};
const GATEWAY_FILTERS: FilterFields<Search> = {
  ...COMMON,
  type: choice<number>({
    label: '类型',
    options: [
      { value: 0, label: '不限' },
      ...GATEWAY_TYPES.map((t) => ({ value: t.value as number, label: t.label })),
    ],
    width: 220,
  }),
  industrial: choice<string>({
    label: '工业类型',
    options: [
      { value: '', label: '不限' },
      ...INDUSTRIAL_TYPES.map((t) => ({ value: t.value as string, label: t.label })),
    ],
    width: 180,
  }),
};

/** The list's filters as query parameters (also what 导出 exports). */
export const filterOf = (kind: DeviceKind, s: Search): DeviceFilter => ({
  keywords: s.keywords.trim() || undefined,
  status: statusBits(s.online),
  type: features(kind).gateway ? s.type || undefined : undefined,
  industrial_type: features(kind).gateway ? s.industrial || undefined : undefined,
});

/** The filter list of a kind's registry. */
export const filtersOf = (kind: DeviceKind): FilterFields<Search> =>
  features(kind).gateway ? GATEWAY_FILTERS : FILTERS;
