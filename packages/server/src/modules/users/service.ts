import type { UpdateInfoBody, UserInfo } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { notFound } from '../../errors.ts';
import * as repo from './repo.ts';
import { mutate } from '../audit/mutate.ts';
import { duplicateAsConflict } from '../auth/service.ts';
import { assertCanManage } from '../access/users.ts';

export async function getInfo(ctx: AppContext, caller: Caller, userId = caller.id): Promise<UserInfo> {
  await assertCanManage(ctx, caller, userId);
  const r = await repo.getInfo(ctx.db, userId);
  if (!r || (r.user_deleted && userId !== caller.id)) throw notFound('用户不存在');
  // SPEC §3: empty strings when nothing valid is stored.
  const valid = r.id !== null && !r.is_delete;
  const company = {
    company_name: valid ? (r.company_name ?? '') : '',
    company_address: valid ? (r.company_address ?? '') : '',
  };
  return {
    id: r.id ?? 0,
    is_delete: r.is_delete ?? false,
    ...company,
    info: company,
    user_name: r.user_name,
    phone_num: r.phone_num,
    email: r.email ?? '',
    pending_email: r.pending_email ?? '',
  };
}

export async function updateInfo(
  ctx: AppContext,
  caller: Caller,
  b: UpdateInfoBody,
  ip = '',
): Promise<UserInfo> {
  let userId = b.user_id ?? caller.id;
  if (b.id !== undefined && b.user_id === undefined) {
    // The spec's form sends the info row's id; find whose row it is.
    const owner = await repo.infoOwner(ctx.db, b.id);
    if (owner === undefined) throw notFound('用户信息不存在');
    userId = owner;
  }
  await assertCanManage(ctx, caller, userId);
  const exists = await repo.getInfo(ctx.db, userId);
  if (!exists || exists.user_deleted) throw notFound('用户不存在');
  await mutate(ctx, caller, ip, {
    row: {
      company_name: exists.company_name ?? '',
      company_address: exists.company_address ?? '',
      phone_num: exists.phone_num,
      is_delete: exists.is_delete ?? false,
    },
    patch: {
      company_name: b.company_name,
      company_address: b.company_address,
      phone_num: b.phone_num,
      is_delete: b.is_delete,
    },
    write: async (tx) => {
      await repo.upsertInfo(tx, userId, b);
      // Only a changed phone is claimed again: an old collision must not block other edits.
      if (b.phone_num !== undefined && b.phone_num !== exists.phone_num) {
        await repo.setPhone(tx, userId, b.phone_num);
      }
    },
    audit: { action: 'info.update', entity: 'user_info', entityId: exists.id, targetUserId: userId },
  }).catch((err: unknown) => {
    throw duplicateAsConflict(err);
  });
  return getInfo(ctx, caller, userId);
}
