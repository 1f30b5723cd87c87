import {
  FORMULA_VARS,
  PERMISSION,
  RULE_DEVICE_KINDS,
  compileFormula,
  formulaInputs,
  has,
  type CompiledFormula,
} from '@se/core';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import type { StoredReport } from '../../ingest/pipeline.ts';
import { dispatchRuleHit, type RuleHit } from '../notify/dispatch.ts';
import {
  activeRules,
  claimRuleStates,
  devicesOfToilets,
  devicesUnderPaths,
  enabledRules,
  insertRuleHits,
  latestOfDevices,
  lockRuleStates,
  setHitDispatchError,
  upsertRuleStates,
  visiblePairs,
  type RuleRecord,
  type StateRow,
} from './engine-repo.ts';

export interface RuleEngineOptions {
  /** Reports waiting for evaluation beyond this are dropped (and counted). */
  maxQueue: number;
  /** Reports evaluated per round (one transaction). */
  maxBatch: number;
  /** Re-reads which devices each rule covers (bindings change without telling us). */
  reloadMs: number;
}

export const DEFAULT_RULE_ENGINE: RuleEngineOptions = {
  maxQueue: 100_000,
  maxBatch: 5_000,
  reloadMs: 60_000,
};

const VAR_SET = new Set<string>(FORMULA_VARS);
const engines = new WeakMap<AppContext, RuleEngine>();

/** The engine of an app (tests wait on it; the rules service tells it about changes). */
export function ruleEngineOf(ctx: AppContext): RuleEngine | undefined {
  return engines.get(ctx);
}

/**
 * Evaluates formula rules against committed reports, after the commit and off the ingest
 * path: `enqueue` only appends to a bounded queue (dropping, with a count, when full); a
 * worker takes rounds of reports and does one transaction per round.
 *
 * Which rules cover which device is an in-memory index, rebuilt when rules change and every
 * `reloadMs`; everything that decides a fire is read fresh inside the round's transaction:
 * the rule row (formula, duration, cool-down, enabled), the (rule, device) state rows (locked
 * FOR UPDATE, so copies of the server sharing one database never fire twice; a pair without
 * a row is first claimed with a placeholder row, so its first hit is not fired by two copies
 * either), and, for the pairs about to fire, whether the owner still sees the device.
 *
 * Duration: the formula must hold on every report from `true_since` until a report at least
 * `duration_s` later (report times, not arrival times). Cool-down: after a fire, no other
 * fire of the rule for that device until `cooldown_s` has passed; while the condition keeps
 * holding, it fires again once the cool-down is over. A false or unknown result resets
 * `true_since`. A report not newer than the last one evaluated for the pair is ignored.
 *
 * Counting rules (`min_count` > 1, e.g. reviews of at most 2 stars): each report the formula
 * holds on counts, a report it does not hold on neither counts nor resets; the rule fires
 * when `min_count` reports within `window_s` counted (and the cool-down is over), and the
 * count starts afresh. Reviews come in as evaluation terminals' reports like any other.
 */
export class RuleEngine {
  private queue: StoredReport[] = [];
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private loading: Promise<void> | null = null;
  private stale = true;
  /** device id → rule ids covering it; `everywhere`: rules of owners who see every device. */
  private byDevice = new Map<number, number[]>();
  private everywhere: number[] = [];
  private compiled = new Map<string, CompiledFormula | null>();
  private lastDropLog = 0;
  /** (rule, device) pairs known to have a state row (rows are never deleted): no claim needed. */
  private claimed = new Set<string>();
  readonly stats = { evaluated: 0, fired: 0, dropped: 0, rounds: 0, dispatchFailed: 0 };

  constructor(
    private ctx: AppContext,
    private opts: RuleEngineOptions = DEFAULT_RULE_ENGINE,
  ) {
    engines.set(ctx, this);
  }

  start() {
    void this.reload();
    this.timer = setInterval(() => this.invalidate(), this.opts.reloadMs);
    this.timer.unref();
    return this;
  }

  /** Rules or bindings changed: rebuild the index before the next round. */
  invalidate() {
    this.stale = true;
    void this.reload();
  }

