import {
  EXPOSURE_GASES,
  EXPOSURE_LEVEL_LABELS,
  EXPOSURE_LIMITS,
  exposureLevel,
  ppmToMgm3,
  type ExposureGas,
  type ExposureLevel,
  type MonitorRow,
  type SiteRow,
} from '@se/core';

export const LEVEL_COLORS: Record<ExposureLevel, string> = {
  normal: 'green',
  attention: 'gold',
  over: 'red',
};

/** One gas of a monitor's latest report: ppm, mg/m³ and its level; null when not reported. */
export function gasReading(row: Pick<MonitorRow, 'latest'>, gas: ExposureGas) {
  const v = row.latest[gas];
  if (typeof v !== 'number' || !Number.isFinite(v)) return null;
  const level = exposureLevel(gas, v);
  return {
    ppm: v,
    mg: Math.round(ppmToMgm3(gas, v) * 100) / 100,
    level,
    label: EXPOSURE_LEVEL_LABELS[level],
  };
}

/** The worst level of a monitor's gases (for its row and card). */
export function worstLevel(row: Pick<MonitorRow, 'latest'>): ExposureLevel | null {
  const order: ExposureLevel[] = ['normal', 'attention', 'over'];
  let worst: ExposureLevel | null = null;
  for (const g of EXPOSURE_GASES) {
    const r = gasReading(row, g);
    if (r && (worst === null || order.indexOf(r.level) > order.indexOf(worst))) worst = r.level;
  }
  return worst;
}

/** Where a monitor stands: 站点 / 车间 / 作业区域. */
export const placeText = (r: Pick<MonitorRow, 'org_name' | 'building_name' | 'room_name'>) =>
  [r.org_name, r.building_name, r.room_name].filter(Boolean).join(' / ') || '未安置';

/** The site filter as a cascader: site → workshop → work area. */
export function placeOptions(sites: SiteRow[]) {
  return sites.map((s) => ({
    value: s.id,
    label: s.name,
    children: s.buildings.map((b) => ({
      value: b.id,
      label: b.name,
      children: b.rooms.map((r) => ({ value: r.id, label: r.name })),
    })),
  }));
}

/** A limit in words, e.g. "PC-TWA 20 / PC-STEL 30 mg/m³". */
export function limitText(gas: ExposureGas) {
  const l = EXPOSURE_LIMITS[gas];
  const parts = [
    l.twa !== null && `PC-TWA ${l.twa}`,
    l.stel !== null && `PC-STEL ${l.stel}`,
    l.mac !== null && `MAC ${l.mac}`,
  ].filter(Boolean);
  return `${parts.join(' / ')} mg/m³`;
}
