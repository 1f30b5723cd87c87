import {
  EXPOSURE_GASES,
  EXPOSURE_HOLD_MS,
  EXPOSURE_LIMITS,
  SHIFTS,
  ppmToMgm3,
  type ExposureGas,
} from '@se/core';
import type { IngestHandler, StoredReport } from '../handler.ts';
import type { Queryable } from '../../db/index.ts';
import { applyDerivedSignals, type DerivedSignal } from './derived-alarms.ts';
import { judge, lastEndedShift, monitorShift } from '../../modules/industry/exposure.ts';
import { claimShiftChecks, gasReadings } from '../../modules/industry/repo.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const MAC_GASES = EXPOSURE_GASES.filter((g) => EXPOSURE_LIMITS[g].mac !== null);

/**
 * Industrial monitors (gateways with an industrial type): a reading above a gas's ceiling
 * (MAC, GBZ 2.1) opens 'exposure_mac' at once and one below closes it; the first report
 * after a shift ends judges that shift's 8-h TWA and worst 15 minutes (STEL) and opens or
 * closes 'exposure'.
 */
export const industryExposure: IngestHandler = {
  name: 'industry-exposure',
  kinds: ['gateway'],
  async alarm(tx, stored, out) {
    // The directory says which gateways are industrial monitors: no query for the others.
    const mine = stored.filter(
      (s) => !!s.industrial_type && EXPOSURE_GASES.some((g) => typeof s.data[g] === 'number'),
    );
    if (!mine.length) return;
    const sigs = [...macSignals(mine), ...(await shiftSignals(tx, mine))];
    for (const id of await applyDerivedSignals(tx, sigs)) out.alarmIds.push(id);
  },
};

function macSignals(reports: StoredReport[]): DerivedSignal[] {
  const out: DerivedSignal[] = [];
  for (const r of reports) {
    const known = MAC_GASES.filter((g) => typeof r.data[g] === 'number');
    if (!known.length) continue;
    const over = known.filter((g) => ppmToMgm3(g, r.data[g] as number) > EXPOSURE_LIMITS[g].mac!);
    out.push({
      device_id: r.device_id,
      type: 'exposure_mac',
      active: over.length > 0,
      at: r.ts,
      message: over
        .map((g) => {
          const mg = Math.round(ppmToMgm3(g, r.data[g] as number) * 100) / 100;
          return `${EXPOSURE_LIMITS[g].label} ${mg} mg/m³ 超过最高容许浓度 MAC ${EXPOSURE_LIMITS[g].mac} mg/m³`;
        })
        .join('；'),
      detail: Object.fromEntries(known.map((g) => [g, r.data[g]])),
    });
  }
  return out;
}

async function shiftSignals(tx: Queryable, reports: StoredReport[]): Promise<DerivedSignal[]> {
  const newest = new Map<number, number>();
  for (const r of reports) newest.set(r.device_id, Math.max(newest.get(r.device_id) ?? 0, r.ts));
  const devices = [...newest.keys()];
  const shifts = devices.map((id) => lastEndedShift(newest.get(id)!));
  const claimed = await claimShiftChecks(
    tx,
    devices,
    shifts.map((s) => iso(s.start)),
  );
  if (!claimed.length) return [];
  const from = Math.min(...claimed.map((c) => new Date(c.shift_start).getTime()));
  const to = Math.max(...claimed.map((c) => new Date(c.shift_start).getTime())) + 8 * 3_600_000;
  const rows = await gasReadings(
    tx,
    claimed.map((c) => c.device_id),
    iso(from - EXPOSURE_HOLD_MS),
    iso(to),
  );
  const out: DerivedSignal[] = [];
  for (const c of claimed) {
    const start = new Date(c.shift_start).getTime();
    const end = start + 8 * 3_600_000;
    const readings = rows
      .filter((r) => r.device_id === c.device_id)
      .map((r) => ({
        ts: Number(r.ts),
        data: { nh3: r.nh3 ?? undefined, h2s: r.h2s ?? undefined, co2: r.co2 ?? undefined },
      }));
    const figures = monitorShift(readings, start, end);
    const verdicts = EXPOSURE_GASES.map((g) => [g, judge(g, figures[g])] as const);
    const known = verdicts.some(([, v]) => v.verdict !== 'unknown');
    if (!known) continue;
    // The ceiling has its own alarm; here the shift's TWA and STEL.
    const over = verdicts
      .map(([g, v]) => [g, v.breaches.filter((b) => !b.startsWith('MAC'))] as [ExposureGas, string[]])
      .filter(([, b]) => b.length);
    const shift = SHIFTS.find((s) => s.from === new Date(start + 8 * 3_600_000).getUTCHours())!;
    out.push({
      device_id: c.device_id,
      type: 'exposure',
      active: over.length > 0,
      at: end,
      message: over.length
        ? `${shift.label}职业接触超限：${over.map(([g, b]) => `${EXPOSURE_LIMITS[g].label} ${b.join('、')} mg/m³`).join('；')}`
        : '',
      detail: { shift: shift.key, shift_start: iso(start), ...Object.fromEntries(verdicts) },
    });
  }
  return out;
}
