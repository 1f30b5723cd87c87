import type { AppContext, Caller } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import { userOrg } from './repo.ts';

/**
 * The organisation an attendance account works in (users.org_id): every read and write of
 * schemes, holidays and records is inside it, so another organisation's ids answer 不存在.
 */
export async function attendanceOrg(ctx: AppContext, caller: Caller): Promise<number> {
  const r = await userOrg(ctx.db, caller.id);
  if (!r?.org_id) throw forbidden('当前账号未加入任何组织');
  return r.org_id;
}
