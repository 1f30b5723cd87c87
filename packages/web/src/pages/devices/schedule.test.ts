import { SCHEDULE_PRESETS, type JwbConfig } from '@se/core';
import { describe, expect, it } from 'vitest';
import { configToForm, formToBody, matchPreset, presetValues, type ConfigFormValues } from './schedule.ts';

const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thurs', 'fri'] as const;

describe('schedule presets → the weekly grid', () => {
  it('fills 学校 with 07:00–19:00 on weekdays and 00:01–00:00 (off) at the weekend', () => {
    const v = presetValues('学校')!;
    for (const d of WEEKDAY_KEYS) {
      expect(v[`${d}_start`], d).toBe('07:00');
      expect(v[`${d}_end`], d).toBe('19:00');
    }
    for (const d of ['sat', 'sun'] as const) {
      expect(v[`${d}_start`], d).toBe('00:01');
      expect(v[`${d}_end`], d).toBe('00:00');
    }
  });

  it('fills every day alike for the daily presets', () => {
    const expected: Record<string, [string, string]> = {
      推荐: ['05:30', '22:00'],
      地铁: ['05:30', '22:30'],
      高铁: ['05:30', '23:00'],
      汽车站: ['05:30', '19:00'],
      全天: ['00:00', '00:00'],
    };
    for (const [name, [start, end]] of Object.entries(expected)) {
      const v = presetValues(name)!;
      expect(
        new Set(
          Object.entries(v)
            .filter(([k]) => k.endsWith('_start'))
            .map(([, t]) => t),
        ),
      ).toEqual(new Set([start]));
      expect(
        new Set(
          Object.entries(v)
            .filter(([k]) => k.endsWith('_end'))
            .map(([, t]) => t),
        ),
      ).toEqual(new Set([end]));
      expect(Object.keys(v)).toHaveLength(14);
    }
  });

  it('knows nothing of unknown names', () => {
    expect(presetValues('夜班')).toBeUndefined();
  });

  it('recognises a preset in a grid and calls a hand-edited grid 新建', () => {
    for (const p of SCHEDULE_PRESETS.filter((x) => x.config_name !== '新建')) {
      expect(matchPreset(presetValues(p.config_name)!)).toBe(p.config_name);
    }
    expect(matchPreset(presetValues('新建')!)).toBe('推荐');
    expect(matchPreset({ ...presetValues('学校')!, sat_end: '12:00' })).toBe('新建');
  });
});

describe('config form ↔ request', () => {
  const stored: JwbConfig = {
    id: 3,
    device_id: 9,
    is_delete: false,
    config_name: '',
    ...presetValues('地铁')!,
    work_mode: 1,
    work_fre: 30,
    all_fre: 600,
    ip_address: '10.0.0.8',
    work_limit: 12,
    config_date: '2025-06-01 08:00:00',
  };

  it('names an unnamed stored config after its grid', () => {
    expect(configToForm(stored).config_name).toBe('地铁');
    expect(configToForm({ ...stored, config_name: '早班' }).config_name).toBe('早班');
  });

  it('sends the dispenser id, the 14 times and the settings', () => {
    const form: ConfigFormValues = { ...configToForm(stored), ip_address: ' 10.0.0.9 ' };
    const body = formToBody(9, form);
    expect(body).toMatchObject({
      id: 9,
      config_name: '地铁',
      mon_start: '05:30',
      sun_end: '22:30',
      work_mode: 1,
      work_fre: 30,
      all_fre: 600,
      work_limit: 12,
      ip_address: '10.0.0.9',
    });
    expect(body).not.toHaveProperty('config_date');
  });
});
