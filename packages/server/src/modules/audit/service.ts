import type { AppContext, Caller } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { pageWindow } from '../../db/sql.ts';
import { insertAudit, listAudit, type AuditRecord } from './repo.ts';
import { assertCanManage, scopeOf } from '../access/users.ts';

/** Records a change inside the transaction that makes it: no change without its entry. */
export function audit(q: Queryable, a: AuditRecord) {
  return insertAudit(q, a);
}

export async function list(
  ctx: AppContext,
  caller: Caller,
  f: {
    target_user_id?: number;
    actor_id?: number;
    start?: string;
    end?: string;
    page: number;
    page_size: number;
  },
) {
  if (f.target_user_id !== undefined) await assertCanManage(ctx, caller, f.target_user_id);
  const scope = await scopeOf(ctx, caller);
  const r = await listAudit(ctx.db, {
    scope,
    callerId: caller.id,
    targetUserId: f.target_user_id,
    actorId: f.actor_id,
    start: f.start,
    end: f.end,
    ...pageWindow(f),
  });
  return { ...r, page: f.page, page_size: f.page_size };
}
