/**
 * Who works in which organisation's attendance (issue 16): an account works inside the
 * organisation of its users.org_id (an attendance account, role 32), or, without one, the
 * organisation it manages (organisations.user_id). Every attendance call reads and writes
 * that organisation's rows only; an id of another organisation answers as a missing one.
 */
import type { AppContext, Caller } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import { workOrgOf, type WorkOrg } from '../attendance/repo.ts';

export const NO_ORG = '您的账号未加入任何组织，请联系管理员设置所属组织';

export async function attendanceOrgOf(ctx: AppContext, caller: Caller): Promise<WorkOrg> {
  const org = await workOrgOf(ctx.db, caller.id);
  if (!org) throw forbidden(NO_ORG);
  return org;
}
