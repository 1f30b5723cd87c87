/**
 * Who works in which organisation's attendance (issue 16): an account works inside the
 * organisation of its users.org_id (an attendance account, role 32), or, without one, the
 * organisation it manages (organisations.user_id). Every attendance call reads and writes
 * that organisation's rows only; an id of another organisation answers as a missing one.
 * Null: the account has none yet (the attendance service founds one on first use).
 */
import type { AppContext, Caller } from '../../context.ts';
import { workOrgOf, type WorkOrg } from '../attendance/repo.ts';

export function attendanceOrgOf(ctx: AppContext, caller: Caller): Promise<WorkOrg | null> {
  return workOrgOf(ctx.db, caller.id).then((o) => o ?? null);
}