  /** Called after each ingest commit; never blocks and never throws. */
  enqueue(reports: StoredReport[]) {
    if (this.closed) return;
    let room = this.opts.maxQueue - this.queue.length;
    for (const r of reports) {
      if (!this.relevant(r)) continue;
      if (room <= 0) {
        this.stats.dropped++;
        continue;
      }
      this.queue.push(r);
      room--;
    }
    if (room <= 0) this.logDrops();
    if (this.queue.length && !this.running) this.running = this.drain();
  }

  /** Resolves when every queued report has been evaluated (tests, shutdown). */
  async idle() {
    while (this.running || this.loading) {
      await this.running;
      await this.loading;
    }
  }

  async stop() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
  }

  /** Whether a report may matter: it carries a formula variable and some rule covers it. */
  private relevant(r: StoredReport) {
    if (!(RULE_DEVICE_KINDS as readonly string[]).includes(r.kind)) return false;
    let any = false;
    for (const k in r.data) {
      if (VAR_SET.has(k)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
    // Until the index is built everything counts; the round filters again.
    return this.stale || this.everywhere.length > 0 || this.byDevice.has(r.device_id);
  }

  private logDrops() {
    const now = Date.now();
    if (now - this.lastDropLog < 10_000) return;
    this.lastDropLog = now;
    this.ctx.log.warn(
      { dropped: this.stats.dropped, queued: this.queue.length },
      'rule engine overloaded: reports dropped without evaluation',
    );
  }

  private reload(): Promise<void> {
    if (this.loading) return this.loading.then(() => (this.stale ? this.reload() : undefined));
    this.stale = false;
    this.loading = this.buildIndex()
      .catch((err) => {
        this.stale = true;
        this.ctx.log.warn({ err }, 'rule index reload failed');
      })
      .finally(() => (this.loading = null));
    return this.loading;
  }

  private async buildIndex() {
    const db = this.ctx.db;
    const rules = await activeRules(db);
    const byDevice = new Map<number, number[]>();
    const add = (device: number, rule: number) => {
      const l = byDevice.get(device);
      if (l) l.push(rule);
      else byDevice.set(device, [rule]);
    };
    const everywhere: number[] = [];
    const allByPath = new Map<string, number[]>();
    const toiletRules = new Map<number, number[]>();
    for (const r of rules) {
      if (r.scope === 'devices') for (const d of r.device_ids) add(d, r.id);
      else if (r.scope === 'toilets')
        for (const t of r.toilet_ids) toiletRules.set(t, [...(toiletRules.get(t) ?? []), r.id]);
      else if (has(r.permissions, PERMISSION.develop)) everywhere.push(r.id);
      else allByPath.set(r.path, [...(allByPath.get(r.path) ?? []), r.id]);
    }
    if (allByPath.size) {
      const rows = await devicesUnderPaths(db, [...allByPath.keys()]);
      for (const row of rows) for (const rule of allByPath.get(row.path) ?? []) add(row.id, rule);
    }
    if (toiletRules.size) {
      const rows = await devicesOfToilets(db, [...toiletRules.keys()]);
      for (const row of rows) for (const rule of toiletRules.get(row.toilet) ?? []) add(row.id, rule);
    }
    for (const [d, l] of byDevice) byDevice.set(d, [...new Set(l)]);
    this.byDevice = byDevice;
    this.everywhere = everywhere;
  }

  private async drain() {
    try {
      while (this.queue.length) {
        if (this.stale || this.loading) await this.reload();
        const round = this.queue.splice(0, this.opts.maxBatch);
        try {
          await this.round(round);
        } catch (err) {
          this.ctx.log.error({ err, reports: round.length }, 'rule evaluation failed');
        }
      }
    } finally {
      this.running = null;
    }
  }

  private formula(text: string) {
    let c = this.compiled.get(text);
    if (c === undefined) {
      try {
        c = compileFormula(text);
      } catch {
        c = null; // Stored formulas were checked; one that no longer parses never fires.
      }
      if (this.compiled.size > 10_000) this.compiled.clear();
      this.compiled.set(text, c);
    }
    return c;
  }

  /** One round: evaluate, persist state and hits in one transaction, then dispatch. */
  private async round(reports: StoredReport[]) {
    this.stats.rounds++;
    const perDevice = new Map<number, { rules: number[]; reports: StoredReport[] }>();
    for (const r of reports) {
      const rules = [...(this.byDevice.get(r.device_id) ?? []), ...this.everywhere];
      if (!rules.length) continue;
      let e = perDevice.get(r.device_id);
      if (!e) perDevice.set(r.device_id, (e = { rules: [...new Set(rules)], reports: [] }));
      e.reports.push(r);
    }
    if (!perDevice.size) return;
    const ruleIds = [...new Set([...perDevice.values()].flatMap((e) => e.rules))];
    const claims: string[] = [];
    const hits = await this.ctx.db.transaction((tx) => this.evaluate(tx, perDevice, ruleIds, claims));
    // Committed: these pairs have their row now (a failed round only claims them again).
    if (this.claimed.size + claims.length > 1_000_000) this.claimed.clear();
    for (const k of claims) this.claimed.add(k);
    if (hits.length) this.announce(hits.map((h) => h.hit));
    for (const { hit, id } of hits) {
      try {
        await dispatchRuleHit(this.ctx, hit);
      } catch (err) {
        this.stats.dispatchFailed++;
        this.ctx.log.warn({ err, rule: hit.rule_id, device: hit.device_id }, 'rule hit dispatch failed');
        await setHitDispatchError(
          this.ctx.db,
          id,
          String((err as Error)?.message ?? err).slice(0, 500),
        ).catch(() => {});
      }
    }
  }

  /** Tells the owners' open rule lists (/ws 'rules') which rules fired, once per rule. */
  private announce(hits: RuleHit[]) {
    const per = new Map<number, { user_id: number; id: number; fired_at: number; hits: number }>();
    for (const h of hits) {
      const p = per.get(h.rule_id);
      if (p) {
        p.hits++;
        p.fired_at = Math.max(p.fired_at, h.time);
      } else per.set(h.rule_id, { user_id: h.user_id, id: h.rule_id, fired_at: h.time, hits: 1 });
    }
    this.ctx.events.emit('rule-hits', [...per.values()]);
  }

  /** Claims the pairs not known to have a state row, before any of them is locked; answers their keys. */
  private async claim(tx: Queryable, ruleIds: number[], deviceIds: number[]) {
    const rules: number[] = [];
    const devices: number[] = [];
    const keys: string[] = [];
    ruleIds.forEach((r, i) => {
      const key = `${r}|${deviceIds[i]}`;
      if (this.claimed.has(key)) return;
      rules.push(r);
      devices.push(deviceIds[i]!);
      keys.push(key);
    });
    if (rules.length) await claimRuleStates(tx, rules, devices);
    return keys;
  }

  private async evaluate(
    tx: Queryable,
    perDevice: Map<number, { rules: number[]; reports: StoredReport[] }>,
    ruleIds: number[],
    claims: string[],
  ): Promise<{ hit: RuleHit; id: number }[]> {
    const rules = new Map((await enabledRules(tx, ruleIds)).map((r) => [r.id, r]));
    if (!rules.size) return [];
    const pairRules: number[] = [];
    const pairDevices: number[] = [];
    for (const [device, e] of perDevice) {
      e.rules = e.rules.filter((r) => rules.has(r));
      for (const r of e.rules) {
        pairRules.push(r);
        pairDevices.push(device);
      }
    }
    if (!pairRules.length) return [];
    claims.push(...(await this.claim(tx, pairRules, pairDevices)));
    const stateRows = await lockRuleStates(tx, pairRules, pairDevices);
    // A placeholder (claimed, never evaluated) is a pair without state.
    const states = new Map(
      stateRows.filter((s) => s.last_ts !== -Infinity).map((s) => [`${s.rule_id}|${s.device_id}`, s]),
    );
    // Readings to start from where a pair has no state yet: the device's merged latest values.
    const fresh = [...new Set(pairDevices.filter((d, i) => !states.has(`${pairRules[i]}|${d}`)))];
    const latest = new Map(
      fresh.length
        ? (await latestOfDevices(tx, fresh)).map((r) => [r.id, formulaInputs(r.latest ?? {})])
        : [],
    );

    const changed: StateRow[] = [];
    const fires: {
      rule: RuleRecord;
      state: StateRow;
      ts: number;
      values: Record<string, number | boolean>;
    }[] = [];
    for (const [device, e] of perDevice) {
      const reports = e.reports.sort((a, b) => a.ts - b.ts);
      for (const ruleId of e.rules) {
        const rule = rules.get(ruleId)!;
        const f = this.formula(rule.formula);
        if (!f) continue;
        const key = `${ruleId}|${device}`;
        const state: StateRow = states.get(key) ?? {
          rule_id: ruleId,
          device_id: device,
          last_ts: -Infinity,
          true_since: null,
          last_fired_at: null,
          last_values: { ...latest.get(device) },
          recent_true: [],
        };
        let dirty = false;
        for (const r of reports) {
          if (r.ts <= state.last_ts) continue;
          const values = { ...state.last_values, ...formulaInputs(r.data) };
          const result = f.test(values);
          this.stats.evaluated++;
          state.last_ts = r.ts;
          state.last_values = values;
          dirty = true;
          if (result !== true) {
            state.true_since = null;
            continue;
          }
          state.true_since ??= r.ts;
          const cooled = state.last_fired_at === null || r.ts - state.last_fired_at >= rule.cooldown_s * 1000;
          let held: boolean;
          if (rule.min_count > 1) {
            const from = r.ts - rule.window_s * 1000;
            state.recent_true = [...(state.recent_true ?? []).filter((t) => t > from), r.ts].slice(
              -rule.min_count,
            );
            held = state.recent_true.length >= rule.min_count;
          } else held = r.ts - state.true_since >= rule.duration_s * 1000;
          if (held && cooled) {
            state.last_fired_at = r.ts;
            state.recent_true = [];
            fires.push({ rule, state, ts: r.ts, values });
          }
        }
        if (dirty) changed.push(state);
      }
    }

    const hits: { hit: RuleHit; id: number }[] = [];
    if (fires.length) {
      // At fire time: does the owner (still there) still see the device? Plus what the hit carries.
      const checked = await visiblePairs(
        tx,
        fires.map((f) => f.rule.user_id),
        fires.map((f) => f.state.device_id),
      );
      const ok = new Map(checked.map((c) => [`${c.owner}|${c.device}`, c]));
      const kept = fires.filter((f) => ok.has(`${f.rule.user_id}|${f.state.device_id}`));
      // A pair that may not fire keeps its previous cool-down.
      for (const f of fires)
        if (!ok.has(`${f.rule.user_id}|${f.state.device_id}`)) {
          const prev = states.get(`${f.rule.id}|${f.state.device_id}`);
          f.state.last_fired_at = prev?.last_fired_at ?? null;
        }
      if (kept.length) {
        const ids = await insertRuleHits(
          tx,
          kept.map((f) => f.rule.id),
          kept.map((f) => f.state.device_id),
          kept.map((f) => f.rule.formula),
          kept.map((f) => JSON.stringify(f.values)),
          kept.map((f) => new Date(f.ts).toISOString()),
        );
        kept.forEach((f, i) => {
          const d = ok.get(`${f.rule.user_id}|${f.state.device_id}`)!;
          hits.push({
            id: Number(ids[i]!.id),
            hit: {
              rule_id: f.rule.id,
              user_id: f.rule.user_id,
              template_id: f.rule.template_id,
              object_ids: f.rule.object_ids,
              device_id: d.device,
              ser_num: d.ser_num,
              desc: d.desc,
              toilet_id: d.toilet_id,
              formula: f.rule.formula,
              values: f.values,
              time: f.ts,
            },
          });
        });
        this.stats.fired += kept.length;
      }
    }

    if (changed.length) {
      const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
      await upsertRuleStates(
        tx,
        changed.map((s) => s.rule_id),
        changed.map((s) => s.device_id),
        changed.map((s) => iso(s.last_ts)),
        changed.map((s) => iso(s.true_since)),
        changed.map((s) => iso(s.last_fired_at)),
        changed.map((s) => JSON.stringify(s.last_values)),
        changed.map((s) => JSON.stringify(s.recent_true ?? [])),
      );
    }
    return hits;
  }
}
