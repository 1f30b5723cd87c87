import { describe, expect, it } from 'vitest';
import { airScore, alarmText, flagText, gasLevel, GAS_THRESHOLDS, scoreLevel } from './air.ts';
import {
  ENVIRONMENT_PRESETS,
  JWB_WARNING,
  JWB_WARNINGS,
  LIQUID_PRESETS,
  OFFLINE_MS,
  PARAMETER_DEFAULTS,
  SCHEDULE_PRESETS,
  STATUS_FILTER,
  isOnline,
  warningLabels,
} from './devices.ts';

describe('offline thresholds (SPEC §4)', () => {
  it('are 5 h, 7 d and 1 h', () => {
    expect(OFFLINE_MS).toEqual({ default: 18_000_000, meter: 604_800_000, sensor: 3_600_000 });
    expect(STATUS_FILTER).toEqual({ online: 131072, offline: 262144 });
  });
  it('count a device as online up to exactly the threshold', () => {
    const now = 1_000_000_000_000;
    expect(isOnline(now - OFFLINE_MS.default, OFFLINE_MS.default, now)).toBe(true);
    expect(isOnline(now - OFFLINE_MS.default - 1, OFFLINE_MS.default, now)).toBe(false);
    expect(isOnline(null, OFFLINE_MS.default, now)).toBe(false);
  });
});

describe('dispenser warnings (SPEC §9)', () => {
  it('decode every bit into its tag', () => {
    expect(JWB_WARNINGS.map((w) => w.bit)).toEqual([32768, 16384, 1024, 8192, 8, 4]);
    expect(warningLabels(32768 | 4)).toEqual(['缺液', '断水']);
    expect(warningLabels(0)).toEqual([]);
    expect(JWB_WARNING).toEqual({
      lackOfLiquid: 32768,
      lackOfWater: 16384,
      atomizer: 1024,
      fan: 8192,
      wash: 8,
      cutWater: 4,
    });
    expect(warningLabels(0xffff)).toEqual(['缺液', '缺水', '雾化器', '风扇', '清洗', '断水']);
  });
});

describe('presets (SPEC §9)', () => {
  it('liquid concentrations', () => {
    expect(LIQUID_PRESETS.map((p) => [p.label, p.liquid_time])).toEqual([
      ['极淡', 2000],
      ['淡', 2500],
      ['中', 3500],
      ['微浓', 4500],
      ['浓', 5500],
      ['超浓', 6500],
    ]);
  });
  it('environments', () => {
    const byEnv = Object.fromEntries(
      ENVIRONMENT_PRESETS.map((p) => [p.environment, [p.atomizer_cps, p.liquid_time, p.fan_cps]]),
    );
    expect(byEnv).toEqual({
      'default application': [0.85, 3500, 0.85],
      'public toilet': [1, 4500, 1],
      station: [1, 4500, 1],
      school: [1, 4500, 1],
      'scenic area': [1, 4500, 1],
      'office building': [0.8, 2500, 0.8],
      'ultra-quiet': [0.6, 2500, 0.4],
    });
  });
  it('schedules, with school weekends off', () => {
    const byName = Object.fromEntries(SCHEDULE_PRESETS.map((p) => [p.config_name, p.schedule]));
    expect(Object.keys(byName)).toEqual(['推荐', '地铁', '高铁', '汽车站', '学校', '全天', '新建']);
    expect(byName['推荐']!.mon).toEqual({ start: '05:30', end: '22:00' });
    expect(byName['地铁']!.sun).toEqual({ start: '05:30', end: '22:30' });
    expect(byName['高铁']!.wed).toEqual({ start: '05:30', end: '23:00' });
    expect(byName['汽车站']!.fri).toEqual({ start: '05:30', end: '19:00' });
    expect(byName['学校']!.fri).toEqual({ start: '07:00', end: '19:00' });
    expect(byName['学校']!.sat).toEqual({ start: '00:01', end: '00:00' });
    expect(byName['学校']!.sun).toEqual({ start: '00:01', end: '00:00' });
    expect(byName['全天']!.thurs).toEqual({ start: '00:00', end: '00:00' });
  });
  it('parameter defaults of SPEC §3', () => {
    expect(PARAMETER_DEFAULTS).toMatchObject({
      parameter_num: 2,
      water_co: 1800,
      wash_int: 9999,
      nh3_n_tri: 0.9,
      fan_cps: 1.2,
      environment: 'default application',
    });
  });
});

describe('air quality (SPEC §4, §9)', () => {
  it('bands each gas by its low and high thresholds', () => {
    expect(GAS_THRESHOLDS.nh3).toEqual({ low: 0.1, high: 1.5 });
    expect(gasLevel('nh3', 0.05)).toBe('good');
    expect(gasLevel('nh3', 1.5)).toBe('fair');
    expect(gasLevel('nh3', 1.6)).toBe('poor');
    expect(gasLevel('co2', 999)).toBe('good');
    expect(gasLevel('co2', 1800.1)).toBe('poor');
  });
  it('reads alarms and flags', () => {
    expect(alarmText(0)).toBe('无报警');
    expect(alarmText(2)).toBe('已触发');
    expect(flagText(true)).toBe('正常');
    expect(flagText(false)).toBe('异常');
  });
});

describe('air-quality score (SPEC §9 constants)', () => {
  it('is 1 for clean air and for readings under the hide ratio', () => {
    expect(airScore({})).toBe(1);
    expect(airScore({ nh3: 0, h2s: 0, voc: 0 })).toBe(1);
    // NH3 0.2: share 0.5 × 0.2/1.5 = 0.0667 < 0.15 × 0.5 = 0.075 → hidden.
    expect(airScore({ nh3: 0.2 })).toBe(1);
  });
  it('subtracts each gas share, capped at its maximum', () => {
    // NH3 0.75: 0.5 × 0.5 = 0.25 → 0.75.
    expect(airScore({ nh3: 0.75 })).toBeCloseTo(0.75, 10);
    // NH3 at 3 (twice the high threshold): 1.0 capped at 0.5 → 0.5.
    expect(airScore({ nh3: 3 })).toBeCloseTo(0.5, 10);
    // H2S 0.5 (10× high): 0.05 × 10 = 0.5 capped at 0.3; VOC 10 (2×): 0.1 (max); NH3 0.75: 0.25 → 1 − 0.65 = 0.35 → bound 0.41.
    expect(airScore({ nh3: 0.75, h2s: 0.5, voc: 10 })).toBe(0.41);
    // H2S 0.3 (6×): share 0.3 (max), VOC 7.5 (1.5×): 0.075 → 1 − 0.375 = 0.625.
    expect(airScore({ h2s: 0.3, voc: 7.5 })).toBeCloseTo(0.625, 10);
    // PM2.5 and CO2 weigh nothing.
    expect(airScore({ pm25: 99999, co2: 99999 })).toBe(1);
  });
  it('reads as 优, 良 or 差', () => {
    expect(scoreLevel(1)).toBe('good');
    expect(scoreLevel(0.75)).toBe('fair');
    expect(scoreLevel(0.5)).toBe('poor');
  });
});
