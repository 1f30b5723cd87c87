import { ALARM_STATUS_LABELS, ALARM_TYPE_LABELS, type AlarmRow } from '@se/core';
import { Tag } from 'antd';

// Small cells of the alarm lists: the type (火警, 求助, 空气质量 …) and the state.

const TYPE_COLORS: Record<string, string> = {
  fire: 'red',
  help: 'magenta',
  air: 'gold',
  warning: 'volcano',
  offline: 'default',
};

const STATUS_COLORS: Record<string, string> = { open: 'error', acked: 'warning', closed: 'success' };

export const alarmTypeLabel = (type: string): string =>
  (ALARM_TYPE_LABELS as Record<string, string>)[type] ?? type;

export const alarmStatusLabel = (status: string): string =>
  (ALARM_STATUS_LABELS as Record<string, string>)[status] ?? status;

export function AlarmTypeTag({ type }: { type: string }) {
  return (
    <Tag color={TYPE_COLORS[type] ?? 'default'} style={{ marginInlineEnd: 0 }}>
      {alarmTypeLabel(type)}
    </Tag>
  );
}

export function AlarmStatusTag({ status }: { status: string }) {
  return (
    <Tag color={STATUS_COLORS[status] ?? 'default'} style={{ marginInlineEnd: 0 }}>
      {alarmStatusLabel(status)}
    </Tag>
  );
}

/** The device an alarm is about: serial number, and its description when it has one. */
export const alarmDevice = (a: Pick<AlarmRow, 'ser_num' | 'desc'>): string =>
  a.desc ? `${a.ser_num}（${a.desc}）` : a.ser_num;

/** The text of the toast a new alarm shows. */
export const alarmToastText = (a: Pick<AlarmRow, 'ser_num' | 'desc' | 'type' | 'message'>): string =>
  `${alarmTypeLabel(a.type)} · ${alarmDevice(a)}：${a.message}`;

/** More new alarms than this at once (an offline sweep, a power cut) make one toast, not a flood. */
export const TOAST_EACH_UP_TO = 3;

/** The toasts for alarms opened together: one each, or one summary. */
export function newAlarmToasts(rows: Pick<AlarmRow, 'ser_num' | 'desc' | 'type' | 'message'>[]): string[] {
  if (rows.length <= TOAST_EACH_UP_TO) return rows.map(alarmToastText);
  const byType = new Map<string, number>();
  for (const r of rows) byType.set(r.type, (byType.get(r.type) ?? 0) + 1);
  const parts = [...byType].map(([type, n]) => `${alarmTypeLabel(type)} ${n} 条`).join('、');
  return [`新增 ${rows.length} 条告警（${parts}），请在告警中心查看`];
}
