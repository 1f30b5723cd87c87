/**
 * A per-account owned row: a notification recipient, a message template, a docking
 * interface. Each belongs to one account (`user_id`), is listed per owner with a keyword and
 * paging, is added for oneself or for a user one manages, and is edited or soft-deleted
 * through the audited-mutation helper. Who may touch it is asked of modules/access. An
 * area configures `owned()` with its repository and keeps only what is its own (checks of
 * the values, what goes with a change).
 */
import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { pageWindow } from '../../db/sql.ts';
import type { Patchable } from '../../db/update.ts';
import { create, mutate, type Mutated, type Mutation } from '../audit/mutate.ts';
import { managedRow, managedUserId, seenRow } from '../access/users.ts';

export interface OwnedRow {
  id: number;
  user_id: number;
  is_delete: boolean;
}

/** What the service hands the repository's list: the owner, the keyword, the page. */
export interface OwnedFilter {
  userId: number;
  keywords?: string;
  limit: number;
  offset: number;
}

/** A list request: a manager may name a user whose rows to list (default the caller's). */
export interface OwnedQuery {
  target_user_id?: number;
  keywords?: string;
  page: number;
  page_size: number;
}

export interface OwnedEntity<R extends OwnedRow, L, F extends OwnedFilter> {
  /** The answer when the row is missing, deleted or not the caller's to manage. */
  missing: string;
  /**
   * Another tenant's row answers 404 with `missing` (as devices, toilets and records do)
   * rather than 403. Courier orders; the older owned areas still answer 403.
   */
  hidden?: boolean;
  /** Audit: `<action>.add`, `<action>.update`, `<action>.delete` on `entity`. */
  action: string;
  entity: string;
  /** What a patch may set (the repository's Patchable). */
  table: Patchable<string>;
  find: (q: Queryable, id: number) => Promise<R | undefined>;
  list: (q: Queryable, f: F) => Promise<{ list: L[]; total: number }>;
}

/** What an add writes: the insert in the transaction and the audit entry's `after`. */
export interface OwnedInsert {
  insert: (tx: Queryable) => Promise<number>;
  after: object;
}

export function owned<R extends OwnedRow, L, F extends OwnedFilter>(e: OwnedEntity<R, L, F>) {
  /** The row, if the caller manages its owner; anything else is "not found" / refused. */
  const load = async (ctx: AppContext, caller: Caller, id: number): Promise<R> =>
    (e.hidden ? seenRow : managedRow)(ctx, caller, await e.find(ctx.db, id), e.missing);

  return {
    load,

    /** One page of an owner's live rows; `filter` is the area's own filters. */
    async list(ctx: AppContext, caller: Caller, q: OwnedQuery, filter: Omit<F, keyof OwnedFilter>) {
      const userId = await managedUserId(ctx, caller, q.target_user_id);
      const r = await e.list(ctx.db, {
        ...filter,
        userId,
        keywords: q.keywords || undefined,
        ...pageWindow(q),
      } as F);
      return { ...r, page: q.page, page_size: q.page_size };
    },

    /**
     * Adds a row for `targetUserId` (default the caller) once the caller may manage that
     * user; `values` checks what the owner may use and says what to insert. Answers the new row.
     */
    async add(
      ctx: AppContext,
      caller: Caller,
      ip: string,
      targetUserId: number | undefined,
      values: (userId: number) => OwnedInsert | Promise<OwnedInsert>,
    ): Promise<R> {
      const userId = await managedUserId(ctx, caller, targetUserId);
      const v = await values(userId);
      const id = await create(ctx, caller, ip, {
        insert: v.insert,
        audit: { action: `${e.action}.add`, entity: e.entity, targetUserId: userId },
        after: v.after,
      });
      return load(ctx, caller, id);
    },

    /**
     * Edits or soft-deletes row `id` (once `load` lets the caller at it) by the patch `patch`
     * makes of it: `patch` checks what the owner may use and refuses what may not change.
     * Answers the change and the row as the caller sees it now (a deleted row as it was,
     * flagged deleted).
     */
    async edit<P extends { is_delete?: boolean }>(
      ctx: AppContext,
      caller: Caller,
      ip: string,
      id: number,
      patch: (row: R) => P | Promise<P>,
      more?: NoInfer<Pick<Mutation<R, P>, 'secret' | 'check' | 'write'>>,
    ): Promise<{ change: Mutated<R, P>; row: R }> {
      const row = await load(ctx, caller, id);
      const p = await patch(row);
      const change = await mutate(ctx, caller, ip, {
        ...more,
        row,
        patch: p,
        table: e.table,
        audit: {
          action: `${e.action}.${p.is_delete ? 'delete' : 'update'}`,
          entity: e.entity,
          entityId: row.id,
          targetUserId: row.user_id,
        },
      });
      return { change, row: p.is_delete ? { ...row, is_delete: true } : await load(ctx, caller, row.id) };
    },
  };
}
