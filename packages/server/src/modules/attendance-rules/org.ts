import type { AppContext, Caller } from '../../context.ts';
import { attendanceOrgOf } from '../access/attendance.ts';

/**
 * The organisation an attendance account works in (modules/access): every read and write of
 * schemes, holidays and records is inside it, so another organisation's ids answer 不存在.
 */
export async function attendanceOrg(ctx: AppContext, caller: Caller): Promise<number> {
  return (await attendanceOrgOf(ctx, caller)).id;
}
