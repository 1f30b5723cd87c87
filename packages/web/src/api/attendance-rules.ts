import {
  ATTENDANCE_RULES_API as API,
  type HolidayRow,
  type Page,
  type PageQuery,
  type DayRecordRow,
  type SchemeRow,
  type SummaryDepartments,
  type SummaryEmployeeRow,
  type addSchemeBody,
  type assignSchemeBody,
  type correctRecordBody,
  type dayRecordDetail,
  type recordListQuery,
  type setHolidayBody,
  type summaryQuery,
  type updateSchemeBody,
} from '@se/core';
import type { z } from 'zod';
import { get, post } from './client.ts';
import type { RequestOf } from './request.ts';

// Attendance schemes, holidays, daily results and summaries (/ci-scheme, /ci-record).
// Bodies with arrays of objects travel as JSON.

export const listSchemes = (q: { keywords?: string } & Partial<PageQuery>) =>
  get<Page<SchemeRow>>(API.schemes, q);
export const addScheme = (b: RequestOf<typeof addSchemeBody>) =>
  post<SchemeRow>(API.addScheme, b, { json: true });
export const updateScheme = (b: RequestOf<typeof updateSchemeBody>) =>
  post<SchemeRow>(API.updateScheme, b, { json: true });
export const assignScheme = (b: RequestOf<typeof assignSchemeBody>) =>
  post<unknown>(API.assignScheme, b, { json: true });

export const listHolidays = (year: number) => get<{ list: HolidayRow[] }>(API.holidays, { year });
export const setHoliday = (b: RequestOf<typeof setHolidayBody>) =>
  post<{ list: HolidayRow[] }>(API.setHoliday, b, { json: true });
export const resetHoliday = (day: string) =>
  post<{ list: HolidayRow[] }>(API.resetHoliday, { day }, { json: true });

export type RecordQuery = Omit<RequestOf<typeof recordListQuery>, keyof PageQuery>;
export const listRecords = (q: RecordQuery & Partial<PageQuery>) => get<Page<DayRecordRow>>(API.records, q);
export const getRecord = (employee_id: number, day: string) =>
  get<z.infer<typeof dayRecordDetail>>(API.record, { employee_id, day });
export const correctRecord = (b: RequestOf<typeof correctRecordBody>) =>
  post<DayRecordRow>(API.correctRecord, b, { json: true });

export type SummaryQuery = Omit<RequestOf<typeof summaryQuery>, keyof PageQuery>;
export const summaryEmployees = (q: SummaryQuery & Partial<PageQuery>) =>
  get<Page<SummaryEmployeeRow>>(API.summaryEmployees, q);
export const summaryDepartments = (q: { month: string; department_id?: number }) =>
  get<SummaryDepartments>(API.summaryDepartments, q);
