import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { StoredReport } from '../../ingest/pipeline.ts';
import { LOCAL_REPORTS } from '../../realtime/bus.ts';
import { alarmsByIds } from '../live/repo.ts';
import {
  alarmReceivers,
  anyInterfaceWantsReports,
  commentReceivers,
  reportReceivers,
  type Receiver,
} from './pushes-repo.ts';
import { insertDeliveries, type NewDelivery } from './repo.ts';

/** Reports held between flushes at most; beyond it the oldest are dropped (and logged). */
const MAX_BUFFER = 20_000;

/** Whether the interface's owner `o` sees device `d` (develop sees all; a sensor: its gateway). */
/**
 * Docking interfaces' opt-in pushes. Events (stored reports, alarm changes, new comments)
 * gather in memory and each flush — once a second — turns them into deliveries: one batch
 * of reports per interface, one per alarm change and per comment (deduplicated, so several
 * server copies hearing the same alarm queue it once). The delivery worker sends and
 * retries them, signed.
 */
export class DockingPushes {
  private reports: StoredReport[] = [];
  private alarms = new Set<number>();
  private comments = new Set<number>();
  private dropped = 0;
  /** Any interface with push_reports: without one, reports are not even buffered. */
  private wantReports = false;
  private detach: (() => void) | null = null;

  constructor(
    private ctx: AppContext,
    private queued: () => void,
  ) {}

  attach() {
    const bus = this.ctx.events;
    const onReports = (stored: StoredReport[]) => {
      if (!this.wantReports) return;
      for (const r of stored) this.reports.push(r);
      if (this.reports.length > MAX_BUFFER) {
        this.dropped += this.reports.length - MAX_BUFFER;
        this.reports.splice(0, this.reports.length - MAX_BUFFER);
      }
    };
    const onAlarms = (ids: number[]) => ids.forEach((id) => this.alarms.add(id));
    const onComments = (items: { id: number }[]) => items.forEach((c) => this.comments.add(c.id));
    // Each copy pushes the reports it committed itself; 'reports' also carries other copies'.
    bus.on(LOCAL_REPORTS, onReports);
    bus.on('alarms', onAlarms);
    bus.on('comments', onComments);
    this.detach = () => {
      bus.off(LOCAL_REPORTS, onReports);
      bus.off('alarms', onAlarms);
      bus.off('comments', onComments);
    };
  }

  stop() {
    this.detach?.();
  }

  /** Re-reads whether any interface wants reports (after an interface changed). */
  async refresh() {
    this.wantReports = await anyInterfaceWantsReports(this.ctx.db);
    if (!this.wantReports) this.reports = [];
  }

  /** Queues what gathered since the last flush; answers how many deliveries it queued. */
  async flush(): Promise<number> {
    const reports = this.reports;
    const alarms = [...this.alarms];
    const comments = [...this.comments];
    this.reports = [];
    this.alarms.clear();
    this.comments.clear();
    if (this.dropped) {
      this.ctx.log.warn({ dropped: this.dropped }, 'docking push buffer full: oldest reports not pushed');
      this.dropped = 0;
    }
    await this.refresh();
    const rows: NewDelivery[] = [];
    if (reports.length) rows.push(...(await reportDeliveries(this.ctx.db, reports)));
    if (alarms.length) rows.push(...(await alarmDeliveries(this.ctx.db, alarms)));
    if (comments.length) rows.push(...(await commentDeliveries(this.ctx.db, comments)));
    if (!rows.length) return 0;
    const ins = await insertDeliveries(this.ctx.db, rows);
    if (ins.length) this.queued();
    return ins.length;
  }
}

async function reportDeliveries(q: Queryable, reports: StoredReport[]): Promise<NewDelivery[]> {
  const deviceIds = [...new Set(reports.map((r) => r.device_id))];
  const pairs = await reportReceivers(q, deviceIds);
  const byInterface = new Map<number, { r: Receiver; devices: Map<number, string> }>();
  for (const p of pairs) {
    let e = byInterface.get(p.docking_id);
    if (!e) byInterface.set(p.docking_id, (e = { r: p, devices: new Map() }));
    e.devices.set(p.device_id, p.ser_num);
  }
  const sorted = [...reports].sort((a, b) => a.ts - b.ts);
  return [...byInterface.values()].map(({ r, devices }) => ({
    docking_id: r.docking_id,
    user_id: r.user_id,
    channel: 'docking',
    kind: 'reports',
    target: r.url,
    payload: {
      type: 'reports',
      reports: sorted
        .filter((s) => devices.has(s.device_id))
        .map((s) => ({
          device_id: s.device_id,
          ser_num: devices.get(s.device_id),
          kind: s.kind,
          time: s.ts,
          data: s.data,
        })),
    },
  }));
}

async function alarmDeliveries(q: Queryable, ids: number[]): Promise<NewDelivery[]> {
  const pairs = await alarmReceivers(q, ids);
  if (!pairs.length) return [];
  const rows = new Map((await alarmsByIds(q, ids)).map((a) => [a.id, a]));
  return pairs.flatMap((p) => {
    const a = rows.get(p.alarm_id);
    if (!a) return [];
    return [
      {
        docking_id: p.docking_id,
        user_id: p.user_id,
        channel: 'docking',
        kind: 'alarm',
        target: p.url,
        dedupe_key: `alarm:${a.id}:${a.status}`,
        payload: { type: 'alarm', alarm: a },
      },
    ];
  });
}

async function commentDeliveries(q: Queryable, ids: number[]): Promise<NewDelivery[]> {
  const rows = await commentReceivers(q, ids);
  return rows.map((r) => ({
    docking_id: r.docking_id,
    user_id: r.user_id,
    channel: 'docking',
    kind: 'comment',
    target: r.url,
    dedupe_key: `comment:${r.comment_id}`,
    payload: { type: 'comment', comment: r.comment },
  }));
}
