import type { DownloadRow, DownloadStatus } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { localTime } from '../../db/sql.ts';

/** A job as the runner and the file route need it (stored_path is never sent to clients). */
export interface DownloadRecord {
  id: number;
  user_id: number;
  name: string;
  label: string;
  params: Record<string, unknown>;
  format: 'xlsx' | 'csv';
  status: DownloadStatus;
  file_name: string;
  stored_path: string | null;
  size: number | null;
  attempts: number;
  expired: boolean;
}

const ROW = `id, name, label, params, summary, format, status, rows_done, total, file_name, size, error,
  ${localTime('created_at')} AS created_at, ${localTime('started_at')} AS started_at,
  ${localTime('finished_at')} AS finished_at, ${localTime('expires_at')} AS expires_at,
  (extract(epoch FROM (expires_at - now())) * 1000)::float8 AS expires_in_ms`;

const RECORD = `id, user_id, name, label, params, format, status, file_name, stored_path, size, attempts,
  coalesce(expires_at <= now(), false) AS expired`;

export async function insertJob(
  q: Queryable,
  v: { userId: number; name: string; label: string; params: unknown; summary: string; format: string },
) {
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO downloads (user_id, name, label, params, summary, format)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6) RETURNING id`,
    [v.userId, v.name, v.label, JSON.stringify(v.params), v.summary, v.format],
  );
  return r!.id;
}

/** A finished file put straight into a user's centre (weekly reports). */
export async function insertFile(
  q: Queryable,
  v: {
    userId: number;
    name: string;
    label: string;
    params: unknown;
    summary: string;
    format: string;
    fileName: string;
    storedPath: string;
    size: number;
    rows: number | null;
    keepDays: number;
  },
) {
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO downloads (user_id, name, label, params, summary, format, status, rows_done, total, file_name,
                            stored_path, size, started_at, finished_at, expires_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, 'done', coalesce($7::bigint, 0), $7::bigint, $8, $9, $10, now(), now(),
             now() + $11 * interval '1 day')
     RETURNING id`,
    [
      v.userId,
      v.name,
      v.label,
      JSON.stringify(v.params),
      v.summary,
      v.format,
      v.rows,
      v.fileName,
      v.storedPath,
      v.size,
      v.keepDays,
    ],
  );
  return r!.id;
}

/** Jobs of a user still waiting or running. */
export async function countActiveOf(q: Queryable, userId: number) {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM downloads WHERE user_id = $1 AND status IN ('queued', 'running')`,
    [userId],
  );
  return rows[0]!.n;
}

/** Jobs of anyone still waiting or running. */
export async function countPending(q: Queryable) {
  const row = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM downloads WHERE status IN ('queued', 'running')`,
  );
  return row?.n ?? 0;
}

export async function setStoredPath(q: Queryable, id: number, storedPath: string) {
  await q.query(`UPDATE downloads SET stored_path = $2 WHERE id = $1`, [id, storedPath]);
}

/** Puts a running job back in the queue from the start (this copy shuts down). */
export function requeueRunning(q: Queryable, id: number) {
  return q.query(
    `UPDATE downloads SET status = 'queued', heartbeat_at = NULL, rows_done = 0 WHERE id = $1 AND status = 'running'`,
    [id],
  );
}

/** The job owner's name, rights and deletion flag, read when the job starts. */
export function jobOwner(q: Queryable, userId: number) {
  return first<{ user_name: string; permissions: number; is_delete: boolean }>(
    q,
    `SELECT user_name, permissions, is_delete FROM users WHERE id = $1`,
    [userId],
  );
}

