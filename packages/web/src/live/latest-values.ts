import {
  AIR_LEVELS,
  GAS_THRESHOLDS,
  MAX_LIQUID_MARGIN,
  alarmText,
  flagText,
  gasLevel,
  ratioPercent,
  warningLabels,
  type AirLevel,
  type Gas,
} from '@se/core';

// The 实时数据 panel's texts: each reported field (docs/protocol.md) with its label, unit
// and, for gases, the quality band of SPEC §9; alarm fields as SPEC §4 reads them.

type FieldKind = 'gas' | 'alarm' | 'flag' | 'number' | 'text' | 'warning';

interface FieldMeta {
  label: string;
  kind: FieldKind;
  unit?: string;
}

/** Known fields in the order the panel shows them. */
export const FIELD_META: Record<string, FieldMeta> = {
  nh3: { label: '氨气 NH₃', kind: 'gas', unit: 'ppm' },
  h2s: { label: '硫化氢 H₂S', kind: 'gas', unit: 'ppm' },
  voc: { label: 'VOC', kind: 'gas', unit: 'mg/m³' },
  pm25: { label: 'PM2.5', kind: 'gas', unit: 'μg/m³' },
  co2: { label: '二氧化碳 CO₂', kind: 'gas', unit: 'ppm' },
  smk_alarm: { label: '烟雾报警', kind: 'alarm' },
  alarm: { label: '求助报警', kind: 'alarm' },
  warning: { label: '告警', kind: 'warning' },
  liquid: { label: '液体余量', kind: 'number', unit: `/ ${MAX_LIQUID_MARGIN}` },
  state: { label: '工作状态', kind: 'number' },
  level: { label: '纸量', kind: 'number', unit: '%' },
  reading: { label: '读数', kind: 'number' },
  star_level: { label: '评价星级', kind: 'number', unit: '星' },
  badattitude: { label: '服务态度', kind: 'flag' },
  inefficiency: { label: '服务效率', kind: 'flag' },
  poorsanitary: { label: '卫生状况', kind: 'flag' },
  smelly: { label: '异味', kind: 'flag' },
  content: { label: '评价内容', kind: 'text' },
  pot_int: { label: '上报间隔', kind: 'number', unit: '秒' },
};

const READING_UNITS: Record<string, string> = { electric_meter: 'kWh', water_meter: 'm³' };

/** 优 green, 良 orange, 差 red. */
export const LEVEL_COLORS: Record<AirLevel, string> = { good: 'green', fair: 'orange', poor: 'red' };

export const OCCUPANCY_GROUPS = [
  { key: 'male', label: '男厕位' },
  { key: 'female', label: '女厕位' },
  { key: 'others', label: '其他厕位' },
] as const;
const OCCUPANCY_FIELD = /^(male|female|others)_(count|occupy|time|times)$/;
const OCCUPANCY_SUFFIX: Record<string, string> = {
  count: '数',
  occupy: '占用',
  time: '时长',
  times: '使用次数',
};

export interface LatestItem {
  key: string;
  label: string;
  /** The value as shown (without unit); '—' when the device sent something unreadable. */
  text: string;
  unit?: string;
  /** A coloured tag beside or instead of the value. */
  tag?: { text: string; color: string };
  /** The gas thresholds, for a tooltip. */
  hint?: string;
}

export interface OccupancyItem {
  key: (typeof OCCUPANCY_GROUPS)[number]['key'];
  label: string;
  occupy: number | null;
  count: number | null;
  /** Uses counted by the device. */
  times: number | null;
  /** The device's occupied-time counter (its unit is the device's). */
  time: number | null;
  /** 0–100, for a progress bar; null without a cubicle count. */
  percent: number | null;
}

const isGas = (key: string): key is Gas => key in GAS_THRESHOLDS;

const asNumber = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'boolean' ? Number(v) : null;

