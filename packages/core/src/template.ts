import { alarmText } from './air.ts';
import { formatDateTime } from './format.ts';

/**
 * Notification template placeholders: SPEC §3's three ({desc}, {ser_num}, {user_name}) and
 * the readings a rule saw when it fired, with the formula and the time.
 */
export const TEMPLATE_PLACEHOLDERS = [
  { key: 'desc', label: '设备描述（通常是地点）' },
  { key: 'ser_num', label: '网关序列号' },
  { key: 'user_name', label: '提醒对象名称' },
  { key: 'nh3', label: '氨气' },
  { key: 'h2s', label: '硫化氢' },
  { key: 'co2', label: '二氧化碳' },
  { key: 'pm25', label: 'PM2.5' },
  { key: 'voc', label: 'VOC' },
  { key: 'alarm', label: '求助报警' },
  { key: 'smk_alarm', label: '烟雾报警' },
  { key: 'star_level', label: '评价星级' },
  { key: 'formula', label: '触发的公式' },
  { key: 'time', label: '触发时间' },
] as const;

export type TemplateKey = (typeof TEMPLATE_PLACEHOLDERS)[number]['key'];
export type TemplateValue = string | number | boolean | null | undefined;
export type TemplateVars = Partial<Record<TemplateKey, TemplateValue>> & Record<string, TemplateValue>;

/** What a preview shows while a template is typed: plausible values of every placeholder. */
export const TEMPLATE_SAMPLE: Record<TemplateKey, TemplateValue> = {
  desc: '人民公园东门公厕',
  ser_num: 'GW20240001',
  user_name: '保洁主管',
  nh3: 1.62,
  h2s: 0.03,
  co2: 820,
  pm25: 35,
  voc: 1.2,
  alarm: 0,
  smk_alarm: 0,
  star_level: 2,
  formula: 'nh3 gt 1.5 and not alarm',
  time: '2026-03-02 08:15:00',
};

/** Used when a rule has no template. */
export const DEFAULT_TEMPLATE =
  '{desc}（{ser_num}）触发提醒：{formula}，氨气 {nh3}，硫化氢 {h2s}，时间 {time}';
/** Used when a rule without a template fired on a review (an evaluation terminal's). */
export const DEFAULT_REVIEW_TEMPLATE =
  '{desc}（{ser_num}）触发提醒：{formula}，评价星级 {star_level}，时间 {time}';

const ALARM_KEYS = new Set(['alarm', 'smk_alarm']);

function show(key: string, v: TemplateValue): string {
  if (typeof v === 'boolean') return ALARM_KEYS.has(key) ? alarmText(v ? 1 : 0) : v ? '是' : '否';
  if (typeof v === 'number') {
    if (ALARM_KEYS.has(key)) return alarmText(v);
    if (key === 'time' && v > 1e9) return formatDateTime(v);
    // Sensor floats: no 0.30000000000000004 in a message.
    return String(Math.round(v * 1000) / 1000);
  }
  return String(v);
}

/**
 * Fills `{name}` placeholders from `vars`. A placeholder without a value stays as written,
 * so a typo is visible in the message rather than silently empty.
 */
export function renderTemplate(text: string, vars: TemplateVars): string {
  return text.replace(/\{([a-z_][a-z0-9_]*)\}/gi, (whole, name: string) => {
    const v = vars[name];
    return v === undefined || v === null ? whole : show(name, v);
  });
}

/** Placeholders in `text` that are not known ones (shown as a warning under the editor). */
export function unknownPlaceholders(text: string): string[] {
  const known = new Set<string>(TEMPLATE_PLACEHOLDERS.map((p) => p.key));
  const out = new Set<string>();
  for (const m of text.matchAll(/\{([a-z_][a-z0-9_]*)\}/gi)) if (!known.has(m[1]!)) out.add(m[1]!);
  return [...out];
}
