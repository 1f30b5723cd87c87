import type { AppContext } from '../../context.ts';
import { syncToiletAlarmFlags } from '../../ingest/alarms.ts';
import { openPatrolAlarms } from './repo.ts';

/**
 * One patrol sweep: a 'patrol' alarm on the clock-in terminal of each toilet whose required
 * patrol is overdue, pushed like any alarm (live channel, inbox, notification rules). The
 * next punch at the toilet closes it (ingest/handlers/punches.ts).
 */
export async function patrolSweep(ctx: AppContext, at = new Date()) {
  const rows = await ctx.db.transaction(async (tx) => {
    const opened = await openPatrolAlarms(tx, at);
    await syncToiletAlarmFlags(tx, [...new Set(opened.map((r) => r.device_id))]);
    return opened;
  });
  const ids = rows.map((r) => r.id);
  if (ids.length) ctx.events.emit('alarms', ids);
  return ids;
}

const TZ_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;
const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/**
 * When the toilet's current opening began (epoch ms), or null while it is closed. Hours are
 * UTC+8 wall clock; a closing time before the opening time runs past midnight (18:00–02:00
 * is open at 01:00, an opening that began at 18:00 the day before). The same rule as the
 * sweep's SQL (openPatrolAlarms).
 */
export function openedAt(now: number, open: string, close: string): number | null {
  const local = now + TZ_MS;
  const midnight = Math.floor(local / DAY_MS) * DAY_MS - TZ_MS;
  const t = Math.floor((local % DAY_MS) / 60_000);
  const o = minutesOf(open);
  const c = minutesOf(close);
  if (o <= c) return t >= o && t <= c ? midnight + o * 60_000 : null;
  if (t >= o) return midnight + o * 60_000;
  if (t <= c) return midnight - DAY_MS + o * 60_000;
  return null;
}
