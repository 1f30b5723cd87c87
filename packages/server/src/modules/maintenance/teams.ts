/**
 * Maintenance teams (维修班组, issue 18). A plan's orders go "to the plan's team": a team has
 * a name, members among the accounts its creator manages (the creator included) and a lead
 * among them. The order a team plan opens goes to the lead (the one accountable: a fixed,
 * predictable owner rather than a load balance that moves orders about) and every member gets
 * an inbox message (plans.ts planSweep).
 *
 * Who sees and changes a team: its creator and the accounts above it (modules/access); anyone
 * else gets 404, as for a whole-type plan.
 */
import type { AddTeamBody, UpdateTeamBody } from '@se/core';
import type { z } from 'zod';
import type { teamsQuery } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { pageWindow } from '../../db/sql.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { scopeOf } from '../access/users.ts';
import { create, mutate } from '../audit/mutate.ts';
import * as teams from './teams-repo.ts';

const MISSING = '维修班组不存在';

/** A live team the caller sees (its creator or above); else 404. */
export async function visibleTeam(ctx: AppContext, caller: Caller, id: number) {
  const t = await teams.findTeam(ctx.db, id);
  if (!t || t.is_delete || !(await teams.teamVisible(ctx.db, id, await scopeOf(ctx, caller))))
    throw notFound(MISSING);
  return t;
}

/**
 * The members with the lead first, each once; all must be live accounts the team's owner
 * manages (itself or below it), whoever edits the team.
 */
async function checkedMembers(ctx: AppContext, ownerId: number, leadId: number, memberIds: number[]) {
  const members = [...new Set([leadId, ...memberIds])];
  if ((await teams.accountsUnderOwner(ctx.db, ownerId, members)) !== members.length)
    throw badRequest('班组成员只能是创建班组的账号或其下级账号');
  return members;
}

export async function listTeams(ctx: AppContext, caller: Caller, q: z.output<typeof teamsQuery>) {
  const scope = await scopeOf(ctx, caller);
  const r = await teams.listTeams(ctx.db, { scope, keywords: q.keywords || undefined, ...pageWindow(q) });
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function addTeam(ctx: AppContext, caller: Caller, b: AddTeamBody, ip: string) {
  const members = await checkedMembers(ctx, caller.id, b.lead_id, b.member_ids);
  const id = await create(ctx, caller, ip, {
    insert: (tx) =>
      teams.insertTeam(tx, { user_id: caller.id, name: b.name, lead_id: b.lead_id, members, note: b.note }),
    audit: { action: 'maintenance.team.add', entity: 'maintenance_team', targetUserId: caller.id },
    after: { ...b, member_ids: members },
  });
  return { id };
}

export async function updateTeam(ctx: AppContext, caller: Caller, b: UpdateTeamBody, ip: string) {
  const row = await visibleTeam(ctx, caller, b.id);
  const { id, member_ids, ...rest } = b;
  const patch: Partial<teams.StoredTeam> = { ...rest };
  if (rest.is_delete) {
    const n = await teams.plansOfTeam(ctx.db, id);
    if (n > 0) throw conflict(`该班组被 ${n} 个保养计划使用，不能删除`);
  } else if (member_ids !== undefined || rest.lead_id !== undefined) {
    const lead = rest.lead_id ?? row.lead_id;
    patch.members = await checkedMembers(
      ctx,
      row.user_id,
      lead,
      member_ids ?? row.members.filter((m) => m !== row.lead_id),
    );
  }
  await mutate(ctx, caller, ip, {
    row,
    patch,
    table: teams.TEAMS,
    audit: {
      action: `maintenance.team.${rest.is_delete ? 'delete' : 'update'}`,
      entity: 'maintenance_team',
      entityId: id,
      targetUserId: row.user_id,
    },
  });
  return { id };
}
