import { LATE_REPORT_MS } from '../../modules/live/history-cache.ts';
import { bumpHistoryRev } from '../../modules/live/repo.ts';
import type { IngestHandler, StoredReport } from '../handler.ts';
import type { Queryable } from '../../db/index.ts';

/**
 * Every kind: devices whose stored reports are older than LATE_REPORT_MS (sent late, or by a
 * clock far behind) get their history revision bumped, so the device history reads its closed
 * buckets again instead of serving them from memory (modules/live/history-cache.ts). Reports
 * on time, nearly all of them, cost nothing here.
 */
export const lateHistory: IngestHandler = {
  name: 'late-history',
  kinds: 'all',
  derive: bump,
};

async function bump(tx: Queryable, stored: StoredReport[]) {
  const before = Date.now() - LATE_REPORT_MS;
  let late: Set<number> | undefined;
  for (const s of stored) if (s.ts < before) (late ??= new Set()).add(s.device_id);
  if (late) await bumpHistoryRev(tx, [...late]);
}
