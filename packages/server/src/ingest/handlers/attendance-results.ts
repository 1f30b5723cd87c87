import type { IngestHandler, StoredReport } from '../handler.ts';
import type { Queryable } from '../../db/index.ts';
import { markNewPunchDaysStale } from '../../modules/attendance-rules/repo.ts';

/**
 * Attendance punches change daily results: the days of the batch's new punches (and the day
 * before each, for shifts past midnight) are marked to recompute, so a punch that arrives
 * days late corrects the day it belongs to. Runs after the punches are stored.
 */
export const attendanceResults: IngestHandler = {
  name: 'attendance-results',
  kinds: ['attendance'],
  derive: (tx: Queryable, reports: StoredReport[]) =>
    markNewPunchDaysStale(tx, [...new Set(reports.map((r) => r.device_id))]),
};
