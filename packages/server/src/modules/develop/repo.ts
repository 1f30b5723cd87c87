import type { Queryable } from '../../db/index.ts';
import { localTime as local } from '../../db/sql.ts';

export interface OutboxRow {
  id: number;
  to_addr: string;
  subject: string;
  body: string;
  created_at: string;
  sent_at: string | null;
  error: string | null;
}

export async function listOutbox(q: Queryable, to: string | null, limit: number, offset: number) {
  const [list, count] = await Promise.all([
    q.query<OutboxRow>(
      `SELECT id, to_addr, subject, body, ${local('created_at')} AS created_at, ${local('sent_at')} AS sent_at, error
         FROM outbox WHERE ($1::text IS NULL OR to_addr = $1)
        ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [to, limit, offset],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE ($1::text IS NULL OR to_addr = $1)`, [
      to,
    ]),
  ]);
  return { list, total: count[0]!.n };
}
