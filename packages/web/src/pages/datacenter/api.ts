import { DATACENTER_API, type DatacenterMap, type DatacenterOverview } from '@se/core';
import { get } from '../../api/client.ts';

// The data centres' two calls; /st-data-center reads the same numbers under its own area.

export type DashboardArea = 'dataCenter' | 'smartToilet';

// `since` (ms): numbers computed no earlier than then, for a refetch a live push asked for.
const sinceQuery = (since?: number) => (since === undefined ? undefined : { since });

export const getOverview = (area: DashboardArea, since?: number) =>
  get<DatacenterOverview>(
    area === 'dataCenter' ? DATACENTER_API.overview : DATACENTER_API.stOverview,
    sinceQuery(since),
  );

export const getMap = (area: DashboardArea, since?: number) =>
  get<DatacenterMap>(area === 'dataCenter' ? DATACENTER_API.map : DATACENTER_API.stMap, sinceQuery(since));
