import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { SERVICE } from '@se/core';
import type { AppContext } from '../../context.ts';
import { addFile } from '../downloads/service.ts';
import { insertDeliveries } from './repo.ts';
import { notifierOf } from './runtime.ts';
import { reportHtml, reportText } from './weekly-mail.ts';
import {
  claimWeeklyReport,
  hasWeeklyFile,
  markWeeklyReportBuilt,
  releaseWeeklyReport,
  weeklySubscribers,
} from './weekly-repo.ts';
import {
  WEEKLY_KINDS,
  buildWeeklyReport,
  dueWeek,
  localDate,
  reportTitle,
  type WeeklyKind,
} from './weekly-report.ts';
import { reportXlsx } from './weekly-xlsx.ts';

/**
 * How long a claimed report may take to build before a later run decides its builder died
 * and builds it again (runs come every 5 minutes; a report of every device takes far less).
 */
export const WEEKLY_CLAIM_LEASE_MS = 3_600_000;

/**
 * Sends the weekly reports due at `now` to every user whose services ask for them: an
 * HTML e-mail (queued as a delivery, so it is retried) and a workbook in the download
 * centre. A report is claimed per user, kind and week before it is made, so a restart or
 * a second server copy never sends it twice; a claim whose report was not built (a crash
 * in between) is taken over after WEEKLY_CLAIM_LEASE_MS. Answers how many reports were made.
 */
export async function runWeeklyReports(ctx: AppContext, now = new Date()): Promise<number> {
  const week = dueWeek(now);
  const mask = SERVICE.jwbWeeklyReport | SERVICE.toiletWeeklyReport;
  const users = await weeklySubscribers(ctx.db, mask);
  let made = 0;
  for (const u of users) {
    for (const kind of Object.keys(WEEKLY_KINDS) as WeeklyKind[]) {
      if ((u.services & WEEKLY_KINDS[kind].service) === 0) continue;
      const claim = await claimWeeklyReport(ctx.db, u.id, kind, week.start, now, WEEKLY_CLAIM_LEASE_MS);
      if (claim === undefined) continue;
      // PGlite never yields between queries: let requests and MQTT acks in between reports.
      await yieldToEventLoop();
      try {
        await sendReport(ctx, u, kind, week, claim);
        made++;
      } catch (err) {
        ctx.log.warn({ err, user: u.id, kind }, 'weekly report failed; retried on the next run');
        await releaseWeeklyReport(ctx.db, claim);
      }
    }
  }
  return made;
}

async function sendReport(
  ctx: AppContext,
  u: { id: number; user_name: string; email: string | null; permissions: number; path: string },
  kind: WeeklyKind,
  week: { start: Date; end: Date },
  claim: number,
) {
  const r = await buildWeeklyReport(ctx.db, u, kind, week);
  const title = reportTitle(r);
  const name = `weekly-${kind}`;
  const weekStart = localDate(week.start);
  // A run taking over a dead builder's claim keeps the file that builder already stored.
  if (!(await hasWeeklyFile(ctx.db, u.id, name, weekStart))) {
    await addFile(ctx, u.id, WEEKLY_KINDS[kind].label, `${title}.xlsx`, await reportXlsx(r), {
      name,
      summary: `${r.devices.length} 台设备`,
      params: { week_start: weekStart },
      rows: r.devices.length,
    });
  }
  // The e-mail and the end of the claim commit together: sent once, or built again.
  const email = u.email;
  await ctx.db.transaction(async (tx) => {
    if (email) {
      await insertDeliveries(tx, [
        {
          user_id: u.id,
          channel: 'email',
          kind: 'weekly',
          target: email,
          payload: { subject: title, text: reportText(r), html: reportHtml(r) },
        },
      ]);
    }
    await markWeeklyReportBuilt(tx, claim);
  });
  if (email) notifierOf(ctx)?.kick();
}
