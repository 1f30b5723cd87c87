import type { IngestHandler } from '../handler.ts';
import { deviceAlarms } from './alarms.ts';
import { hourlyRollup } from './hourly.ts';
import { fiveMinuteRollup } from './five-minute.ts';
import { lateHistory } from './late-history.ts';
import { attendancePunches } from './punches.ts';
import { meterUsage } from './meters.ts';
import { industryExposure } from './industry.ts';
import { ratingComments } from './ratings.ts';
import { attendanceResults } from './attendance-results.ts';
import { screenReports } from './players.ts';

/**
 * The ingest steps of every device kind, in run order within each phase (store, derive,
 * alarm). A new kind adds its handler file and one line here; `pipeline.ts` does not change.
 * A list rather than `register…()` calls from each module: the order is visible in one place
 * and does not depend on which module happened to be imported first.
 */
export const INGEST_HANDLERS: readonly IngestHandler[] = [
  hourlyRollup,
  fiveMinuteRollup,
  lateHistory,
  ratingComments,
  attendancePunches,
  deviceAlarms,
  meterUsage,
  industryExposure,
  // After the punches are stored (its derive step reads them).
  attendanceResults,
  screenReports,
];
