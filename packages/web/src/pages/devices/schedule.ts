import { SCHEDULE_PRESETS, WEEKDAYS, type JwbConfig, type UpdateConfigBody, type Weekday } from '@se/core';

/** The name of the preset that means "edited by hand" (SPEC §9). */
export const CUSTOM_PRESET = '新建';

export type ScheduleKey = `${Weekday}_${'start' | 'end'}`;
export type ScheduleValues = Record<ScheduleKey, string>;

/** The config editor's form: the weekly grid as HH:mm text plus the working settings. */
export interface ConfigFormValues extends ScheduleValues {
  config_name: string;
  work_mode?: number;
  work_fre?: number;
  all_fre?: number;
  work_limit?: number;
  ip_address: string;
}

export const SCHEDULE_KEYS: ScheduleKey[] = WEEKDAYS.flatMap((d) => [`${d}_start`, `${d}_end`] as const);

export const isScheduleKey = (key: string): key is ScheduleKey => (SCHEDULE_KEYS as string[]).includes(key);

/** The grid values a preset fills in; undefined for an unknown name. */
export function presetValues(name: string): ScheduleValues | undefined {
  const preset = SCHEDULE_PRESETS.find((p) => p.config_name === name);
  if (!preset) return undefined;
  return Object.fromEntries(
    WEEKDAYS.flatMap((d) => [
      [`${d}_start`, preset.schedule[d].start],
      [`${d}_end`, preset.schedule[d].end],
    ]),
  ) as ScheduleValues;
}

/**
 * The preset a grid equals, or 新建 when it was edited into something else. 推荐 comes
 * before 新建 in the list, so the defaults read 推荐.
 */
export function matchPreset(values: Partial<ScheduleValues>): string {
  const hit = SCHEDULE_PRESETS.find(
    (p) =>
      p.config_name !== CUSTOM_PRESET &&
      WEEKDAYS.every(
        (d) => values[`${d}_start`] === p.schedule[d].start && values[`${d}_end`] === p.schedule[d].end,
      ),
  );
  return hit?.config_name ?? CUSTOM_PRESET;
}

/** The stored config as form values. */
export function configToForm(config: JwbConfig): ConfigFormValues {
  const grid = Object.fromEntries(SCHEDULE_KEYS.map((k) => [k, config[k]])) as ScheduleValues;
  return {
    ...grid,
    // A config saved under a name we do not know keeps it; an unnamed one is named by its grid.
    config_name: config.config_name || matchPreset(grid),
    work_mode: config.work_mode,
    work_fre: config.work_fre,
    all_fre: config.all_fre,
    work_limit: config.work_limit,
    ip_address: config.ip_address,
  };
}

/** The update-config request for a dispenser from the form. */
export function formToBody(id: number, values: ConfigFormValues): UpdateConfigBody {
  const grid = Object.fromEntries(SCHEDULE_KEYS.map((k) => [k, values[k]])) as ScheduleValues;
  return {
    id,
    config_name: values.config_name.trim(),
    ...grid,
    work_mode: values.work_mode,
    work_fre: values.work_fre,
    all_fre: values.all_fre,
    work_limit: values.work_limit,
    ip_address: values.ip_address.trim(),
  };
}
