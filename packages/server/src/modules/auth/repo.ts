import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';

export interface AccountRow {
  id: number;
  user_name: string;
  email: string | null;
  password_hash: string;
  permissions: number;
  is_delete: boolean;
  locked_until: Date | null;
}

const ACCOUNT = `id, user_name, email, password_hash, permissions, is_delete, locked_until`;

/**
 * The live account whose user name (case-insensitive), confirmed e-mail or phone is
 * `filter`. login_identifiers holds each identifier once, so at most one account matches.
 */
export function findAccountByFilter(q: Queryable, filter: string) {
  return first<AccountRow>(
    q,
    `SELECT ${ACCOUNT} FROM users
      WHERE NOT is_delete AND id = (SELECT user_id FROM login_identifiers WHERE identifier = lower($1))`,
    [filter],
  );
}

export function findAccountById(q: Queryable, id: number) {
  return first<AccountRow>(q, `SELECT ${ACCOUNT} FROM users WHERE id = $1`, [id]);
}

export function findAccountByEmail(q: Queryable, email: string) {
  return first<AccountRow>(q, `SELECT ${ACCOUNT} FROM users WHERE email = $1 AND NOT is_delete`, [email]);
}

export async function nameOrEmailTaken(q: Queryable, userName: string, email: string | null) {
  const r = await first<{ name: boolean; email: boolean }>(
    q,
    `SELECT EXISTS (SELECT 1 FROM users WHERE lower(user_name) = lower($1))
            OR EXISTS (SELECT 1 FROM login_identifiers WHERE identifier = lower($1)) AS name,
            EXISTS (SELECT 1 FROM users WHERE email = $2)
            OR EXISTS (SELECT 1 FROM login_identifiers WHERE identifier = lower($2)) AS email`,
    [userName, email],
  );
  return r!;
}

/** Counts a failed login in a 15-minute window; the 5th locks the account for 15 minutes. */
export async function recordFailedLogin(q: Queryable, id: number, maxFailures: number, windowMin: number) {
  const r = await first<{ locked_until: Date | null; failed_logins: number }>(
    q,
    `WITH c AS (
       SELECT CASE WHEN failed_since IS NULL OR failed_since < now() - $3 * interval '1 minute'
                   THEN 1 ELSE failed_logins + 1 END AS n,
              CASE WHEN failed_since IS NULL OR failed_since < now() - $3 * interval '1 minute'
                   THEN now() ELSE failed_since END AS since
         FROM users WHERE id = $1)
     UPDATE users u SET failed_logins = c.n, failed_since = c.since,
            locked_until = CASE WHEN c.n >= $2 THEN now() + $3 * interval '1 minute' ELSE u.locked_until END
       FROM c WHERE u.id = $1
     RETURNING u.locked_until, u.failed_logins`,
    [id, maxFailures, windowMin],
  );
  return r!;
}

export function clearFailedLogins(q: Queryable, id: number) {
  return q.query(
    `UPDATE users SET failed_logins = 0, failed_since = NULL, locked_until = NULL
      WHERE id = $1 AND (failed_logins <> 0 OR locked_until IS NOT NULL)`,
    [id],
  );
}

export function setPasswordHash(q: Queryable, id: number, hash: string) {
  return q.query(
    `UPDATE users SET password_hash = $2, failed_logins = 0, failed_since = NULL, locked_until = NULL,
            updated_at = now() WHERE id = $1`,
    [id, hash],
  );
}

export function findUserByOdToken(q: Queryable, hash: string) {
  return first<{ user_id: number }>(q, `SELECT user_id FROM user_tokens WHERE od_token = $1`, [hash]);
}

export function findUserByWcToken(q: Queryable, appId: string, hash: string) {
  return first<{ user_id: number }>(
    q,
    `SELECT user_id FROM user_tokens WHERE app_id = $1 AND wc_token = $2`,
    [appId, hash],
  );
}

export async function replaceOdToken(q: Queryable, userId: number, hash: string) {
  await q.query(`DELETE FROM user_tokens WHERE user_id = $1 AND od_token IS NOT NULL`, [userId]);
  await q.query(`INSERT INTO user_tokens (user_id, od_token) VALUES ($1, $2)`, [userId, hash]);
}

/** A user has one mini-program token per app: binding again replaces the old one. */
export async function bindWcToken(q: Queryable, userId: number, appId: string, hash: string) {
  await q.query(`DELETE FROM user_tokens WHERE user_id = $1 AND app_id = $2 AND wc_token IS NOT NULL`, [
    userId,
    appId,
  ]);
  await q.query(`INSERT INTO user_tokens (user_id, app_id, wc_token) VALUES ($1, $2, $3)`, [
    userId,
    appId,
    hash,
  ]);
}

/** Drops the od_token and every mini-program binding of a user. */
export function deleteUserTokens(q: Queryable, userId: number) {
  return q.query(`DELETE FROM user_tokens WHERE user_id = $1`, [userId]);
}

export interface CaptchaRow {
  id: number;
  code_hash: string;
  tries: number;
  expires_at: Date;
  used_at: Date | null;
}

export function lastCaptchaAge(q: Queryable, email: string) {
  return first<{ age_s: number }>(
    q,
    `SELECT extract(epoch FROM now() - created_at)::float8 AS age_s
       FROM email_captchas WHERE email = $1 ORDER BY created_at DESC LIMIT 1`,
    [email],
  );
}

export function insertCaptcha(q: Queryable, email: string, purpose: string, codeHash: string, ttlS: number) {
  return q.query(
    `INSERT INTO email_captchas (email, purpose, code_hash, expires_at)
     VALUES ($1, $2, $3, now() + $4 * interval '1 second')`,
    [email, purpose, codeHash, ttlS],
  );
}

export function liveCaptcha(q: Queryable, email: string, purpose: string) {
  return first<CaptchaRow>(
    q,
    `SELECT id, code_hash, tries, expires_at, used_at FROM email_captchas
      WHERE email = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
      ORDER BY created_at DESC LIMIT 1`,
    [email, purpose],
  );
}

export async function countCaptchaTry(q: Queryable, id: number) {
  const r = await first<{ tries: number }>(
    q,
    `UPDATE email_captchas SET tries = tries + 1 WHERE id = $1 RETURNING tries`,
    [id],
  );
  return r?.tries ?? 0;
}

/** Marks a captcha used; false when a concurrent request used it first. */
export async function useCaptcha(q: Queryable, id: number) {
  const r = await q.query(
    `UPDATE email_captchas SET used_at = now() WHERE id = $1 AND used_at IS NULL RETURNING id`,
    [id],
  );
  return r.length === 1;
}
