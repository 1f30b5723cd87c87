/**
 * The organisation page (/smart-org): its people read it, its manager edits it. Who acts in
 * which organisation is asked of modules/access (campusRight).
 */
import { ORG_LOGO_MAX_BYTES, PERMISSION, has, type addOrgBody, type updateOrgBody } from '@se/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NOT_AN_IMAGE, replaceStoredImage } from '../files/stored-image.ts';
import { sendStored } from '../files/send.ts';
import type { z } from 'zod';
import type { AppContext, Caller } from '../../context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
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

/**
 * The manager's new logo: checked by its bytes and re-encoded (sharp), so nothing active in
 * the upload survives; SVG is refused. Stored through the file-storage module (local or S3).
 */
export async function uploadLogo(ctx: AppContext, caller: Caller, id: number, body: unknown, ip: string) {
  if (!Buffer.isBuffer(body)) throw badRequest(NOT_AN_IMAGE);
  const s = await campusRight(ctx, caller, 'manage', id);
  const org = await repo.findOrg(ctx.db, s.orgId);
  if (!org || org.is_delete) throw notFound('组织不存在');
  const limits = { maxBytes: ORG_LOGO_MAX_BYTES, maxSide: 512 };
  return replaceStoredImage(
    ctx,
    body,
    { keyBase: `org/${org.id}/logo`, old: org.logo, limits },
    async (key) => {
      const done = await mutate(ctx, caller, ip, {
        row: org,
        patch: { logo: key },
        table: repo.ORGS,
        audit: { action: 'org.logo', entity: 'organisation', entityId: org.id, targetUserId: null },
      });
      return done.row;
    },
  );
}

export async function sendLogo(
  ctx: AppContext,
  caller: Caller,
  id: number,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const org = await getOrg(ctx, caller, id);
  if (!org.logo) throw notFound('该组织还没有标志');
  await sendStored(ctx, req, reply, org.logo, { filename: 'logo.webp', inline: true });
}
