/**
 * Courier orders (issue 18): an account's own rows (modules/owned). A linked work order must
 * be one the caller sees, a device shipped one the caller sees, and a company's tracking
 * number is used once.
 */
import { trackingNoError, type AddExpressBody, type ExpressItem } from '@se/core';
import type { z } from 'zod';
import type { expressQuery, updateExpressBody } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { assertDeviceRight } from '../access/devices.ts';
import { deviceBySerial } from '../maintenance/repo.ts';
import { assertRecordSeen } from '../maintenance/service.ts';
import { sameValue } from '../audit/mutate.ts';
import { owned } from '../owned/service.ts';
import * as repo from './repo.ts';

const orders = owned({
  missing: '快递单不存在',
  hidden: true,
  action: 'express.order',
  entity: 'express_order',
  table: repo.ORDERS,
  find: repo.findOrder,
  list: repo.listOrders,
});

/** Every device item names a device the caller sees (by serial number). */
async function checkItems(ctx: AppContext, caller: Caller, items: ExpressItem[]) {
  for (const it of items) {
    if (!it.ser_num) continue;
    const d = await deviceBySerial(ctx.db, it.ser_num);
    const missing = notFound(`序列号 ${it.ser_num} 的设备不存在`);
    if (!d) throw missing;
    await assertDeviceRight(ctx, caller, 'device', d.id, 'read', { what: '发货' }).catch(() => {
      throw missing;
    });
  }
}

async function checkTracking(ctx: AppContext, company: string, trackingNo: string, exceptId?: number) {
  if (await repo.trackingTaken(ctx.db, company, trackingNo, exceptId))
    throw conflict(`快递单号 ${trackingNo} 已登记`);
}

export function list(ctx: AppContext, caller: Caller, q: z.output<typeof expressQuery>) {
  const { company, status, record_id } = q;
  return orders.list(ctx, caller, q, { company, status, record_id });
}

export async function add(ctx: AppContext, caller: Caller, b: AddExpressBody, ip: string) {
  if (b.record_id !== undefined) await assertRecordSeen(ctx, caller, b.record_id);
  await checkItems(ctx, caller, b.items);
  await checkTracking(ctx, b.company, b.tracking_no);
  const row = await orders.add(ctx, caller, ip, undefined, (userId) => ({
    insert: (tx) => repo.insertOrder(tx, { ...b, user_id: userId, record_id: b.record_id ?? null }),
    after: b,
  }));
  return strip(row);
}

export async function update(
  ctx: AppContext,
  caller: Caller,
  b: z.output<typeof updateExpressBody>,
  ip: string,
) {
  const { row } = await orders.edit(ctx, caller, ip, b.id, async (r) => {
    const { id, ...patch } = b;
    void id;
    if (patch.record_id !== undefined && patch.record_id !== r.record_id)
      await assertRecordSeen(ctx, caller, patch.record_id);
    if (patch.items) await checkItems(ctx, caller, patch.items);
    const company = patch.company ?? r.company;
    const trackingNo = patch.tracking_no ?? r.tracking_no;
    if (patch.company !== undefined || patch.tracking_no !== undefined) {
      const err = trackingNoError(company, trackingNo);
      if (err) throw badRequest(err);
      if (!patch.is_delete) await checkTracking(ctx, company, trackingNo, r.id);
    }
    // jsonb travels as text (a JS array would be sent as a PostgreSQL array); unchanged stays out.
    const items = patch.items && !sameValue(patch.items, r.items) ? JSON.stringify(patch.items) : undefined;
    return { ...patch, items };
  });
  return strip(row);
}

const strip = ({ user_id, is_delete, ...rest }: repo.ExpressRecord) => {
  void user_id;
  void is_delete;
  return rest;
};