export async function listJobs(
  q: Queryable,
  f: { userId: number; status?: string; limit: number; offset: number },
) {
  const params: unknown[] = [f.userId];
  let where = 'user_id = $1';
  if (f.status) {
    params.push(f.status);
    where += ` AND status = $2`;
  }
  const n = params.length;
  const [list, count] = await Promise.all([
    q.query<DownloadRow>(
      `SELECT ${ROW} FROM downloads WHERE ${where} ORDER BY id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, f.limit, f.offset],
    ),
    q.query<{ n: number; active: number }>(
      `SELECT count(*) FILTER (WHERE ${where})::int AS n,
              count(*) FILTER (WHERE status IN ('queued', 'running'))::int AS active
         FROM downloads WHERE user_id = $1`,
      params,
    ),
  ]);
  return { list, total: count[0]!.n, active: count[0]!.active };
}

export const findRow = (q: Queryable, id: number) =>
  first<DownloadRow & { user_id: number }>(q, `SELECT ${ROW}, user_id FROM downloads WHERE id = $1`, [id]);

export const findRecord = (q: Queryable, id: number) =>
  first<DownloadRecord>(q, `SELECT ${RECORD} FROM downloads WHERE id = $1`, [id]);

export const deleteJob = (q: Queryable, id: number) =>
  first<{ stored_path: string | null }>(q, `DELETE FROM downloads WHERE id = $1 RETURNING stored_path`, [id]);

/**
 * Claims the oldest queued job for this runner: the row lock with SKIP LOCKED lets several
 * server copies poll at once and each job still runs once.
 */
export function claimNext(q: Queryable) {
  return first<DownloadRecord>(
    q,
    `UPDATE downloads SET status = 'running', started_at = now(), heartbeat_at = now(), attempts = attempts + 1,
            rows_done = 0, total = NULL, error = ''
      WHERE id = (SELECT id FROM downloads WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING ${RECORD}`,
  );
}

/**
 * Jobs whose runner stopped beating (the server copy crashed or was killed) go back to the
 * queue; after `maxAttempts` starts they fail instead of crashing the next copy too.
 */
export async function requeueStale(q: Queryable, staleMs: number, maxAttempts: number) {
  const failed = await q.query<{ id: number; stored_path: string | null }>(
    `UPDATE downloads SET status = 'failed', error = '导出多次中断，请缩小范围后重新导出', finished_at = now(),
            expires_at = now() + interval '7 days', heartbeat_at = NULL
      WHERE status = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < now() - $1 * interval '1 millisecond')
        AND attempts >= $2
      RETURNING id, stored_path`,
    [staleMs, maxAttempts],
  );
  const queued = await q.query<{ id: number; stored_path: string | null }>(
    `UPDATE downloads SET status = 'queued', heartbeat_at = NULL, rows_done = 0
      WHERE status = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < now() - $1 * interval '1 millisecond')
      RETURNING id, stored_path`,
    [staleMs],
  );
  return { failed, queued };
}

/** Progress and heartbeat; answers false when the job was deleted meanwhile. */
export async function progress(q: Queryable, id: number, rowsDone: number, total: number | null) {
  const r = await q.query(
    `UPDATE downloads SET rows_done = $2, total = coalesce($3::bigint, total), heartbeat_at = now()
      WHERE id = $1 AND status = 'running' RETURNING id`,
    [id, rowsDone, total],
  );
  return r.length > 0;
}

export async function finish(
  q: Queryable,
  id: number,
  v: { fileName: string; storedPath: string; size: number; rows: number; keepDays: number },
) {
  const r = await q.query(
    `UPDATE downloads SET status = 'done', rows_done = $2, total = $2, file_name = $3, stored_path = $4, size = $5,
            finished_at = now(), expires_at = now() + $6 * interval '1 day', heartbeat_at = NULL
      WHERE id = $1 AND status = 'running' RETURNING id`,
    [id, v.rows, v.fileName, v.storedPath, v.size, v.keepDays],
  );
  return r.length > 0;
}

export function fail(q: Queryable, id: number, error: string, keepDays: number) {
  return q.query(
    `UPDATE downloads SET status = 'failed', error = $2, stored_path = NULL, finished_at = now(),
            expires_at = now() + $3 * interval '1 day', heartbeat_at = NULL
      WHERE id = $1 AND status = 'running'`,
    [id, error, keepDays],
  );
}

/** Finished jobs past their expiry: their files go, the rows stay as 'expired' for a while. */
export function expireDue(q: Queryable) {
  return q.query<{ id: number; stored_path: string | null }>(
    `WITH due AS (
       SELECT id, stored_path FROM downloads
        WHERE status IN ('done', 'failed') AND expires_at <= now() FOR UPDATE)
     UPDATE downloads d SET status = 'expired', stored_path = NULL FROM due WHERE d.id = due.id
     RETURNING d.id, due.stored_path`,
  );
}

/** Expired rows older than `days` leave the list. */
export function purgeOld(q: Queryable, days: number) {
  return q.query(
    `DELETE FROM downloads WHERE status = 'expired' AND expires_at < now() - $1 * interval '1 day'`,
    [days],
  );
}

/** Every stored file name a row still points at (orphan sweep). */
export async function storedPaths(q: Queryable) {
  const rows = await q.query<{ stored_path: string }>(
    `SELECT stored_path FROM downloads WHERE stored_path IS NOT NULL
     UNION ALL SELECT 'job-' || id || '.part' FROM downloads WHERE status IN ('queued', 'running')`,
  );
  return new Set(rows.map((r) => r.stored_path));
}

export async function secret(q: Queryable, name: string, fresh: string) {
  await q.query(`INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
    name,
    fresh,
  ]);
  return (await first<{ value: string }>(q, `SELECT value FROM server_secrets WHERE name = $1`, [name]))!
    .value;
}
