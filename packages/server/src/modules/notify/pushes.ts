import { PERMISSION } from '@se/core';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { StoredReport } from '../../ingest/pipeline.ts';
import { LOCAL_REPORTS } from '../../realtime/bus.ts';
import { alarmsByIds } from '../live/repo.ts';
import { insertDeliveries, type NewDelivery } from './repo.ts';

/** Reports held between flushes at most; beyond it the oldest are dropped (and logged). */
const MAX_BUFFER = 20_000;

/** Whether the interface's owner `o` sees device `d` (develop sees all; a sensor: its gateway). */
const OWNER_SEES_DEVICE = `((o.permissions & ${PERMISSION.develop}) = ${PERMISSION.develop} OR EXISTS (
  SELECT 1 FROM device_bindings b JOIN users u ON u.id = b.user_id
   WHERE b.device_id = CASE WHEN d.kind = 'sensor' THEN d.gateway_id ELSE d.id END
     AND u.path LIKE o.path || '%'))`;

const LIVE_INTERFACE = `NOT di.is_delete AND NOT o.is_delete`;

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
    const r = await this.ctx.db.query<{ yes: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM docking_interfaces WHERE push_reports AND NOT is_delete) AS yes`,
    );
    this.wantReports = r[0]!.yes;
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

interface Receiver {
  docking_id: number;
  user_id: number;
  name: string;
  url: string;
}

async function reportDeliveries(q: Queryable, reports: StoredReport[]): Promise<NewDelivery[]> {
  const deviceIds = [...new Set(reports.map((r) => r.device_id))];
  const pairs = await q.query<Receiver & { device_id: number; ser_num: string }>(
    `SELECT di.id AS docking_id, di.user_id, di.name, di.url, d.id AS device_id, d.ser_num
       FROM docking_interfaces di JOIN users o ON o.id = di.user_id
       JOIN devices d ON d.id = ANY($1::int[]) AND NOT d.is_delete
      WHERE di.push_reports AND ${LIVE_INTERFACE} AND ${OWNER_SEES_DEVICE}`,
    [deviceIds],
  );
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
  const pairs = await q.query<Receiver & { alarm_id: number }>(
    `SELECT di.id AS docking_id, di.user_id, di.name, di.url, a.id AS alarm_id
       FROM alarms a JOIN devices d ON d.id = a.device_id
       JOIN docking_interfaces di ON di.push_alarms JOIN users o ON o.id = di.user_id
      WHERE a.id = ANY($1::bigint[]) AND ${LIVE_INTERFACE} AND ${OWNER_SEES_DEVICE}`,
    [ids],
  );
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
  const rows = await q.query<
    Receiver & {
      comment: Record<string, unknown>;
      comment_id: number;
    }
  >(
    `SELECT di.id AS docking_id, di.user_id, di.name, di.url, c.id AS comment_id,
            jsonb_build_object('id', c.id, 'toilet_id', c.toilet_id, 'toilet_name', t.name,
              'equipment_id', c.equipment_id, 'ser_num', e.ser_num, 'star_level', c.star_level,
              'content', c.content, 'sex', c.sex, 'badattitude', c.badattitude, 'inefficiency', c.inefficiency,
              'poorsanitary', c.poorsanitary, 'smelly', c.smelly, 'source', c.source,
              'created_at', (extract(epoch FROM c.created_at) * 1000)::float8) AS comment
       FROM comments c LEFT JOIN toilets t ON t.id = c.toilet_id LEFT JOIN devices e ON e.id = c.equipment_id
       JOIN docking_interfaces di ON di.push_comments JOIN users o ON o.id = di.user_id
      WHERE c.id = ANY($1::bigint[]) AND NOT c.is_delete AND ${LIVE_INTERFACE}
        AND ((o.permissions & ${PERMISSION.develop}) = ${PERMISSION.develop}
          OR EXISTS (SELECT 1 FROM toilet_bindings b JOIN users u ON u.id = b.user_id
                      WHERE b.toilet_id = c.toilet_id AND u.path LIKE o.path || '%')
          OR EXISTS (SELECT 1 FROM device_bindings b JOIN users u ON u.id = b.user_id
                      WHERE b.device_id = c.equipment_id AND u.path LIKE o.path || '%'))`,
    [ids],
  );
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
