import type { AppContext, Caller } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import { orgScopeOf } from '../access/orgs.ts';

/**
 * The organisation an attendance account works in (users.org_id, from modules/access): every
 * read and write of schemes, holidays and records is inside it, so another organisation's
 * ids answer 不存在.
 */
export async function attendanceOrg(ctx: AppContext, caller: Caller): Promise<number> {
  const { orgId } = await orgScopeOf(ctx, caller);
  if (!orgId) throw forbidden('当前账号未加入任何组织');
  return orgId;
}
