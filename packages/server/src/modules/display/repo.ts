import type { DisplayTokenRow } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { localTime } from '../../db/sql.ts';
import { insertRow } from '../../db/update.ts';
import { CARD, type ToiletCardRow } from '../comments/repo.ts';

const ROW = `k.id, k.toilet_id, k.name, coalesce(u.user_name, '') AS created_by_name,
  ${localTime('k.created_at')} AS created_at,
  CASE WHEN k.last_seen_at IS NULL THEN NULL ELSE ${localTime('k.last_seen_at')} END AS last_seen_at,
  CASE WHEN k.revoked_at IS NULL THEN NULL ELSE ${localTime('k.revoked_at')} END AS revoked_at`;
const FROM = `display_tokens k LEFT JOIN users u ON u.id = k.created_by`;

export function insertToken(
  q: Queryable,
  v: { toilet_id: number; name: string; token_hash: string; created_by: number },
) {
  return insertRow(q, 'display_tokens', {
    toilet_id: v.toilet_id,
    name: v.name,
    token_hash: v.token_hash,
    created_by: v.created_by,
  });
}

/** A toilet's tokens, active ones first, newest first. */
export function listTokens(q: Queryable, toiletId: number) {
  return q.query<DisplayTokenRow>(
    `SELECT ${ROW} FROM ${FROM} WHERE k.toilet_id = $1 ORDER BY (k.revoked_at IS NULL) DESC, k.id DESC LIMIT 200`,
    [toiletId],
  );
}

export function findToken(q: Queryable, id: number) {
  return first<DisplayTokenRow>(q, `SELECT ${ROW} FROM ${FROM} WHERE k.id = $1`, [id]);
}

export async function activeCount(q: Queryable, toiletId: number) {
  const r = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM display_tokens WHERE toilet_id = $1 AND revoked_at IS NULL`,
    [toiletId],
  );
  return r!.n;
}

export function revokeToken(q: Queryable, id: number, userId: number) {
  return q.query(
    `UPDATE display_tokens SET revoked_at = now(), revoked_by = $2 WHERE id = $1 AND revoked_at IS NULL`,
    [id, userId],
  );
}

export function revokeAllDisplayTokens(q: Queryable, toiletId: number, userId: number) {
  return q.query(
    `UPDATE display_tokens SET revoked_at = now(), revoked_by = $2 WHERE toilet_id = $1 AND revoked_at IS NULL`,
    [toiletId, userId],
  );
}

/**
 * The toilet a live token signs in to, marking the token seen (at most once a minute, so a
 * screen polling every 15 s does not write on every call). Nothing for a revoked token or a
 * deleted toilet.
 */
export function touchToken(q: Queryable, hash: string) {
  return first<{ id: number; toilet_id: number }>(
    q,
    `WITH hit AS (
       SELECT k.id, k.toilet_id, k.last_seen_at FROM display_tokens k JOIN toilets t ON t.id = k.toilet_id
        WHERE k.token_hash = $1 AND k.revoked_at IS NULL AND NOT t.is_delete),
     seen AS (
       UPDATE display_tokens SET last_seen_at = now()
        WHERE id IN (SELECT id FROM hit WHERE last_seen_at IS NULL OR last_seen_at < now() - interval '1 minute'))
     SELECT id, toilet_id FROM hit`,
    [hash],
  );
}

export function toiletForDisplay(q: Queryable, id: number) {
  return first<ToiletCardRow & { status: number; gateway_id: number | null }>(
    q,
    `SELECT ${CARD}, status, gateway_id FROM toilets WHERE id = $1 AND NOT is_delete`,
    [id],
  );
}
