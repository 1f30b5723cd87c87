import {
  MAX_MESSAGE_BYTES,
  REPORT_DATA,
  deviceMessage,
  toMillis,
  type DeviceMessage,
  type ReportKind,
} from '@se/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../db/index.ts';
import type { DeviceRef } from './directory.ts';
import {
  IngestPlan,
  type IngestHandler,
  type IngestOut,
  type NewComment,
  type StoredReport,
} from './handler.ts';
import { INGEST_HANDLERS } from './handlers/index.ts';
import { addBadMessages, insertTelemetry, mergeLatest, settleCommands, touchDevices } from './repo.ts';

export type { IngestHandler, NewComment, StoredReport };

export type Outcome = { ok: true; duplicate: boolean } | { ok: false; error: string };

interface Pending {
  device: DeviceRef;
  msg: DeviceMessage;
  tsMs: number;
  data: Record<string, unknown>;
  resolve: (o: Outcome) => void;
  reject: (e: Error) => void;
}

export interface PipelineOptions {
  /** Flush when this many messages wait… */
  maxBatch: number;
  /** …or this long after the first one arrived. */
  maxDelayMs: number;
  /** Beyond this many queued messages, submitters wait: back-pressure, not growth. */
  maxQueue: number;
}

export const DEFAULT_PIPELINE: PipelineOptions = { maxBatch: 2000, maxDelayMs: 10, maxQueue: 20_000 };

const DAY = 86_400_000;
const TOO_LARGE = `消息过大：单条消息最多 ${MAX_MESSAGE_BYTES / 1024} KB`;
const EARLIEST = Date.UTC(2000, 0, 1);

export interface Committed extends IngestOut {
  stored: StoredReport[];
}

/**
 * One ingest pipeline for MQTT and HTTP: validate → queue → one transaction per batch
 * (history, latest state, the kinds' handler steps, command replies) → answer every
 * submitter after the commit. What each kind adds is an `IngestHandler` (`handler.ts`).
 * A submit's promise resolving is the moment a QoS1 PUBACK or an HTTP 200 may go out.
 */
export class IngestPipeline {
  private queue: Pending[] = [];
  private waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;
  readonly stats = { accepted: 0, duplicates: 0, rejected: 0, batches: 0, maxQueued: 0 };

  /** Messages waiting for a batch now. */
  get queued() {
    return this.queue.length;
  }
  /** Called after each commit with what it stored and the alarms it changed (live push). */
  onCommitted: (c: Committed) => void = () => {};

  private plan: IngestPlan;

  constructor(
    private db: Db,
    private log: FastifyBaseLogger,
    private opts: PipelineOptions = DEFAULT_PIPELINE,
    /** The kinds' steps; tests pass their own, the server the registered list. */
    handlers: readonly IngestHandler[] = INGEST_HANDLERS,
  ) {
    this.plan = new IngestPlan(handlers, Object.keys(REPORT_DATA));
  }

  /** Parses a raw payload (MQTT body or one HTTP message) and submits it. */
  async submitRaw(device: DeviceRef, raw: unknown): Promise<Outcome> {
    let value = raw;
    const isRaw = Buffer.isBuffer(raw) || typeof raw === 'string';
    if (isRaw) {
      // Checked before parsing: an external broker delivers whatever size it allows.
      if (Buffer.byteLength(raw) > MAX_MESSAGE_BYTES) return this.reject(device, TOO_LARGE);
      try {
        value = JSON.parse(raw.toString());
      } catch {
        return this.reject(device, '消息不是有效的 JSON');
      }
    }
    const json = JSON.stringify(value ?? null);
    // One message of an HTTP batch, measured as compact JSON.
    if (!isRaw && Buffer.byteLength(json) > MAX_MESSAGE_BYTES) return this.reject(device, TOO_LARGE);
    // PostgreSQL cannot store NUL in text or jsonb: such a message would fail its whole batch.
    if (json.includes('\\u0000')) return this.reject(device, '消息包含非法字符');
    const m = deviceMessage.safeParse(value);
    if (!m.success)
      return this.reject(device, `消息格式不正确：${m.error.issues[0]?.path.join('.') || '类型'}`);
    return this.submit(device, m.data);
  }

