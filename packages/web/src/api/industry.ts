import {
  INDUSTRY_API,
  type ExposureReport,
  type MonitorRow,
  type Page,
  type SiteRow,
  type monitorListQuery,
} from '@se/core';
import { get } from './client.ts';
import type { RequestOf } from './request.ts';

// Smart industry (/smart-industrial): monitors, their sites and areas, exposure per shift.

export type MonitorFilter = RequestOf<typeof monitorListQuery>;

export const listMonitors = (q: MonitorFilter) => get<Page<MonitorRow>>(INDUSTRY_API.monitors, { ...q });
export const listSites = () => get<SiteRow[]>(INDUSTRY_API.sites);
export const getExposure = (q: { org_id: number; date: string }) =>
  get<ExposureReport>(INDUSTRY_API.exposure, q);
