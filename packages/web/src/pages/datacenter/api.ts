import { DATACENTER_API, type DatacenterMap, type DatacenterOverview } from '@se/core';
import { get } from '../../api/client.ts';

// The data centres' two calls; /st-data-center reads the same numbers under its own area.

export type DashboardArea = 'dataCenter' | 'smartToilet';

export const getOverview = (area: DashboardArea) =>
  get<DatacenterOverview>(area === 'dataCenter' ? DATACENTER_API.overview : DATACENTER_API.stOverview);

export const getMap = (area: DashboardArea) =>
  get<DatacenterMap>(area === 'dataCenter' ? DATACENTER_API.map : DATACENTER_API.stMap);
