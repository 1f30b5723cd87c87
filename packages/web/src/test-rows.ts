import type { AlarmRow, DeviceRow, RuleRow } from '@se/core';

/** A list answer of `list` (one page holding all of it), as a mocked list call resolves. */
export const okPage = <T>(list: T[], page_size = 10) => ({
  code: 200,
  message: '',
  data: { list, total: list.length, page: 1, page_size },
});

/** A device row as the list API returns it, with blank defaults; tests set what they look at. */
export const deviceRow = (over: Partial<DeviceRow> = {}): DeviceRow => ({
  id: 1,
  kind: 'gateway',
  is_delete: false,
  ser_num: '',
  desc: '',
  lng: null,
  lat: null,
  location: '',
  version: '',
  url: '',
  time: null,
  online: false,
  warning: 0,
  star_count: 0,
  star_level: 0,
  config_date: null,
  parameter_num: null,
  type: null,
  industrial_type: null,
  gateway_id: null,
  reading: null,
  latest: {},
  owners: '',
  created_at: '2025-01-01 00:00:00',
  ...over,
});

/** An alarm as the API and the alarms channel send it: a gateway's 求助, `status` as given. */
export const alarmRow = (id: number, status: string, over: Partial<AlarmRow> = {}): AlarmRow => ({
  id,
  device_id: 3,
  kind: 'gateway',
  ser_num: 'GW0003',
  desc: '东区男厕',
  toilet_id: null,
  type: 'help',
  status,
  message: '求助按钮被按下',
  detail: {},
  opened_at: '2025-06-01 12:00:00',
  acked_at: null,
  acked_by_name: '',
  closed_at: null,
  ...over,
});

/** A formula rule as the list API returns it: 连续差评 (3 reviews of at most 2 stars in 30 minutes). */
export const ruleRow = (over: Partial<RuleRow> = {}): RuleRow => ({
  id: 9,
  user_id: 1,
  name: '连续差评',
  formula: 'star_level lte 2',
  scope: 'all',
  device_ids: [],
  toilet_ids: [],
  device_labels: [],
  toilet_labels: [],
  duration_s: 0,
  cooldown_s: 600,
  min_count: 3,
  window_s: 1800,
  template_id: null,
  template_name: '',
  object_ids: [],
  object_names: [],
  enabled: true,
  is_delete: false,
  hit_count: 0,
  last_fired_at: null,
  created_at: '2026-11-25 09:00:00',
  updated_at: '2026-11-25 09:00:00',
  ...over,
});
