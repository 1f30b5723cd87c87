import type { AppContext, Caller } from '../../context.ts';
import { orgOf } from '../attendance/service.ts';

/**
 * The organisation an attendance account works in (modules/access, founded on first use by
 * the attendance module): every read and write of schemes, holidays and records is inside
 * it, so another organisation's ids answer 不存在.
 */
export async function attendanceOrg(ctx: AppContext, caller: Caller): Promise<number> {
  return (await orgOf(ctx, caller)).org_id;
}
