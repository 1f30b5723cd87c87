import type { AlarmRow, DeviceRow } from '@se/core';

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