  async submit(device: DeviceRef, msg: DeviceMessage): Promise<Outcome> {
    const tsMs = toMillis(msg.ts);
    if (tsMs < EARLIEST || tsMs > Date.now() + DAY) return this.reject(device, '设备时间戳超出合理范围');
    let data: Record<string, unknown> = {};
    if (msg.type === 'report') {
      const schema = REPORT_DATA[device.kind as ReportKind];
      if (!schema) return this.reject(device, '该类设备不上报数据');
      const r = schema.safeParse(msg.data);
      if (!r.success) return this.reject(device, `数据字段 ${r.error.issues[0]?.path.join('.')} 不正确`);
      data = r.data as Record<string, unknown>;
      const checks = this.plan.validators.get(device.kind);
      if (checks)
        for (const check of checks) {
          const error = check(data, device);
          if (error !== undefined) return this.reject(device, error);
        }
    }
    if (this.closed) throw new Error('ingest pipeline closed');
    while (this.queue.length >= this.opts.maxQueue) await new Promise<void>((r) => this.waiting.push(r));
    return new Promise<Outcome>((resolve, reject) => {
      this.queue.push({ device, msg, tsMs, data, resolve, reject });
      if (this.queue.length > this.stats.maxQueued) this.stats.maxQueued = this.queue.length;
      if (this.queue.length >= this.opts.maxBatch) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.opts.maxDelayMs);
    });
  }

  private badCounts = new Map<number, number>();
  private lastLog = new Map<number, number>();

  /** Counts and logs (at most once a minute per device) a message that cannot be stored. */
  private reject(device: DeviceRef, error: string): Outcome {
    this.stats.rejected++;
    this.badCounts.set(device.id, (this.badCounts.get(device.id) ?? 0) + 1);
    const now = Date.now();
    if (now - (this.lastLog.get(device.id) ?? 0) > 60_000) {
      this.lastLog.set(device.id, now);
      this.log.warn({ device: device.ser_num, error }, 'rejected device message');
    }
    this.timer ??= setTimeout(() => void this.flush(), this.opts.maxDelayMs);
    return { ok: false, error };
  }

  /** Writes everything queued; one flush at a time, later arrivals form the next batch. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.flushing) return this.flushing.then(() => (this.queue.length ? this.flush() : undefined));
    const batch = this.queue.splice(0, this.opts.maxBatch);
    const bad = this.badCounts;
    this.badCounts = new Map();
    for (const w of this.waiting.splice(0, batch.length)) w();
    if (batch.length === 0 && bad.size === 0) return;
    this.flushing = this.write(batch, bad).finally(() => {
      this.flushing = null;
      if (this.queue.length) void this.flush();
    });
    return this.flushing;
  }

  private async write(batch: Pending[], bad: Map<number, number>) {
    let stored: StoredReport[] = [];
    let out: IngestOut = { alarmIds: [], comments: [] };
    let dupes = new Set<Pending>();
    try {
      await this.db.transaction(async (tx) => {
        const r = await writeBatch(tx, this.plan, batch, bad);
        stored = r.stored;
        dupes = r.duplicates;
        out = r.out;
      });
    } catch (err) {
      if (isDataError(err)) {
        // One message the database refuses must not sink the others, nor come back forever:
        // retry one by one; the one that still fails is answered as a bad message.
        if (batch.length > 1 || (batch.length === 1 && bad.size)) {
          for (const p of batch) await this.write([p], new Map());
          if (bad.size) await this.write([], bad);
          return;
        }
        if (batch.length === 0) {
          this.log.warn({ err }, 'bad-message counters not stored');
          return;
        }
        this.log.warn({ err, device: batch[0]!.device.ser_num }, 'device message refused by the database');
        this.stats.rejected++;
        batch[0]!.resolve({ ok: false, error: '数据无法保存' });
        return;
      }
      this.log.error({ err }, 'ingest batch failed');
      for (const p of batch) p.reject(err as Error);
      return;
    }
    this.stats.batches++;
    for (const p of batch) {
      const duplicate = dupes.has(p);
      if (duplicate) this.stats.duplicates++;
      else this.stats.accepted++;
      p.resolve({ ok: true, duplicate });
    }
    if (stored.length || out.alarmIds.length) {
      try {
        this.onCommitted({ stored, alarmIds: out.alarmIds, comments: out.comments });
      } catch (err) {
        this.log.error({ err }, 'onCommitted failed');
      }
    }
  }

  /** Stops taking messages and writes what is queued. */
  async close() {
    this.closed = true;
    while (this.queue.length || this.flushing || this.timer) await this.flush();
  }
}

