/**
 * The organisation page (/smart-org): its people read it, its manager edits it. Who acts in
 * which organisation is asked of modules/access (campusRight).
 */
import { PERMISSION, has, type addOrgBody, type updateOrgBody } from '@se/core';
import type { z } from 'zod';
import type { AppContext, Caller } from '../../context.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { managedUser } from '../access/users.ts';
import { campusRight } from '../access/campus.ts';
import { create, mutate } from '../audit/mutate.ts';
import * as repo from './repo.ts';

export async function getOrg(ctx: AppContext, caller: Caller, id?: number) {
  const s = await campusRight(ctx, caller, 'read', id);
  const org = await repo.findOrg(ctx.db, s.orgId);
  if (!org || org.is_delete) throw notFound('组织不存在');
  return org;
}

export async function updateOrg(
  ctx: AppContext,
  caller: Caller,
  body: z.infer<typeof updateOrgBody>,
  ip: string,
) {
  const { id, ...patch } = body;
  const s = await campusRight(ctx, caller, 'manage', id);
  const org = await repo.findOrg(ctx.db, s.orgId);
  if (!org || org.is_delete) throw notFound('组织不存在');
  const done = await mutate(ctx, caller, ip, {
    row: org,
    patch,
    table: repo.ORGS,
    audit: { action: 'org.update', entity: 'organisation', entityId: org.id, targetUserId: null },
  });
  return done.row;
}

/**
 * ssSuperSaled (and develop) creates an organisation for a manager account it administers
 * (SPEC §6: ssManager is assigned by ssSuperSaled); the manager joins it.
 */
export async function addOrg(ctx: AppContext, caller: Caller, body: z.infer<typeof addOrgBody>, ip: string) {
  if (!has(caller.permission, PERMISSION.develop) && !has(caller.permission, PERMISSION.ssSuperSaled)) {
    throw forbidden('只有园区后台管理员可以新增组织');
  }
  const manager = await managedUser(ctx, caller, body.user_id);
  if (!has(manager.permissions, PERMISSION.ssManager))
    throw conflict('该账号不是园区管理员，请先授予园区管理员角色');
  if ((await repo.accountOrgOf(ctx.db, manager.id)) !== null) throw conflict('该账号已属于一个组织');
  const id = await create(ctx, caller, ip, {
    insert: (tx) => repo.insertOrg(tx, { name: body.name, slogan: body.slogan, userId: manager.id }),
    audit: { action: 'org.add', entity: 'organisation', targetUserId: manager.id },
    after: body,
  });
  return (await repo.findOrg(ctx.db, id))!;
}
