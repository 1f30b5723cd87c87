import { METERS_API, type MeterUsage, type UsageGrain } from '@se/core';
import { get } from './client.ts';
import { downloadFile } from './devices.ts';

export interface UsageRange {
  id: number;
  grain: UsageGrain;
  from: number;
  to: number;
}

/** One meter's usage per day or month (issue 15). */
export const getMeterUsage = (q: UsageRange) => get<MeterUsage>(METERS_API.usage, { ...q });

/** The same rows as a CSV file. */
export const exportMeterUsage = (q: UsageRange) =>
  downloadFile(METERS_API.usageExport, { ...q }, `用量-${q.id}-${q.grain}.csv`);
