import { describe, expect, it } from 'vitest';
import {
  airOf,
  isOpenAt,
  occupancyOf,
  setStatusBody,
  starAverageOrNull,
  updateDocumentBody,
} from './toilet-detail.ts';

const doc = { male_count: 4, female_count: 0, others_count: 0 };

describe('occupancyOf', () => {
  it('takes the gateway counts, falls back to the document, and skips empty groups', () => {
    expect(occupancyOf({ male_occupy: 1, female_count: 6, female_occupy: 6, female_times: 30 }, doc)).toEqual(
      [
        { key: 'male', label: '男', count: 4, occupy: 1, times: null },
        { key: 'female', label: '女', count: 6, occupy: 6, times: 30 },
      ],
    );
    expect(occupancyOf({}, { male_count: 0, female_count: 0, others_count: 0 })).toEqual([]);
  });
});

describe('airOf', () => {
  it('takes the worst reading per gas over gateway and sensors, with bands and a score', () => {
    const air = airOf([{ nh3: 0.05, h2s: 0.01 }, { nh3: 2.0 }]);
    expect(air?.gases).toEqual([
      { gas: 'nh3', value: 2.0, level: 'poor' },
      { gas: 'h2s', value: 0.01, level: 'good' },
    ]);
    expect(air?.score).toBe(0.5);
    expect(air?.level_text).toBe('差');
  });

  it('is null without any gas', () => {
    expect(airOf([{ male_occupy: 1 }])).toBeNull();
    expect(airOf([])).toBeNull();
  });
});

describe('isOpenAt', () => {
  it('handles daytime, overnight and all-day windows', () => {
    expect(isOpenAt('12:00', '06:00', '22:00')).toBe(true);
    expect(isOpenAt('23:00', '06:00', '22:00')).toBe(false);
    expect(isOpenAt('01:00', '18:00', '02:00')).toBe(true);
    expect(isOpenAt('12:00', '18:00', '02:00')).toBe(false);
    expect(isOpenAt('03:00', '00:00', '00:00')).toBe(true);
  });
});

describe('schemas', () => {
  it('accepts HH:MM and refuses 24:00', () => {
    expect(updateDocumentBody.safeParse({ toilet_id: '1', open_time: '06:30' }).success).toBe(true);
    expect(updateDocumentBody.safeParse({ toilet_id: '1', close_time: '24:00' }).success).toBe(false);
  });

  it('lets an operator switch only cleaning and repair', () => {
    expect(setStatusBody.safeParse({ id: '1', flag: '1', on: 'true' }).success).toBe(true);
    expect(setStatusBody.safeParse({ id: '1', flag: '4', on: 'false' }).success).toBe(false);
    expect(setStatusBody.safeParse({ id: '1', flag: '3', on: 'true' }).success).toBe(false);
  });

  it('averages stars to one decimal', () => {
    expect(starAverageOrNull(7, 2)).toBe(3.5);
    expect(starAverageOrNull(10, 3)).toBe(3.3);
    expect(starAverageOrNull(0, 0)).toBeNull();
  });
});
