/** Air quality of SPEC §4 and §9. */

export type Gas = 'nh3' | 'h2s' | 'voc' | 'pm25' | 'co2';

/** Low/high thresholds per gas (SPEC §9). */
export const GAS_THRESHOLDS: Record<Gas, { low: number; high: number }> = {
  nh3: { low: 0.1, high: 1.5 },
  h2s: { low: 0.02, high: 0.05 },
  voc: { low: 2.5, high: 5 },
  pm25: { low: 2000, high: 5000 },
  co2: { low: 1000, high: 1800 },
};

/** Quality levels: 优 good, 良 fair, 差 poor. */
export const AIR_LEVELS = { good: '优', fair: '良', poor: '差' } as const;
export type AirLevel = keyof typeof AIR_LEVELS;

/** Band of one reading: below low is good, up to high is fair, above is poor. */
export function gasLevel(gas: Gas, value: number): AirLevel {
  const t = GAS_THRESHOLDS[gas];
  if (value < t.low) return 'good';
  if (value <= t.high) return 'fair';
  return 'poor';
}

export const AIR_SCORE_BOUNDS = { low: 0.41, high: 1 } as const;
export const AIR_WEIGHTS: Record<Gas, { weight: number; max: number }> = {
  nh3: { weight: 0.5, max: 0.5 },
  h2s: { weight: 0.05, max: 0.3 },
  voc: { weight: 0.05, max: 0.1 },
  pm25: { weight: 0, max: 0 },
  co2: { weight: 0, max: 0 },
};
export const HIDE_RATIO = 0.15;

/**
 * The air-quality score of one set of readings, 0.41…1 (1 = clean air). SPEC §9 gives the
 * constants, not the formula; ours: each gas's reading relative to its high threshold,
 * times its weight, capped at its maximum, is its share of pollution; a share below
 * HIDE_RATIO of its maximum is noise and counts as 0; the score is 1 minus the shares,
 * kept within the bounds. Gases without a reading count as clean.
 */
export function airScore(readings: Partial<Record<Gas, number>>): number {
  let polluted = 0;
  for (const g of Object.keys(AIR_WEIGHTS) as Gas[]) {
    const v = readings[g];
    const { weight, max } = AIR_WEIGHTS[g];
    if (v === undefined || !Number.isFinite(v) || max === 0) continue;
    const share = Math.min(weight * (Math.max(0, v) / GAS_THRESHOLDS[g].high), max);
    if (share >= HIDE_RATIO * max) polluted += share;
  }
  return Math.min(AIR_SCORE_BOUNDS.high, Math.max(AIR_SCORE_BOUNDS.low, 1 - polluted));
}

/** The level of a score: 优 from 0.8, 良 from 0.6, else 差. */
export function scoreLevel(score: number): AirLevel {
  if (score >= 0.8) return 'good';
  if (score >= 0.6) return 'fair';
  return 'poor';
}

/** Comment star levels 0..5 (SPEC §4). */
export const COMMENT_LEVELS = ['无', '极差', '差', '中', '良', '优'] as const;

export const ALARM_TYPES = { air: '空气质量', fire: '火警', help: '求助' } as const;

export const alarmText = (status: number) => (status !== 0 ? '已触发' : '无报警');
export const flagText = (ok: boolean) => (ok ? '正常' : '异常');
