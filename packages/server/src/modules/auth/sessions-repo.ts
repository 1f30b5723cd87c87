import type { Queryable } from '../../db/index.ts';

// Sessions' SQL; the store in sessions.ts keeps the cache in front of it.

export async function insertSession(
  q: Queryable,
  userId: number,
  tokenHash: string,
  ttlMs: number,
  ip: string,
  userAgent: string,
) {
  await q.query(
    `INSERT INTO sessions (user_id, token_hash, expires_at, ip, user_agent)
       VALUES ($1, $2, now() + $3 * interval '1 millisecond', $4, $5)`,
    [userId, tokenHash, ttlMs, ip, userAgent],
  );
}

/** The session with its user's name, rights and deletion flag. */
export async function findSessionByHash(q: Queryable, hash: string) {
  const rows = await q.query<{
    id: number;
    user_id: number;
    user_name: string;
    permissions: number;
    expires_at: Date;
    revoked_at: Date | null;
    is_delete: boolean;
  }>(
    `SELECT s.id, s.user_id, u.user_name, u.permissions, s.expires_at, s.revoked_at, u.is_delete
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1`,
    [hash],
  );
  return rows[0];
}

export async function revokeSession(q: Queryable, sessionId: number, reason: string) {
  await q.query(`UPDATE sessions SET revoked_at = now(), revoked_reason = $2 WHERE id = $1`, [
    sessionId,
    reason,
  ]);
}

/** Revokes a user's live sessions except `exceptSessionId` (0: none). */
export async function revokeUserSessions(
  q: Queryable,
  userId: number,
  reason: string,
  exceptSessionId: number,
) {
  await q.query(
    `UPDATE sessions SET revoked_at = now(), revoked_reason = $2
        WHERE user_id = $1 AND revoked_at IS NULL AND id <> $3`,
    [userId, reason, exceptSessionId],
  );
}
