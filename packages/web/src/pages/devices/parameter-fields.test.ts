import { NUMERIC_PARAMS } from '@se/core';
import { describe, expect, it } from 'vitest';
import {
  PARAM_FIELDS,
  concentrationOf,
  concentrationValues,
  defaultParameterValues,
  environmentValues,
  parameterValuesOf,
} from './parameter-fields.ts';
import { normalizeNumber } from '../../components/number-field.ts';

describe('parameter set form', () => {
  it('offers every numeric parameter, starting from the SPEC §3 defaults', () => {
    expect(Object.keys(PARAM_FIELDS).sort()).toEqual([...NUMERIC_PARAMS].sort());
    const v = defaultParameterValues();
    expect(v).toMatchObject({
      water_co: 1800,
      atomizer_cps: 1,
      wash_int: 9999,
      nh3_n_tri: 0.9,
      nh3_l_tri: 0.2,
      liquid_time: 3500,
      fan_cps: 1.2,
      water_abnormal: 0,
      environment: 'default application',
      parameter_desc: '',
    });
  });

  it('lets every default through its own input rules unchanged', () => {
    const v = defaultParameterValues();
    for (const k of NUMERIC_PARAMS) expect(normalizeNumber(v[k], PARAM_FIELDS[k]), k).toBe(v[k]);
  });

  it('fills atomizer_cps, liquid_time and fan_cps from an 应用环境', () => {
    expect(environmentValues('ultra-quiet')).toEqual({
      environment: 'ultra-quiet',
      atomizer_cps: 0.6,
      liquid_time: 2500,
      fan_cps: 0.4,
    });
    expect(environmentValues('default application')).toMatchObject({ atomizer_cps: 0.85, fan_cps: 0.85 });
  });

  it('sets liquid_time from a 浓度 and names the 浓度 of a liquid_time', () => {
    expect(concentrationValues('超浓')).toEqual({ liquid_time: 6500 });
    expect(concentrationOf(2000)).toBe('极淡');
    expect(concentrationOf(3600)).toBeUndefined();
  });

  it('reads a stored set, keeping defaults for anything missing', () => {
    const v = parameterValuesOf({ parameter_desc: '大厅', fan_cps: 0.5, environment: 'school' });
    expect(v).toMatchObject({ parameter_desc: '大厅', fan_cps: 0.5, environment: 'school', water_co: 1800 });
  });
});
