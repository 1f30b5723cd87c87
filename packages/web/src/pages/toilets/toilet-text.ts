import { formatStars, TOILET_STATUS, TOILET_STATUS_LABELS, type ToiletRow } from '@se/core';

export type ToiletFlag = keyof typeof TOILET_STATUS;

/** The full address as one line: province, city, district, street address (repeats dropped). */
export function addressText(t: Pick<ToiletRow, 'pname' | 'cityname' | 'adname' | 'address'>): string {
  const parts: string[] = [];
  // Municipalities repeat the province as the city (北京市 北京市).
  for (const p of [t.pname, t.cityname, t.adname, t.address].map((x) => x.trim())) {
    if (p && parts[parts.length - 1] !== p) parts.push(p);
  }
  return parts.join(' ');
}

/** The status flags a toilet has, as their labels (清洁中, 维修中, 报警). */
export function statusFlags(status: number): { flag: ToiletFlag; label: string }[] {
  return (Object.keys(TOILET_STATUS) as ToiletFlag[])
    .filter((f) => (status & TOILET_STATUS[f]) !== 0)
    .map((flag) => ({ flag, label: TOILET_STATUS_LABELS[flag] }));
}

/** The status with one flag switched on or off, the others kept. */
export const withFlag = (status: number, flag: ToiletFlag, on: boolean): number =>
  on ? status | TOILET_STATUS[flag] : status & ~TOILET_STATUS[flag];

/** Average star rating to one decimal, or 暂无 without ratings. */
export function starAverage(starSum: number, starCount: number): string {
  if (!starCount) return '暂无';
  return formatStars(starSum / starCount);
}
