import { describe, expect, it } from 'vitest';
import { gasReading, limitText, placeText, worstLevel } from './industry-text.ts';

describe('industrial readings in words', () => {
  it('gives ppm, mg/m³ and a level against the short-term limit', () => {
    // H2S 8 ppm = 11.15 mg/m³, above its MAC 10: 超限.
    expect(gasReading({ latest: { h2s: 8 } }, 'h2s')).toEqual({
      ppm: 8,
      mg: 11.15,
      level: 'over',
      label: '超限',
    });
    // NH3 25 ppm = 17.41 mg/m³: over half its PC-STEL 30, under it: 注意.
    expect(gasReading({ latest: { nh3: 25 } }, 'nh3')).toMatchObject({ mg: 17.41, level: 'attention' });
    expect(gasReading({ latest: { nh3: 'x' } }, 'nh3')).toBeNull();
    expect(worstLevel({ latest: { nh3: 2, co2: 800, h2s: 8 } })).toBe('over');
    expect(worstLevel({ latest: {} })).toBeNull();
  });

  it('names limits and places', () => {
    expect(limitText('nh3')).toBe('PC-TWA 20 / PC-STEL 30 mg/m³');
    expect(limitText('h2s')).toBe('MAC 10 mg/m³');
    expect(placeText({ org_name: '化工厂', building_name: '一车间', room_name: null })).toBe(
      '化工厂 / 一车间',
    );
    expect(placeText({ org_name: null, building_name: null, room_name: null })).toBe('未安置');
  });
});
