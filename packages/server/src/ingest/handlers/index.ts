import type { IngestHandler } from '../handler.ts';
import { deviceAlarms } from './alarms.ts';
import { hourlyRollup } from './hourly.ts';
import { ratingComments } from './ratings.ts';
import { screenReports } from './players.ts';

/**
 * The ingest steps of every device kind, in run order within each phase (store, derive,
 * alarm). A new kind adds its handler file and one line here; `pipeline.ts` does not change.
 * A list rather than `register…()` calls from each module: the order is visible in one place
 * and does not depend on which module happened to be imported first.
 */
export const INGEST_HANDLERS: readonly IngestHandler[] = [
  hourlyRollup,
  ratingComments,
  deviceAlarms,
  screenReports,
];
