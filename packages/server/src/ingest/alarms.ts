import { GAS_THRESHOLDS, warningLabels, type AlarmType, type Gas } from '@se/core';
import type { Queryable } from '../db/index.ts';
import {
  closeAlarms,
  insertAlarms,
  openAlarmsOf,
  openOfflineAlarms,
  syncToiletAlarmFlag,
  toiletsOfDevices,
} from './repo.ts';

export interface AlarmSignal {
  type: AlarmType;
  active: boolean;
  message: string;
  detail: Record<string, unknown>;
}

const GAS_NAMES: Record<Gas, string> = {
  nh3: '氨气',
  h2s: '硫化氢',
  voc: 'VOC',
  pm25: 'PM2.5',
  co2: '二氧化碳',
};

/**
 * What one report says about each alarm type it carries information on. A type the report
 * does not mention yields no signal: silence neither raises nor clears an alarm. An
 * industrial gas monitor's gases are not toilet air: the exposure handler judges them
 * against occupational limits (handlers/industry.ts), so they raise no 'air' alarm here.
 */
export function signals(
  kind: string,
  data: Record<string, unknown>,
  industrialType: string | null = null,
): AlarmSignal[] {
  const out: AlarmSignal[] = [];
  const gases = (Object.keys(GAS_THRESHOLDS) as Gas[]).filter((g) => typeof data[g] === 'number');
  if (gases.length && industrialType === null) {
    const poor = gases.filter((g) => (data[g] as number) > GAS_THRESHOLDS[g].high);
    out.push({
      type: 'air',
      active: poor.length > 0,
      message: poor.map((g) => `${GAS_NAMES[g]} ${data[g]} 超过 ${GAS_THRESHOLDS[g].high}`).join('；'),
      detail: Object.fromEntries(gases.map((g) => [g, data[g]])),
    });
  }
  if (data.smk_alarm !== undefined) {
    out.push({
      type: 'fire',
      active: data.smk_alarm === 1,
      message: '烟雾报警',
      detail: { smk_alarm: data.smk_alarm },
    });
  }
  if (data.alarm !== undefined) {
    out.push({ type: 'help', active: data.alarm === 1, message: '求助报警', detail: { alarm: data.alarm } });
  }
  if (typeof data.warning === 'number' && (kind === 'jwb' || kind === 'paper_machine')) {
    const labels = warningLabels(data.warning, kind);
    out.push({
      type: 'warning',
      active: data.warning !== 0,
      message: labels.length ? `设备告警：${labels.join('、')}` : `设备告警（${data.warning}）`,
      detail: { warning: data.warning },
    });
  }
  return out;
}

export interface ReportForAlarms {
  device_id: number;
  kind: string;
  industrial_type?: string | null;
  ts: number;
  data: Record<string, unknown>;
}

interface Open {
  id?: number;
  message: string;
  detail: Record<string, unknown>;
  openedAt: number;
}

/**
 * Runs the batch's reports through each device's alarm state in time order: opens alarms
 * on trigger (one per device and type), closes them on clear, and closes 'offline' for
 * any device that reported. Answers the ids of alarms that changed.
 */
export async function applyAlarms(tx: Queryable, reports: ReportForAlarms[]): Promise<number[]> {
  if (reports.length === 0) return [];
  const deviceIds = [...new Set(reports.map((r) => r.device_id))];
  const current = await openAlarmsOf(tx, deviceIds);
  const state = new Map<string, Open>();
  for (const a of current)
    state.set(`${a.device_id}|${a.type}`, { id: a.id, message: '', detail: {}, openedAt: 0 });
  const toClose = new Map<number, number>();
  const toInsert: {
    device_id: number;
    type: string;
    message: string;
    detail: unknown;
    opened: number;
    closed: number | null;
  }[] = [];

  for (const r of [...reports].sort((a, b) => a.ts - b.ts)) {
    const sigs = signals(r.kind, r.data, r.industrial_type ?? null);
    sigs.push({ type: 'offline', active: false, message: '', detail: {} });
    for (const s of sigs) {
      const key = `${r.device_id}|${s.type}`;
      const cur = state.get(key);
      if (s.active && !cur) {
        state.set(key, { message: s.message, detail: s.detail, openedAt: r.ts });
      } else if (!s.active && cur) {
        if (cur.id !== undefined) toClose.set(cur.id, r.ts);
        else
          toInsert.push({
            device_id: r.device_id,
            type: s.type,
            message: cur.message,
            detail: cur.detail,
            opened: cur.openedAt,
            closed: r.ts,
          });
        state.delete(key);
      }
    }
  }
  for (const [key, o] of state) {
    if (o.id !== undefined) continue;
    const [device, type] = key.split('|');
    toInsert.push({
      device_id: Number(device),
      type: type!,
      message: o.message,
      detail: o.detail,
      opened: o.openedAt,
      closed: null,
    });
  }

  const changed: number[] = [];
  if (toClose.size) {
    const rows = await closeAlarms(
      tx,
      [...toClose.keys()],
      [...toClose.values()].map((t) => new Date(t).toISOString()),
    );
    changed.push(...rows.map((r) => r.id));
  }
  if (toInsert.length) {
    const rows = await insertAlarms(
      tx,
      toInsert.map((a) => a.device_id),
      toInsert.map((a) => a.type),
      toInsert.map((a) => a.message),
      toInsert.map((a) => JSON.stringify(a.detail)),
      toInsert.map((a) => new Date(a.opened).toISOString()),
      toInsert.map((a) => (a.closed === null ? null : new Date(a.closed).toISOString())),
    );
    changed.push(...rows.map((r) => r.id));
  }
  return changed;
}

/**
 * Toilet flag 4 (alarm) follows the open alarms of the toilet's devices: its gateway, the
 * gateway's sensors and the devices placed in it. `deviceIds` are devices whose alarms
 * changed; every toilet they belong to is brought up to date.
 */
export async function syncToiletAlarmFlags(q: Queryable, deviceIds: number[]) {
  if (deviceIds.length === 0) return;
  const rows = await toiletsOfDevices(q, deviceIds);
  await syncToiletAlarmFlagsOf(
    q,
    rows.map((r) => r.id),
  );
}

/** The same for given toilets (after devices were placed in them or taken out). */
export async function syncToiletAlarmFlagsOf(q: Queryable, toiletIds: number[]) {
  if (toiletIds.length === 0) return;
  await syncToiletAlarmFlag(q, toiletIds);
}

/** Offline sweep: opens an 'offline' alarm for every device silent past its threshold. */
export async function sweepOffline(q: Queryable, thresholds: Record<string, number>, fallbackMs: number) {
  const kinds = Object.keys(thresholds);
  const rows = await openOfflineAlarms(
    q,
    kinds,
    kinds.map((k) => thresholds[k]),
    fallbackMs,
  );
  await syncToiletAlarmFlags(q, [...new Set(rows.map((r) => r.device_id))]);
  return rows.map((r) => r.id);
}