/** Up to three decimals, without trailing zeros (0.120 → 0.12). */
export function numberText(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

/** One field as the panel shows it. */
export function describeField(kind: string, key: string, value: unknown): LatestItem {
  const meta = FIELD_META[key];
  const n = asNumber(value);
  if (!meta) {
    const text =
      n !== null
        ? numberText(n)
        : typeof value === 'string'
          ? value || '—'
          : value == null
            ? '—'
            : JSON.stringify(value);
    return { key, label: key, text };
  }
  const base = { key, label: meta.label };
  switch (meta.kind) {
    case 'gas': {
      if (n === null || !isGas(key)) return { ...base, text: '—', unit: meta.unit };
      const level = gasLevel(key, n);
      const t = GAS_THRESHOLDS[key];
      return {
        ...base,
        text: numberText(n),
        unit: meta.unit,
        tag: { text: AIR_LEVELS[level], color: LEVEL_COLORS[level] },
        hint: `低于 ${t.low} 为优，${t.low}–${t.high} 为良，高于 ${t.high} 为差`,
      };
    }
    case 'alarm': {
      // SPEC §4: triggered when the status is non-zero.
      const triggered = n !== null && n !== 0;
      const text = alarmText(n ?? 0);
      return { ...base, text, tag: { text, color: triggered ? 'red' : 'green' } };
    }
    case 'flag': {
      // The terminal's complaint flags: 1 means the visitor ticked it.
      const ok = n === null || n === 0;
      const text = flagText(ok);
      return { ...base, text, tag: { text, color: ok ? 'green' : 'red' } };
    }
    case 'warning': {
      if (n === null) return { ...base, text: '—' };
      if (n === 0) return { ...base, text: '无', tag: { text: '无', color: 'green' } };
      const labels = kind === 'jwb' || kind === 'paper_machine' ? warningLabels(n, kind) : [];
      const text = labels.length > 0 ? labels.join('、') : String(n);
      return { ...base, text, tag: { text, color: 'red' } };
    }
    case 'text':
      return { ...base, text: typeof value === 'string' && value ? value : '—' };
    default: {
      const unit = key === 'reading' ? READING_UNITS[kind] : meta.unit;
      return { ...base, text: n === null ? '—' : numberText(n), ...(unit ? { unit } : {}) };
    }
  }
}

/**
 * The latest values of a device: every field it reported, known ones first in a fixed
 * order, others by name; cubicle occupancy (gateways) apart.
 */
export function describeLatest(
  kind: string,
  latest: Record<string, unknown>,
): { items: LatestItem[]; occupancy: OccupancyItem[] } {
  const known = Object.keys(FIELD_META).filter((k) => k in latest);
  const others = Object.keys(latest)
    .filter((k) => !(k in FIELD_META) && !OCCUPANCY_FIELD.test(k))
    .sort();
  const items = [...known, ...others].map((k) => describeField(kind, k, latest[k]));

  const occupancy: OccupancyItem[] = [];
  for (const g of OCCUPANCY_GROUPS) {
    const field = (f: string) => asNumber(latest[`${g.key}_${f}`]);
    const count = field('count');
    const occupy = field('occupy');
    const times = field('times');
    const time = field('time');
    if (count === null && occupy === null && times === null && time === null) continue;
    occupancy.push({
      key: g.key,
      label: g.label,
      count,
      occupy,
      times,
      time,
      percent: count !== null && count > 0 ? Math.round(ratioPercent(occupy ?? 0, count)) : null,
    });
  }
  return { items, occupancy };
}

/**
 * The fields worth a line in the history chart, in the panel's order: readings first,
 * then occupancy, then the rest. Cubicle counts and the report interval are settings,
 * warning bits and state codes are not quantities (their average means nothing): out.
 */
const NOT_CHARTED = new Set(['pot_int', 'warning', 'state']);

export function chartFields(fields: readonly string[]): string[] {
  const order = Object.keys(FIELD_META);
  const rank = (f: string) => {
    const known = order.indexOf(f);
    if (known >= 0) return known;
    return OCCUPANCY_FIELD.test(f) ? order.length : order.length + 1;
  };
  return fields
    .filter((f) => !NOT_CHARTED.has(f) && !/^(male|female|others)_count$/.test(f))
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
    .map(({ f }) => f);
}

/** A field's label for the chart legend, with its unit. */
export function fieldLabel(kind: string, key: string): string {
  const occupancy = OCCUPANCY_FIELD.exec(key);
  if (occupancy) {
    const group = OCCUPANCY_GROUPS.find((g) => g.key === occupancy[1]);
    return `${group?.label ?? ''}${OCCUPANCY_SUFFIX[occupancy[2] ?? ''] ?? ''}`;
  }
  const meta = FIELD_META[key];
  if (!meta) return key;
  const unit = key === 'reading' ? READING_UNITS[kind] : meta.unit;
  return unit && !unit.startsWith('/') ? `${meta.label} (${unit})` : meta.label;
}
