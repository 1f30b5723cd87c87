// The demo's paper dispensers (issue 19): a day of paper level history through the ingest
// pipeline, so the drawer's chart shows the level falling with use and jumping back when a
// cleaner refills it, with the 缺纸 spells (and their alarms) in between. One dispenser, the
// busiest, runs out often and waits long for its refill: a problem worth finding.
import { DEVICE_KINDS, PAPER_WARNING, TZ_OFFSET_HOURS } from '@se/core';
import { backfill, listPages } from './demo-kit.ts';
import type { ConsoleApi } from './fleet.ts';
import { rng, usage, type SimDevice } from './values.ts';

const MINUTE = 60_000;
const STEP = 10 * MINUTE;
const HOURS = 24;

/** Ten-minute readings of one dispenser over the last day: drain, empty spell, refill. */
export function paperDay(serNum: string, end: number, busy: boolean) {
  const r = rng([...serNum].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 11));
  const points: { ts: number; data: Record<string, unknown> }[] = [];
  let level = 60 + r() * 40;
  let emptyFor = 0;
  const start = Math.floor(end / STEP) * STEP - HOURS * 60 * MINUTE;
  for (let ts = start; ts < end; ts += STEP) {
    const hour = (new Date(ts).getUTCHours() + TZ_OFFSET_HOURS) % 24;
    if (level <= 0) {
      emptyFor += STEP;
      // A cleaner comes by after 30–90 minutes (the busy one's after 2–4 hours).
      const wait = (busy ? 120 + r() * 120 : 30 + r() * 60) * MINUTE;
      if (emptyFor >= wait) {
        level = 100;
        emptyFor = 0;
      }
    } else level = Math.max(0, level - usage(hour) * (busy ? 9 : 4) * (0.5 + r()));
    const rounded = Math.round(level);
    const warning = rounded === 0 ? PAPER_WARNING.outOfPaper : rounded < 15 ? PAPER_WARNING.lowPaper : 0;
    points.push({ ts, data: { level: rounded, warning } });
  }
  return points;
}

/** `admin` lists the dispensers; those that never reported get their day of history. */
export async function demoPaperHistory(admin: ConsoleApi, mqttUrl: string, fleet: SimDevice[]) {
  const k = DEVICE_KINDS.paper_machine;
  const rows = await listPages<{ ser_num: string; time: number | null }>(admin, `${k.base}/${k.plural}`, {
    keywords: 'DEMO-PM',
  });
  const silent = new Set(rows.filter((d) => d.time === null).map((d) => d.ser_num));
  const paper = fleet.filter((d) => d.kind === 'paper_machine' && silent.has(d.ser_num));
  const end = Date.now() - MINUTE;
  await Promise.all(paper.map((d, i) => backfill(mqttUrl, d, paperDay(d.ser_num, end, i === 0))));
}
