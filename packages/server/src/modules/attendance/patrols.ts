import type { AppContext } from '../../context.ts';
import { syncToiletAlarmFlags } from '../../ingest/alarms.ts';
import { openPatrolAlarms } from './repo.ts';

/**
 * One patrol sweep: a 'patrol' alarm on the clock-in terminal of each toilet whose required
 * patrol is overdue, pushed like any alarm (live channel, inbox, notification rules). The
 * next punch at the toilet closes it (ingest/handlers/punches.ts).
 */
export async function patrolSweep(ctx: AppContext) {
  const rows = await ctx.db.transaction(async (tx) => {
    const opened = await openPatrolAlarms(tx);
    await syncToiletAlarmFlags(tx, [...new Set(opened.map((r) => r.device_id))]);
    return opened;
  });
  const ids = rows.map((r) => r.id);
  if (ids.length) ctx.events.emit('alarms', ids);
  return ids;
}
