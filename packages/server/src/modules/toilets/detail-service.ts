import {
  TOILET_STATUS_LABELS,
  TOILET_STATUS,
  starAverageOrNull,
  type AddPartBody,
  type PlaceBody,
  type SetStatusBody,
  type ToiletDetail,
  type UpdateDocumentBody,
  type UpdatePartBody,
} from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { offset, pageWindow } from '../../db/sql.ts';
import { badRequest, notFound } from '../../errors.ts';
import { syncToiletAlarmFlagsOf } from '../../ingest/alarms.ts';
import { atLeast } from '../access/devices.ts';
import { assertToiletRight, toiletRight } from '../access/toilets.ts';
import { audit } from '../audit/service.ts';
import { create, mutate } from '../audit/mutate.ts';
import * as repo from './detail-repo.ts';
import { get as getToilet } from './service.ts';
import { scopeOf } from '../access/users.ts';

/** Recent reviews shown in the detail; the full list is /comment. */
const RECENT_COMMENTS = 10;

/**
 * Who may change a toilet's set-up (document, parts list, placement, display tokens): whoever
 * operates it (modules/access/toilets.ts: the user role and up, among those who see it). A
 * visitor-only account of the subtree (a cleaner) reads the detail and switches the
 * cleaning/repair flags and part states.
 */
export async function assertSetUp(ctx: AppContext, caller: Caller, toiletId: number, what: string) {
  await assertToiletRight(ctx, caller, toiletId, 'operate', { what });
}

export async function detail(ctx: AppContext, caller: Caller, id: number): Promise<ToiletDetail> {
  const toilet = await getToilet(ctx, caller, id);
  const access = await toiletRight(ctx, caller, id);
  const [document, parts, devices, comments] = await Promise.all([
    repo.findDocument(ctx.db, id),
    repo.listParts(ctx.db, id),
    repo.toiletDevices(ctx.db, id, toilet.gateway_id),
    repo.recentComments(ctx.db, id, RECENT_COMMENTS),
  ]);
  return {
    toilet,
    document,
    parts,
    ...devices,
    comments,
    star_average: starAverageOrNull(toilet.star_sum, toilet.star_count),
    can_manage: access !== null && atLeast(access.right, 'operate'),
  };
}

export async function updateDocument(ctx: AppContext, caller: Caller, b: UpdateDocumentBody, ip: string) {
  await assertSetUp(ctx, caller, b.toilet_id, '修改厕所信息');
  const { toilet_id, ...fields } = b;
  const before = await repo.findDocument(ctx.db, toilet_id);
  await mutate(ctx, caller, ip, {
    row: before,
    patch: fields,
    // The first save creates the document, even with the defaults.
    always: before.id === null,
    write: (tx) => repo.upsertDocument(tx, toilet_id, fields),
    audit: { action: 'toilet.document', entity: 'toilet', entityId: toilet_id, targetUserId: null },
  });
  return repo.findDocument(ctx.db, toilet_id);
}

export async function addPart(ctx: AppContext, caller: Caller, b: AddPartBody, ip: string) {
  await assertSetUp(ctx, caller, b.toilet_id, '添加部件');
  const id = await create(ctx, caller, ip, {
    insert: (tx) => repo.insertPart(tx, b),
    audit: { action: 'toilet.part.add', entity: 'toilet_part', targetUserId: null },
    after: b,
  });
  return (await repo.findPart(ctx.db, id))!;
}

/** The part if the caller sees its toilet. */
async function visiblePart(ctx: AppContext, caller: Caller, id: number) {
  const part = await repo.findPart(ctx.db, id);
  if (!part || part.is_delete) throw notFound('部件不存在');
  try {
    await getToilet(ctx, caller, part.toilet_id);
  } catch {
    // Same answer as an unknown id: no hint that the part exists elsewhere.
    throw notFound('部件不存在');
  }
  return part;
}

export async function updatePart(ctx: AppContext, caller: Caller, b: UpdatePartBody, ip: string) {
  const part = await visiblePart(ctx, caller, b.id);
  const { id, ...fields } = b;
  // Reporting a fault (state and note) is everyday work; changing the list is set-up.
  if (fields.is_delete || fields.type !== undefined || fields.name !== undefined) {
    await assertSetUp(ctx, caller, part.toilet_id, fields.is_delete ? '删除部件' : '修改部件');
  }
  await mutate(ctx, caller, ip, {
    row: part,
    patch: fields,
    table: repo.PARTS,
    audit: {
      action: fields.is_delete ? 'toilet.part.delete' : 'toilet.part.update',
      entity: 'toilet_part',
      entityId: id,
      targetUserId: null,
    },
  });
  return fields.is_delete ? part : (await repo.findPart(ctx.db, id))!;
}

