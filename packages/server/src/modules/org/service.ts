/**
 * The organisation page (/smart-org): its people read it, its manager edits it. Who acts in
 * which organisation is asked of modules/access (campusRight).
 */
import type { updateOrgBody } from '@se/core';
import type { z } from 'zod';
import type { AppContext, Caller } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { campusRight } from '../access/campus.ts';
import { mutate } from '../audit/mutate.ts';
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
