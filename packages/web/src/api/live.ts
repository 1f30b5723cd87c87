import {
  LIVE_API,
  type AlarmRow,
  type AlarmType,
  type HistoryData,
  type HistoryRange,
  type Page,
} from '@se/core';
import { get, post } from './client.ts';

// Live data over HTTP: a device's history, the alarms and their acknowledgement. What
// changes afterwards arrives over the websocket (live/socket.ts).

export const getHistory = (deviceId: number, range: HistoryRange) =>
  get<HistoryData>(LIVE_API.history, { device_id: deviceId, range });

/** 'active' = open or acknowledged (the server's default). */
export type AlarmStatusFilter = 'active' | 'open' | 'acked' | 'closed' | 'all';

export interface AlarmFilter {
  status?: AlarmStatusFilter;
  type?: AlarmType;
  device_id?: number;
  page?: number;
  page_size?: number;
}

export const listAlarms = (filter: AlarmFilter) => get<Page<AlarmRow>>(LIVE_API.alarms, { ...filter });

export const ackAlarm = (id: number) => post<AlarmRow>(LIVE_API.ackAlarm, { id });

/** open: not yet acknowledged; active: open or acknowledged (not closed). */
export interface AlarmCount {
  open: number;
  active: number;
}

export const getAlarmCount = () => get<AlarmCount>(LIVE_API.alarmCount);