/**
 * Sets or clears cleaning (1) or repair (2) with a note. Alarm (4) is not an operator's:
 * the alarm engine sets it while an alarm of the toilet's gateway or sensors is open and
 * clears it when they close (acknowledging or fixing the alarm is how it goes away), so a
 * cleared flag cannot contradict an open alarm. The schema refuses flag 4.
 */
export async function setStatus(ctx: AppContext, caller: Caller, b: SetStatusBody, ip: string) {
  await getToilet(ctx, caller, b.id);
  await ctx.db.transaction(async (tx) => {
    const r = await repo.switchFlag(tx, b.id, b.flag, b.on);
    if (!r) throw notFound('厕所不存在');
    if (r.before === r.after) {
      const label = TOILET_STATUS_LABELS[b.flag === TOILET_STATUS.cleaning ? 'cleaning' : 'repair'];
      throw badRequest(b.on ? `已经是${label}` : `当前不是${label}`);
    }
    await repo.insertStatusLog(tx, [
      { toilet_id: b.id, flag: b.flag, on: b.on, note: b.note, user_id: caller.id },
    ]);
    await audit(tx, {
      actorId: caller.id,
      targetUserId: null,
      action: 'toilet.status',
      entity: 'toilet',
      entityId: b.id,
      before: { status: r.before },
      after: { status: r.after, note: b.note },
      ip,
    });
  });
  return getToilet(ctx, caller, b.id);
}

export async function statusLog(
  ctx: AppContext,
  caller: Caller,
  q: { toilet_id: number; page: number; page_size: number },
) {
  await getToilet(ctx, caller, q.toilet_id);
  const r = await repo.listStatusLog(ctx.db, q.toilet_id, q.page_size, offset(q.page, q.page_size));
  return { ...r, page: q.page, page_size: q.page_size };
}

export async function placeable(
  ctx: AppContext,
  caller: Caller,
  q: { toilet_id: number; kind: string; keywords?: string; page: number; page_size: number },
) {
  await getToilet(ctx, caller, q.toilet_id);
  const r = await repo.listPlaceable(ctx.db, {
    scope: await scopeOf(ctx, caller),
    toiletId: q.toilet_id,
    kind: q.kind,
    keywords: q.keywords || undefined,
    ...pageWindow(q),
  });
  return { ...r, page: q.page, page_size: q.page_size };
}

/**
 * Places devices in a toilet and takes others out, in one transaction, all or nothing. The
 * caller must see the toilet and every device; a device placed elsewhere moves here.
 */
export async function place(ctx: AppContext, caller: Caller, b: PlaceBody, ip: string) {
  await assertSetUp(ctx, caller, b.toilet_id, '放置设备');
  const overlap = b.add_ids.filter((id) => b.remove_ids.includes(id));
  if (overlap.length) throw badRequest(`设备 ${overlap.join('、')} 不能同时放入和移出`);
  const all = [...new Set([...b.add_ids, ...b.remove_ids])];
  if (!all.length) throw badRequest('请选择要放入或移出的设备');
  const scope = await scopeOf(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const visible = await repo.visiblePlaceable(tx, all, scope);
    const missing = all.filter((id) => !visible.has(id));
    if (missing.length) throw notFound(`设备 ${missing.join('、')} 不存在或无权操作`);
    await repo.placeDevices(tx, b.toilet_id, b.add_ids);
    await repo.unplaceDevices(tx, b.toilet_id, b.remove_ids);
    // The alarm flag follows the open alarms of what is in each toilet now.
    await syncToiletAlarmFlagsOf(tx, [
      b.toilet_id,
      ...b.add_ids.map((id) => visible.get(id)!.toilet_id).filter((t): t is number => t !== null),
    ]);
    await audit(tx, {
      actorId: caller.id,
      targetUserId: null,
      action: 'toilet.place',
      entity: 'toilet',
      entityId: b.toilet_id,
      before: { remove_ids: b.remove_ids },
      after: {
        add_ids: b.add_ids,
        moved_from: b.add_ids
          .map((id) => visible.get(id)!.toilet_id)
          .filter((t): t is number => t !== null && t !== b.toilet_id),
      },
      ip,
    });
  });
  return null;
}
