import type { Queryable } from '../../db/index.ts';

export interface OutboxRow {
  id: number;
  to_addr: string;
  subject: string;
  body: string;
  created_at: string;
  sent_at: string | null;
  error: string | null;
}

// Times are shown in the product's zone, UTC+8 (SPEC §5).
const local = (col: string) =>
  `to_char((${col} AT TIME ZONE 'UTC') + interval '8 hours', 'YYYY-MM-DD HH24:MI:SS')`;

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
