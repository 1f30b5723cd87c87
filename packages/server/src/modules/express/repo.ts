/** Every statement of courier orders (issue 18). */
import type { ExpressItem, ExpressRow } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, likeSql, localTime, selectPage } from '../../db/sql.ts';
import type { Patchable } from '../../db/update.ts';

const ROW = `x.id, x.company, x.tracking_no, x.sender_name, x.sender_phone, x.sender_address,
  x.receiver_name, x.receiver_phone, x.receiver_address, x.items, x.record_id,
  CASE WHEN x.record_id IS NULL THEN '' ELSE 'WX' || lpad(x.record_id::text, 6, '0') END AS record_no,
  x.status, x.note, u.user_name, ${localTime('x.created_at')} AS created_at`;
const FROM = 'express_orders x JOIN users u ON u.id = x.user_id';

export type ExpressRecord = ExpressRow & { user_id: number; is_delete: boolean };

export function findOrder(q: Queryable, id: number) {
  return first<ExpressRecord>(q, `SELECT ${ROW}, x.user_id, x.is_delete FROM ${FROM} WHERE x.id = $1`, [id]);
}

export function listOrders(
  q: Queryable,
  f: {
    userId: number;
    keywords?: string;
    company?: string;
    status?: number;
    record_id?: number;
    limit: number;
    offset: number;
  },
) {
  const w = new Params();
  const cond = ['NOT x.is_delete', `x.user_id = ${w.p(f.userId)}`];
  if (f.company) cond.push(`x.company = ${w.p(f.company)}`);
  if (f.status !== undefined) cond.push(`x.status = ${w.p(f.status)}`);
  if (f.record_id !== undefined) cond.push(`x.record_id = ${w.p(f.record_id)}`);
  if (f.keywords)
    cond.push(
      likeSql(
        w,
        ['x.tracking_no', 'x.receiver_name', 'x.receiver_address', 'x.sender_name', 'x.items::text'],
        f.keywords,
      ),
    );
  const where = cond.join(' AND ');
  return selectPage<ExpressRow>(q, w, f, {
    list: (page) => `SELECT ${ROW} FROM ${FROM} WHERE ${where} ORDER BY x.id DESC ${page}`,
    where,
    countFrom: 'express_orders x',
  });
}

export interface NewOrder {
  user_id: number;
  company: string;
  tracking_no: string;
  sender_name: string;
  sender_phone: string;
  sender_address: string;
  receiver_name: string;
  receiver_phone: string;
  receiver_address: string;
  items: ExpressItem[];
  record_id: number | null;
  status: number;
  note: string;
}

export async function insertOrder(q: Queryable, v: NewOrder) {
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO express_orders (user_id, company, tracking_no, sender_name, sender_phone, sender_address,
        receiver_name, receiver_phone, receiver_address, items, record_id, status, note)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13) RETURNING id`,
    [
      v.user_id,
      v.company,
      v.tracking_no,
      v.sender_name,
      v.sender_phone,
      v.sender_address,
      v.receiver_name,
      v.receiver_phone,
      v.receiver_address,
      JSON.stringify(v.items),
      v.record_id,
      v.status,
      v.note,
    ],
  );
  return r!.id;
}

export const ORDERS: Patchable<
  | 'company'
  | 'tracking_no'
  | 'sender_name'
  | 'sender_phone'
  | 'sender_address'
  | 'receiver_name'
  | 'receiver_phone'
  | 'receiver_address'
  | 'items'
  | 'record_id'
  | 'status'
  | 'note'
  | 'is_delete'
> = {
  table: 'express_orders',
  columns: [
    'company',
    'tracking_no',
    'sender_name',
    'sender_phone',
    'sender_address',
    'receiver_name',
    'receiver_phone',
    'receiver_address',
    'items',
    'record_id',
    'status',
    'note',
    'is_delete',
  ],
  expr: { items: (p) => `${p}::jsonb` },
};

/** Whether a live order with this company and number exists (other than `exceptId`). */
export async function trackingTaken(q: Queryable, company: string, trackingNo: string, exceptId = 0) {
  const r = await first<{ id: number }>(
    q,
    'SELECT id FROM express_orders WHERE company = $1 AND tracking_no = $2 AND NOT is_delete AND id <> $3',
    [company, trackingNo, exceptId],
  );
  return r !== undefined;
}

/** The shipments of a work order (shown in its detail). */
export function shipmentsOf(q: Queryable, recordId: number) {
  return q.query<{ id: number; company: string; tracking_no: string; status: number; created_at: string }>(
    `SELECT x.id, x.company, x.tracking_no, x.status, ${localTime('x.created_at')} AS created_at
       FROM express_orders x WHERE x.record_id = $1 AND NOT x.is_delete ORDER BY x.id`,
    [recordId],
  );
}
