import { campusRightOf } from '@se/core';
import { useSession } from '../../session/store.ts';

/** What the signed-in account may do in its organisation's campus (the server checks again). */
export function useCampusRight() {
  const right = campusRightOf(useSession((s) => s.permission));
  return { right, canEdit: right === 'edit' || right === 'manage', canManage: right === 'manage' };
}
