import type { AuditEntry } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { listsChanged } from '../../db/page-anchors.ts';
import { cappedCount, fromLocal, localTime } from '../../db/sql.ts';
import { accountUnder } from '../access/visible-repo.ts';

export interface AuditRecord {
  actorId: number;
  targetUserId: number | null;
  action: string;
  entity: string;
  entityId: number | null;
  before: unknown;
  after: unknown;
  ip: string;
}

export function insertAudit(q: Queryable, a: AuditRecord) {
  // What this write changes may move the rows of lists kept by position (PageAnchors).
  listsChanged();
  return q.query(
    `INSERT INTO audit_log (actor_id, target_user_id, action, entity, entity_id, before, after, ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      a.actorId,
      a.targetUserId,
      a.action,
      a.entity,
      a.entityId,
      a.before === undefined ? null : JSON.stringify(a.before),
      a.after === undefined ? null : JSON.stringify(a.after),
      a.ip,
    ],
  );
}

export interface AuditFilter {
  /** Path prefix of the caller's subtree; entries about it or made by the caller are visible. */
  scope: string;
  callerId: number;
  targetUserId?: number;
  actorId?: number;
  start?: string;
  end?: string;
  limit: number;
  offset: number;
}

export async function listAudit(q: Queryable, f: AuditFilter) {
  const where = `(${accountUnder('t', '$1')} OR a.actor_id = $2)
    AND ($3::int IS NULL OR a.target_user_id = $3)
    AND ($4::int IS NULL OR a.actor_id = $4)
    AND ($5::text IS NULL OR a.created_at >= ${fromLocal('$5')})
    AND ($6::text IS NULL OR a.created_at <= ${fromLocal('$6')})`;
  const params = [
    f.scope,
    f.callerId,
    f.targetUserId ?? null,
    f.actorId ?? null,
    f.start ?? null,
    f.end ?? null,
  ];
  const [list, count] = await Promise.all([
    q.query<AuditEntry>(
      `SELECT a.id, a.actor_id, coalesce(ac.user_name, '') AS actor_name, a.target_user_id,
              coalesce(t.user_name, '') AS target_name, a.action, a.entity, a.entity_id, a.before, a.after,
              a.ip, ${localTime('a.created_at')} AS created_at
         FROM audit_log a
         LEFT JOIN users t ON t.id = a.target_user_id
         LEFT JOIN users ac ON ac.id = a.actor_id
        WHERE ${where}
        ORDER BY a.id DESC LIMIT $7 OFFSET $8`,
      [...params, f.limit, f.offset],
    ),
    cappedCount(q, `FROM audit_log a LEFT JOIN users t ON t.id = a.target_user_id WHERE ${where}`, params),
  ]);
  return { list, ...count };
}
