import { DEVICE_KINDS, OFFLINE_MS } from '@se/core';
import type { AppContext } from '../context.ts';
import { analyze, vacuumListTables } from '../db/maintenance.ts';
import { sweepOffline } from '../ingest/alarms.ts';
import { runWeeklyReports } from '../modules/notify/weekly.ts';
import { patrolSweep } from '../modules/attendance/patrols.ts';
import { expireDownloads } from '../modules/downloads/service.ts';
import { planSweep } from '../modules/maintenance/plans.ts';
import { ensurePartitions } from './partitions.ts';
import { applyRetention } from './retention.ts';
import { devicesOfAlarms } from './repo.ts';

const THRESHOLDS: Record<string, number> = {
  ...Object.fromEntries(Object.entries(DEVICE_KINDS).map(([k, v]) => [k, v.offline])),
  sensor: OFFLINE_MS.sensor,
};

/** One sweep: offline alarms for silent devices, pushed like any alarm change. */
export async function offlineSweep(ctx: AppContext) {
  const ids = await ctx.db.transaction((tx) => sweepOffline(tx, THRESHOLDS, OFFLINE_MS.default));
  if (!ids.length) return ids;
  ctx.events.emit('alarms', ids);
  const devices = await devicesOfAlarms(ctx.db, ids);
  ctx.events.emit('offline', devices);
  return ids;
}

/**
 * In-process jobs. Each run is guarded so a slow one never overlaps the next; with several
 * server copies the sweep is idempotent (the unique open-alarm index decides).
 */
export function startJobs(ctx: AppContext) {
  const every = (ms: number, fn: () => Promise<unknown>) => {
    let running = false;
    const t = setInterval(() => {
      if (running) return;
      running = true;
      fn()
        .catch((err) => ctx.log.warn({ err }, 'job failed'))
        .finally(() => (running = false));
    }, ms);
    t.unref();
    return t;
  };
  const timers = [
    // PGlite runs no autovacuum: without fresh statistics the planner guesses, badly, once
    // tables grow, and without a visibility map no list reads the closure index alone.
    // PostgreSQL's own autovacuum does this there.
    ...(ctx.db.kind === 'pglite'
      ? [every(10 * 60_000, () => vacuumListTables(ctx.db).then(() => analyze(ctx.db)))]
      : []),
    every(60_000, () => offlineSweep(ctx)),
    // Cleaner patrols overdue in opening hours (issue 16).
    every(60_000, () => patrolSweep(ctx)),
    // Planned maintenance (issue 18): due plans open their 保养 orders; each claimed in the
    // database, so several server copies open it once.
    every(60_000, () => planSweep(ctx)),
    // Weekly reports fall due Monday 08:00 (UTC+8); each is claimed once per user and week,
    // so checking often costs one query and a late start still sends that week's report.
    every(5 * 60_000, () => runWeeklyReports(ctx)),
    every(6 * 3_600_000, () => ensurePartitions(ctx.db, new Date(), (m) => ctx.log.warn(m))),
    every(6 * 3_600_000, () => applyRetention(ctx.db, ctx.config.retentionDays)),
    // Download-centre files older than DOWNLOAD_KEEP_DAYS.
    every(3_600_000, () => expireDownloads(ctx)),
  ];
  return { stop: () => timers.forEach((t) => clearInterval(t)) };
}
