import {
  LIVE_API,
  type AlarmCount,
  type AlarmRow,
  type HistoryData,
  type HistoryRange,
  type Page,
  type alarmListQuery,
} from '@se/core';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// Live data over HTTP: a device's history, the alarms and their acknowledgement. What
// changes afterwards arrives over the websocket (live/socket.ts).

export const getHistory = (deviceId: number, range: HistoryRange) =>
  get<HistoryData>(LIVE_API.history, { device_id: deviceId, range });

export type AlarmFilter = RequestOf<typeof alarmListQuery>;

/** 'active' = open or acknowledged (the server's default). */
export type AlarmStatusFilter = NonNullable<AlarmFilter['status']>;

export const listAlarms = (filter: AlarmFilter) => get<Page<AlarmRow>>(LIVE_API.alarms, { ...filter });

export const ackAlarm = (id: number) => post<AlarmRow>(LIVE_API.ackAlarm, { id });

export const getAlarmCount = () => get<AlarmCount>(LIVE_API.alarmCount);
