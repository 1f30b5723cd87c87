import type { ExportDefinition } from './types.ts';
import { devicesExport } from './exports/devices.ts';
import { telemetryExport } from './exports/telemetry.ts';
import { toiletsExport } from './exports/toilets.ts';
import { commentsExport } from '../comments/export.ts';
import { employeesExport } from '../attendance/export.ts';
import { recordsExport } from '../maintenance/export.ts';
import { exposureExport } from '../industry/export.ts';
import { attendanceDepartmentsExport, attendanceEmployeesExport } from '../attendance-rules/export.ts';
import { playReportExport } from '../media-players/export.ts';

/**
 * Every export the download centre runs, by name. A module adds its own with one line here
 * (its definition lives beside its list code).
 */
export const EXPORTS: ExportDefinition<unknown>[] = [
  devicesExport,
  telemetryExport,
  toiletsExport,
  commentsExport,
  employeesExport,
  recordsExport,
  exposureExport,
  attendanceEmployeesExport,
  attendanceDepartmentsExport,
  playReportExport,
];

export const findExport = (name: string): ExportDefinition<unknown> | undefined =>
  EXPORTS.find((e) => e.name === name);
