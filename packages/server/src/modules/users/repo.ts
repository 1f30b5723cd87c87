import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';

/** True when `id` is `ancestorId` itself or one of the users it created, at any depth. */
export async function isSelfOrDescendant(q: Queryable, ancestorId: number, id: number): Promise<boolean> {
  if (ancestorId === id) return true;
  const r = await first<{ ok: boolean }>(
    q,
    `WITH RECURSIVE up AS (
       SELECT id, parent_id, 0 AS depth FROM users WHERE id = $2
       UNION ALL
       SELECT u.id, u.parent_id, up.depth + 1 FROM users u JOIN up ON u.id = up.parent_id WHERE up.depth < 64)
     SELECT EXISTS (SELECT 1 FROM up WHERE id = $1) AS ok`,
    [ancestorId, id],
  );
  return r?.ok ?? false;
}

export interface InfoRow {
  id: number | null;
  is_delete: boolean | null;
  company_name: string | null;
  company_address: string | null;
  user_name: string;
  phone_num: string;
  user_deleted: boolean;
}

export function getInfo(q: Queryable, userId: number) {
  return first<InfoRow>(
    q,
    `SELECT i.id, i.is_delete, i.company_name, i.company_address, u.user_name, u.phone_num,
            u.is_delete AS user_deleted
       FROM users u LEFT JOIN user_info i ON i.user_id = u.id
      WHERE u.id = $1`,
    [userId],
  );
}

export async function upsertInfo(
  q: Queryable,
  userId: number,
  v: { company_name?: string; company_address?: string; is_delete?: boolean },
) {
  await q.query(
    `INSERT INTO user_info (user_id, company_name, company_address, is_delete)
     VALUES ($1, coalesce($2, ''), coalesce($3, ''), coalesce($4, false))
     ON CONFLICT (user_id) DO UPDATE SET
       company_name = coalesce($2, user_info.company_name),
       company_address = coalesce($3, user_info.company_address),
       is_delete = coalesce($4, user_info.is_delete),
       updated_at = now()`,
    [userId, v.company_name ?? null, v.company_address ?? null, v.is_delete ?? null],
  );
}

export function setPhone(q: Queryable, userId: number, phone: string) {
  return q.query(`UPDATE users SET phone_num = $2, updated_at = now() WHERE id = $1`, [userId, phone]);
}
