import type { Queryable } from '../db/index.ts';

// The outbox's SQL: every mail is recorded before it is sent.

export async function insertOutbox(q: Queryable, to: string, subject: string, body: string) {
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO outbox (to_addr, subject, body) VALUES ($1, $2, $3) RETURNING id`,
    [to, subject, body],
  );
  return row!.id;
}

export function markOutboxSent(q: Queryable, id: number) {
  return q.query(`UPDATE outbox SET sent_at = now() WHERE id = $1`, [id]);
}

export function markOutboxError(q: Queryable, id: number, error: string) {
  return q.query(`UPDATE outbox SET error = $2 WHERE id = $1`, [id, error]);
}
