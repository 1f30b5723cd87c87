import { ENVIRONMENT_PRESETS, LIQUID_PRESETS, NUMERIC_PARAMS, PARAMETER_DEFAULTS } from '@se/core';
import type { NumberRules } from '../../components/number-field.ts';

export type NumericParam = (typeof NUMERIC_PARAMS)[number];

interface ParamField extends NumberRules {
  label: string;
  unit?: string;
}

// core names the parameters but not what they mean to an operator; the labels are ours
// (the field name stays visible beside each so a device technician can match the manual).
// Coefficients and thresholds take decimals; counts and times are whole numbers.
const coefficient = { step: 0.01, precision: 2, min: 0, max: 100 };
const whole = (max: number, unit?: string): NumberRules & { unit?: string } => ({
  step: 1,
  precision: 0,
  min: 0,
  max,
  unit,
});

export const PARAM_FIELDS: Record<NumericParam, ParamField> = {
  water_co: { label: '补水系数', ...whole(100_000) },
  atomizer_cps: { label: '雾化器系数', ...coefficient },
  re_com: { label: '重连间隔', ...whole(100_000, '秒') },
  com_int: { label: '通信间隔', ...whole(100_000, '秒') },
  magnetic_max_time: { label: '电磁阀最长开启', ...whole(100_000, '秒') },
  max_free_time: { label: '最长空闲时间', ...whole(100_000, '秒') },
  wash_int: { label: '清洗间隔', ...whole(100_000) },
  nh3_smpl: { label: '氨气采样间隔', ...whole(100_000, '秒') },
  nh3_cps_a: { label: '氨气校准系数 A', ...coefficient },
  nh3_cps_b: { label: '氨气校准系数 B', ...coefficient, min: -100 },
  nh3_h_tri: { label: '氨气高触发值', ...coefficient, unit: 'ppm' },
  nh3_n_tri: { label: '氨气中触发值', ...coefficient, unit: 'ppm' },
  nh3_l_tri: { label: '氨气低触发值', ...coefficient, unit: 'ppm' },
  nh3_abnormal: { label: '氨气异常值', ...whole(100_000) },
  water_l_tri: { label: '低水位触发值', ...whole(100_000) },
  water_h_tri: { label: '高水位触发值', ...whole(100_000) },
  work_time: { label: '工作时长', ...whole(100_000, '秒') },
  nop_time: { label: '空闲等待时间', ...whole(100_000, '秒') },
  liquid_time: { label: '出液时间', ...whole(100_000, '毫秒') },
  fan_cps: { label: '风扇系数', ...coefficient },
  rfid_cps: { label: 'RFID 系数', ...coefficient },
  water_abnormal: { label: '水位异常值', ...whole(100_000) },
};

export type ParameterFormValues = Partial<Record<NumericParam, number>> & {
  parameter_desc: string;
  environment: string;
};

/** A new set starts from SPEC §3's defaults. */
export function defaultParameterValues(): ParameterFormValues {
  const values = Object.fromEntries(NUMERIC_PARAMS.map((k) => [k, PARAMETER_DEFAULTS[k]]));
  return { ...values, parameter_desc: '', environment: PARAMETER_DEFAULTS.environment };
}

/** An existing set's values for its edit form. */
export function parameterValuesOf(set: Record<string, unknown>): ParameterFormValues {
  const values = defaultParameterValues();
  for (const k of NUMERIC_PARAMS) if (typeof set[k] === 'number') values[k] = set[k];
  if (typeof set.parameter_desc === 'string') values.parameter_desc = set.parameter_desc;
  if (typeof set.environment === 'string') values.environment = set.environment;
  return values;
}

/** Choosing an 应用环境 fills its three values (SPEC §9). */
export function environmentValues(environment: string): Partial<ParameterFormValues> {
  const p = ENVIRONMENT_PRESETS.find((e) => e.environment === environment);
  if (!p) return { environment };
  return { environment, atomizer_cps: p.atomizer_cps, liquid_time: p.liquid_time, fan_cps: p.fan_cps };
}

export const environmentLabel = (environment: string): string =>
  ENVIRONMENT_PRESETS.find((e) => e.environment === environment)?.label ?? environment;

/** The 浓度 preset whose liquid_time this is, if any. */
export const concentrationOf = (liquidTime: number | undefined): string | undefined =>
  LIQUID_PRESETS.find((p) => p.liquid_time === liquidTime)?.label;

/** Choosing a 浓度 sets liquid_time. */
export const concentrationValues = (label: string): Partial<ParameterFormValues> => {
  const p = LIQUID_PRESETS.find((x) => x.label === label);
  return p ? { liquid_time: p.liquid_time } : {};
};
