import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { localTime } from '../../db/sql.ts';

export interface AccountRow {
  id: number;
  user_name: string;
  email: string | null;
  password_hash: string;
  permissions: number;
  is_delete: boolean;
}

const ACCOUNT = `id, user_name, email, password_hash, permissions, is_delete`;

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

/** Whether the `admin` account exists (any case, deleted or not). */
export async function adminExists(q: Queryable) {
  const rows = await q.query<{ id: number }>(`SELECT id FROM users WHERE lower(user_name) = 'admin'`);
  return rows.length > 0;
}

export function setPasswordHash(q: Queryable, id: number, hash: string) {
  return q.query(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [id, hash]);
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

/** When the user's od_token was made (UTC+8 text), or undefined when it has none. */
export function odTokenCreated(q: Queryable, userId: number) {
  return first<{ created_at: string }>(
    q,
    `SELECT ${localTime('created_at')} AS created_at FROM user_tokens WHERE user_id = $1 AND od_token IS NOT NULL`,
    [userId],
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

// ---- failed sign-ins (see 0014_login_throttle.sql) ----

export async function loginSecret(q: Queryable) {
  const r = await first<{ salt: string }>(q, `SELECT salt FROM login_secret WHERE id = 1`);
  return r!.salt;
}

export interface LoginGate {
  /** Seconds left on this source's lock of the account, 0 when not locked. */
  locked_s: number;
  /** Seconds left on the account-wide delay, 0 when none. */
  blocked_s: number;
  /** The account signed in from this source within `usualDays`. */
  usual: boolean;
}

export async function loginGate(
  q: Queryable,
  account: string,
  source: string,
  userId: number | null,
  usualDays: number,
) {
  const r = await first<LoginGate>(
    q,
    `SELECT coalesce((SELECT extract(epoch FROM locked_until - now())::float8 FROM login_failures
                       WHERE account = $1 AND source = $2 AND locked_until > now()), 0) AS locked_s,
            coalesce((SELECT extract(epoch FROM blocked_until - now())::float8 FROM login_throttle
                       WHERE account = $1 AND blocked_until > now()), 0) AS blocked_s,
            EXISTS (SELECT 1 FROM login_sources WHERE user_id = $3 AND source = $2
                       AND last_seen > now() - $4 * interval '1 day') AS usual`,
    [account, source, userId, usualDays],
  );
  return r!;
}

/**
 * Counts a failure of (account, source) in a `minutes` window; the `max`-th locks that pair
 * for `minutes`. Rows whose window and lock have run out go: the table stays small even
 * when unknown names are tried.
 */
export async function countPairFailure(
  q: Queryable,
  account: string,
  source: string,
  max: number,
  minutes: number,
) {
  await q.query(
    `DELETE FROM login_failures WHERE since < now() - $1 * interval '1 minute'
        AND (locked_until IS NULL OR locked_until < now())`,
    [minutes],
  );
  const r = await first<{ failures: number; locked: boolean }>(
    q,
    `INSERT INTO login_failures AS f (account, source, failures, since, locked_until)
     VALUES ($1, $2, 1, now(), CASE WHEN $3 <= 1 THEN now() + $4 * interval '1 minute' END)
     ON CONFLICT (account, source) DO UPDATE SET
       failures = CASE WHEN f.since < now() - $4 * interval '1 minute' THEN 1 ELSE f.failures + 1 END,
       since = CASE WHEN f.since < now() - $4 * interval '1 minute' THEN now() ELSE f.since END,
       locked_until = CASE
         WHEN (CASE WHEN f.since < now() - $4 * interval '1 minute' THEN 1 ELSE f.failures + 1 END) >= $3
         THEN now() + $4 * interval '1 minute' ELSE NULL END
     RETURNING f.failures, (f.locked_until IS NOT NULL) AS locked`,
    [account, source, max, minutes],
  );
  return r!;
}

/**
 * Counts a failure of the account from any source in a `windowMin` window. Past `free`
 * failures each one blocks the account for `baseS` seconds, doubled per further failure up
 * to `capS`.
 */
export async function countAccountFailure(
  q: Queryable,
  account: string,
  t: { free: number; baseS: number; capS: number; windowMin: number },
) {
  await q.query(
    `DELETE FROM login_throttle WHERE since < now() - $1 * interval '1 minute'
        AND (blocked_until IS NULL OR blocked_until < now())`,
    [t.windowMin],
  );
  // Computed from the row the upsert locked, so concurrent failures all count.
  const stale = `f.since < now() - $5 * interval '1 minute'`;
  const n = `CASE WHEN ${stale} THEN 1 ELSE f.failures + 1 END`;
  const r = await first<{ failures: number; blocked_s: number }>(
    q,
    `INSERT INTO login_throttle AS f (account, failures, since, blocked_until)
     VALUES ($1, 1, now(), CASE WHEN 1 > $2 THEN now() + $3 * interval '1 second' END)
     ON CONFLICT (account) DO UPDATE SET
       failures = ${n},
       since = CASE WHEN ${stale} THEN now() ELSE f.since END,
       blocked_until = CASE WHEN ${n} > $2
         THEN now() + least($4::float8, $3 * power(2, ${n} - $2 - 1)) * interval '1 second' END
     RETURNING f.failures, coalesce(extract(epoch FROM f.blocked_until - now())::float8, 0) AS blocked_s`,
    [account, t.free, t.baseS, t.capS, t.windowMin],
  );
  return r!;
}

/** A successful sign-in: this source is usual for the account, its failures are forgiven. */
export async function rememberLoginSource(
  q: Queryable,
  userId: number,
  account: string,
  source: string,
  keep: number,
) {
  await q.query(`DELETE FROM login_failures WHERE account = $1 AND source = $2`, [account, source]);
  await q.query(
    `INSERT INTO login_sources (user_id, source) VALUES ($1, $2)
     ON CONFLICT (user_id, source) DO UPDATE SET last_seen = now()`,
    [userId, source],
  );
  await q.query(
    `DELETE FROM login_sources WHERE user_id = $1 AND source NOT IN
       (SELECT source FROM login_sources WHERE user_id = $1 ORDER BY last_seen DESC LIMIT $2)`,
    [userId, keep],
  );
}
