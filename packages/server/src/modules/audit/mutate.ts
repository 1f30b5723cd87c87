import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { updateRow, type Patchable } from '../../db/update.ts';
import { insertAudit } from './repo.ts';

/** Deep equality of stored values: arrays, dates and JSON objects by value. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]))
    );
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => k in b && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

export interface Diff<P> {
  /** The fields that change, as they were. */
  before: Partial<Record<keyof P, unknown>>;
  /** The fields that change, as they become: what the write sets. */
  after: Partial<P>;
  changed: boolean;
}

/** Only the fields of `patch` whose value differs from `row`'s (undefined = not changing). */
export function diff<P extends object>(row: object, patch: P): Diff<P> {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    const old = (row as Record<string, unknown>)[k];
    if (!sameValue(old, v)) {
      before[k] = old;
      after[k] = v;
    }
  }
  return { before, after, changed: Object.keys(after).length > 0 } as Diff<P>;
}

/** What an audit entry is about. */
export interface AuditTarget {
  action: string;
  entity: string;
  entityId: number | null;
  targetUserId: number | null;
}

export interface Mutation<R extends object, P extends object> {
  /** The row as it is, loaded through the area's access check (modules/access). */
  row: R;
  /** The new values; undefined = not changing. */
  patch: P;
  /** The row's table (a repository's `Patchable`): the changed fields are set on row `id`. */
  table?: Patchable<string>;
  /**
   * Writes what goes with the change in its transaction (after `table`'s update, if any).
   * Answering false means a conditional write found the row already changed: no entry.
   */
  write?: (tx: Queryable, set: Partial<P>, change: Diff<P>) => Promise<unknown>;
  /** The audit entry; the function form sees the change. */
  audit: AuditTarget | ((change: Diff<P>) => AuditTarget);
  /** Secrets: the entry says that one changed, not its value ('***'). */
  secret?: readonly (keyof P & string)[];
  /** Refusals that depend on what changes; runs (changed or not) before anything is written. */
  check?: (change: Diff<P>) => void | Promise<void>;
  /** Write and audit even when nothing changed (a save that also queues or mails). */
  always?: boolean;
}

export interface Mutated<R, P> extends Diff<P> {
  /** The row with the change applied. */
  row: R;
}

/**
 * The one update path: diffs `patch` against `row` by value and, when something changed,
 * writes it and its audit entry in one transaction (either both or neither). Nothing is
 * written and nothing audited when nothing changed (unless `always`).
 */
export async function mutate<R extends object, P extends object>(
  ctx: AppContext,
  caller: Caller,
  ip: string,
  m: Mutation<R, P>,
): Promise<Mutated<R, P>> {
  const change = diff(m.row, m.patch);
  await m.check?.(change);
  let written = false;
  if (change.changed || m.always) {
    const target = typeof m.audit === 'function' ? m.audit(change) : m.audit;
    written = await ctx.db.transaction(async (tx) => {
      if (m.table) await updateRow(tx, m.table, (m.row as { id?: unknown }).id, change.after);
      if ((await m.write?.(tx, change.after, change)) === false) return false;
      await insertAudit(tx, {
        actorId: caller.id,
        ...target,
        before: masked(change.before, m.secret),
        after: masked(change.after, m.secret),
        ip,
      });
      return true;
    });
  }
  if (!written) return { before: {}, after: {}, changed: false, row: m.row };
  return { ...change, row: { ...m.row, ...change.after } };
}

function masked(side: object, secret: readonly string[] = []) {
  const out: Record<string, unknown> = { ...side };
  for (const k of secret) if (k in out) out[k] = '***';
  return out;
}

export interface Creation {
  /** Inserts the row (and whatever goes with it) in the transaction; answers the new id. */
  insert: (tx: Queryable) => Promise<number>;
  /** The audit entry; its entity id is the new row's (the function form sees it too). */
  audit: Omit<AuditTarget, 'entityId'> | ((id: number) => Omit<AuditTarget, 'entityId'>);
  /** The entry's `after`: what the new row was given. */
  after: object;
}

/**
 * The one insert path: the new row and its audit entry (before: null) in one transaction
 * (either both or neither). Answers the new row's id.
 */
export function create(ctx: AppContext, caller: Caller, ip: string, c: Creation): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const id = await c.insert(tx);
    const target = typeof c.audit === 'function' ? c.audit(id) : c.audit;
    await insertAudit(tx, { actorId: caller.id, ...target, entityId: id, before: null, after: c.after, ip });
    return id;
  });
}
