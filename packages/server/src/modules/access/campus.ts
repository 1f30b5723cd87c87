/**
 * Who may see or change an organisation's campus (issue 15, SPEC §6 campus roles). Every
 * campus account belongs to one organisation (users.org_id) and acts only inside it:
 *
 * - read: ssVisitor (128): the structure, placements, figures, the data centre.
 * - edit: ssUser (256): also a room's details and acknowledging alarms.
 * - manage: ssManager (512): the organisation, buildings, rooms and placement.
 *
 * ssSuperSaled (1920) manages the organisations whose manager is an account of its subtree
 * (it creates them and their managers); develop manages every organisation. Those two name
 * the organisation (`org_id`), defaulting to their own. An organisation the caller may not
 * act in answers exactly like one that does not exist.
 */
import { PERMISSION, campusRightOf, has, type CampusRight } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import type { Params } from '../../db/sql.ts';
import { accountSeesDevice } from './campus-repo.ts';
import { assertOrgSeen, orgScopeOf } from './orgs.ts';
import { deviceSeenByAccount } from './visible-repo.ts';

const LEVEL: Record<CampusRight, number> = { read: 1, edit: 2, manage: 3 };

export interface CampusScope {
  orgId: number;
  right: CampusRight;
  /** The organisation's manager: placement offers the devices bound to it. */
  managerId: number | null;
}

const isPlatform = (caller: Caller) =>
  has(caller.permission, PERMISSION.develop) || has(caller.permission, PERMISSION.ssSuperSaled);

/**
 * The organisation a campus request acts in and the caller's right there. `orgId` is the
 * one the request names (only develop and ssSuperSaled may name another than their own,
 * among those access/orgs.ts says they see).
 */
export async function campusScope(ctx: AppContext, caller: Caller, orgId?: number): Promise<CampusScope> {
  const { orgId: own } = await orgScopeOf(ctx, caller);
  if (isPlatform(caller)) {
    const id = orgId ?? own;
    if (id === null) throw badRequest('请选择组织');
    const org = await assertOrgSeen(ctx, caller, id, own);
    return { orgId: org.id, right: 'manage', managerId: org.user_id };
  }
  const right = campusRightOf(caller.permission);
  if (!right) throw forbidden('没有智慧园区的权限');
  if (own === null) throw forbidden('该账号不属于任何组织');
  if (orgId !== undefined && orgId !== own) throw notFound('组织不存在');
  const org = await assertOrgSeen(ctx, caller, own, own);
  return { orgId: own, right, managerId: org.user_id };
}

const WHAT: Record<CampusRight, string> = {
  read: '查看智慧园区',
  edit: '只有园区用户及以上角色可以执行此操作',
  manage: '只有园区管理员可以执行此操作',
};

/** The scope, once the caller holds at least `need` in it (403 otherwise). */
export async function campusRight(
  ctx: AppContext,
  caller: Caller,
  need: CampusRight,
  orgId?: number,
): Promise<CampusScope> {
  const s = await campusScope(ctx, caller, orgId);
  if (LEVEL[s.right] < LEVEL[need]) throw forbidden(WHAT[need]);
  return s;
}

/**
 * Refuses unless device `id` is one the organisation's manager sees (bindings of issue
 * "devices"): placement never reaches another tenant's devices. Unknown and unseen devices
 * answer alike.
 */
export async function assertPlaceable(ctx: AppContext, s: CampusScope, deviceId: number) {
  if (s.managerId === null || !(await accountSeesDevice(ctx.db, s.managerId, deviceId))) {
    throw notFound('设备不存在');
  }
}

/** The SQL condition "device `col` is one the organisation's manager sees" (lists). */
export function placeableCondition(w: Params, s: CampusScope, col = 'd.id') {
  if (s.managerId === null) return 'false';
  return deviceSeenByAccount(col, `${w.p(s.managerId)}::int`);
}
