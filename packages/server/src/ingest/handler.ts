import type { ReportKind } from '@se/core';
import type { Queryable } from '../db/index.ts';
import type { DeviceRef } from './directory.ts';

/** A report the batch stored (not a duplicate), after its kind's schema parsed it. */
export interface StoredReport {
  device_id: number;
  kind: string;
  /** The device's industrial type (DeviceRef.industrial_type): an industrial gas monitor when set. */
  industrial_type?: string | null;
  ts: number;
  data: Record<string, unknown>;
}

export interface NewComment {
  id: number;
  toilet_id: number | null;
  equipment_id: number | null;
}

/** What a batch's steps hand to the work after commit (`IngestPipeline.onCommitted`). */
export interface IngestOut {
  /** Alarms opened or closed (the /ws 'alarms' channel, inbox, docking pushes). */
  alarmIds: number[];
  /** Reviews that evaluation terminals' ratings became (the /ws 'comments' channel). */
  comments: NewComment[];
}

/**
 * One step of a batch. `reports` are the batch's stored reports of the handler's kinds
 * (all of them for `kinds: 'all'`), in arrival order; never empty. A step writes with one
 * statement per batch (arrays as parameters), never one per report, and runs inside the
 * batch's transaction: if it throws, nothing of the batch is committed. A data error
 * (SQLSTATE 22/23) makes the pipeline retry the batch message by message and answer the
 * one that still fails as refused; any other error fails every submitter of the batch.
 */
export type IngestStep = (tx: Queryable, reports: StoredReport[], out: IngestOut) => Promise<void>;

/**
 * What a device kind adds to ingest. The pipeline runs, in the batch's one transaction:
 * dedupe by message id, history append, latest state (common to every kind); then every
 * handler's `store`, then every `derive`, then every `alarm`, each phase in the order of
 * `INGEST_HANDLERS` (`handlers/index.ts`); then command replies and bad-message counts.
 */
export interface IngestHandler {
  /** For logs and tests. */
  name: string;
  kinds: readonly ReportKind[] | 'all';
  /**
   * Checks one report's parsed data beyond its kind's schema (`REPORT_DATA` in core), at
   * submit, before it is queued: answers the refusal (Chinese, shown to the installer) or
   * undefined. Must not allocate for a valid report: it runs on every message.
   */
  validate?(data: Record<string, unknown>, device: DeviceRef): string | undefined;
  /** Writes the kind's own rows (a table of its own) from its reports. */
  store?: IngestStep;
  /** Derived figures: rollups, comments, counters, anything read from stored rows. */
  derive?: IngestStep;
  /** Alarm transitions, after everything else of the batch is written. */
  alarm?: IngestStep;
}

export const INGEST_PHASES = ['store', 'derive', 'alarm'] as const;
export type IngestPhase = (typeof INGEST_PHASES)[number];

/** One phase's step with the kinds it wants, resolved once when a pipeline is built. */
interface PlannedStep {
  kinds: ReadonlySet<string> | null;
  run: IngestStep;
}

/**
 * The handlers laid out for the hot path: steps in run order and validators per kind,
 * so a batch does no lookups by name and a message costs one map read at most.
 */
export class IngestPlan {
  readonly steps: PlannedStep[] = [];
  readonly validators = new Map<string, NonNullable<IngestHandler['validate']>[]>();

  constructor(handlers: readonly IngestHandler[], allKinds: readonly string[]) {
    // A handler listed twice runs its steps twice in a batch: alarms opened and closed again.
    const names = handlers.map((h) => h.name);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) throw new Error(`ingest handler ${twice} is listed twice`);
    for (const phase of INGEST_PHASES)
      for (const h of handlers) {
        const run = h[phase];
        if (run) this.steps.push({ kinds: h.kinds === 'all' ? null : new Set(h.kinds), run: run.bind(h) });
      }
    for (const h of handlers) {
      if (!h.validate) continue;
      for (const k of h.kinds === 'all' ? allKinds : h.kinds) {
        const list = this.validators.get(k) ?? [];
        list.push(h.validate.bind(h));
        this.validators.set(k, list);
      }
    }
  }

  /** Runs every step over the batch's stored reports, each with its kinds' reports only. */
  async run(tx: Queryable, stored: StoredReport[], out: IngestOut) {
    for (const s of this.steps) {
      const mine = s.kinds ? stored.filter((r) => s.kinds!.has(r.kind)) : stored;
      if (mine.length) await s.run(tx, mine, out);
    }
  }
}