/**
 * One batch in one transaction: the steps every kind shares (dedupe by message id, history,
 * latest state), then the registered handlers' steps (`IngestPlan.run`), then command
 * replies and bad-message counts.
 */
async function writeBatch(tx: Queryable, plan: IngestPlan, batch: Pending[], bad: Map<number, number>) {
  const reports = batch.filter((p) => p.msg.type === 'report');
  const duplicates = new Set<Pending>();
  const stored: StoredReport[] = [];
  // A fresh object per attempt: a rolled-back attempt's ids must not reach onCommitted.
  const out: IngestOut = { alarmIds: [], comments: [] };
  if (reports.length) {
    const inserted = await insertTelemetry(
      tx,
      reports.map((p) => p.device.id),
      reports.map((p) => new Date(p.tsMs).toISOString()),
      reports.map((p) => p.msg.id),
      reports.map((p) => JSON.stringify(p.data)),
    );
    const fresh = new Set(inserted.map((r) => `${r.device_id}|${r.msg_id}|${new Date(r.ts).getTime()}`));
    // Within one batch the same message may appear twice; only the first counts as new.
    const taken = new Set<string>();
    for (const p of reports) {
      const key = `${p.device.id}|${p.msg.id}|${p.tsMs}`;
      if (!fresh.has(key) || taken.has(key)) duplicates.add(p);
      else {
        taken.add(key);
        stored.push({
          device_id: p.device.id,
          kind: p.device.kind,
          industrial_type: p.device.industrial_type ?? null,
          ts: p.tsMs,
          data: p.data,
        });
      }
    }
    // Latest state: merge each device's new reports in time order.
    const latest = new Map<number, { ts: number; data: Record<string, unknown> }>();
    for (const s of [...stored].sort((a, b) => a.ts - b.ts)) {
      const cur = latest.get(s.device_id);
      latest.set(s.device_id, { ts: s.ts, data: { ...cur?.data, ...s.data } });
    }
    if (latest.size) {
      const ids = [...latest.keys()];
      await mergeLatest(
        tx,
        ids,
        ids.map((id) => new Date(latest.get(id)!.ts).toISOString()),
        ids.map((id) => JSON.stringify(latest.get(id)!.data)),
      );
    }
    await plan.run(tx, stored, out);
  }
  const replies = batch.filter((p) => p.msg.type === 'reply');
  if (replies.length) {
    await settleCommands(
      tx,
      replies.map((p) => (p.msg as Extract<DeviceMessage, { type: 'reply' }>).command_id),
      replies.map((p) => p.device.id),
      replies.map((p) => (p.msg as Extract<DeviceMessage, { type: 'reply' }>).ok),
      replies.map((p) => (p.msg as Extract<DeviceMessage, { type: 'reply' }>).result),
    );
    // A reply is also a sign of life.
    await touchDevices(tx, [...new Set(replies.map((p) => p.device.id))]);
  }
  if (bad.size) {
    await addBadMessages(tx, [...bad.keys()], [...bad.values()]);
  }
  return { stored, duplicates, out };
}

/** SQLSTATE classes 22 (data exception) and 23 (integrity): the data, not the database, is wrong. */
function isDataError(err: unknown) {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}
