import { updateRow } from '../../db/update.ts';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, keywordSql, localTime, selectPage } from '../../db/sql.ts';
import { PERMISSION, USER_SEARCH_KEYS, type UserRow } from '@se/core';
import { accountSeen, accountUnder } from '../access/visible-repo.ts';

/** True when `id` is `ancestorId` itself or one of the users it created, at any depth. */
export async function isSelfOrDescendant(q: Queryable, ancestorId: number, id: number): Promise<boolean> {
  if (ancestorId === id) return true;
  const r = await first<{ ok: boolean }>(
    q,
    `SELECT EXISTS (
       SELECT 1 FROM users t, users a
        WHERE t.id = $2 AND a.id = $1 AND ${accountUnder('t', 'a.path')}) AS ok`,
    [ancestorId, id],
  );
  return r?.ok ?? false;
}

/** Creates a user and its (empty) info row; the path extends the parent's. */
export async function insertUser(
  q: Queryable,
  u: {
    user_name: string;
    email: string | null;
    phone_num?: string;
    password_hash: string;
    permissions: number;
    parent_id: number | null;
    /** The organisation it works inside (users.org_id), null for none. */
    org_id?: number | null;
  },
) {
  const [{ id }] = (await q.query<{ id: number }>(
    `SELECT nextval(pg_get_serial_sequence('users', 'id'))::int AS id`,
  )) as [{ id: number }];
  await q.query(
    `INSERT INTO users (id, user_name, email, phone_num, password_hash, permissions, parent_id, path, org_id)
     VALUES ($1::int, $2, $3, $4, $5, $6, $7::int,
             coalesce((SELECT path FROM users WHERE id = $7::int), '/') || $8 || '/', $9::int)`,
    [
      id,
      u.user_name,
      u.email,
      u.phone_num ?? '',
      u.password_hash,
      u.permissions,
      u.parent_id,
      String(id),
      u.org_id ?? null,
    ],
  );
  await q.query(`INSERT INTO user_info (user_id) VALUES ($1)`, [id]);
  await syncIdentifiers(q, id);
  return id;
}

export type IdentifierKind = 'user_name' | 'email' | 'phone_num';

/**
 * Rewrites a user's sign-in identifiers from its row (none while it is deleted). Call it in
 * the transaction that changed the user name, confirmed e-mail, phone or is_delete.
 * Throws a unique violation naming the kind (`login_identifiers_<kind>`) when another
 * live user holds one already; a concurrent claim waits on the primary key, so only one wins.
 */
export async function syncIdentifiers(q: Queryable, userId: number): Promise<void> {
  await q.query(`DELETE FROM login_identifiers WHERE user_id = $1`, [userId]);
  const wanted = await q.query<{ identifier: string; kind: IdentifierKind }>(
    `SELECT v.identifier, v.kind
       FROM users u,
            LATERAL (VALUES (lower(u.user_name), 'user_name'), (lower(u.email), 'email'),
                            (lower(nullif(u.phone_num, '')), 'phone_num')) AS v (identifier, kind)
      WHERE u.id = $1 AND NOT u.is_delete AND v.identifier IS NOT NULL`,
    [userId],
  );
  for (const w of wanted) {
    const got = await q.query(
      `INSERT INTO login_identifiers (identifier, user_id, kind) VALUES ($1, $2, $3)
       ON CONFLICT (identifier) DO NOTHING RETURNING user_id`,
      [w.identifier, userId, w.kind],
    );
    if (got.length === 1) continue;
    // Already there: fine when it is this user's own (its name equals its phone, say).
    const owner = await first<{ user_id: number }>(
      q,
      `SELECT user_id FROM login_identifiers WHERE identifier = $1`,
      [w.identifier],
    );
    if (owner?.user_id === userId) continue;
    // The shape of a unique violation, so every caller's duplicate handling answers 409.
    throw Object.assign(new Error(`identifier taken: ${w.kind}`), {
      code: '23505',
      constraint: `login_identifiers_${w.kind}`,
    });
  }
}

export interface InfoRow {
  id: number | null;
  is_delete: boolean | null;
  company_name: string | null;
  company_address: string | null;
  user_name: string;
  phone_num: string;
  email: string | null;
  pending_email: string | null;
  user_deleted: boolean;
}

/** The user whose info row this is. */
export async function infoOwner(q: Queryable, infoId: number) {
  const rows = await q.query<{ user_id: number }>(`SELECT user_id FROM user_info WHERE id = $1`, [infoId]);
  return rows[0]?.user_id;
}

export function getInfo(q: Queryable, userId: number) {
  return first<InfoRow>(
    q,
    `SELECT i.id, i.is_delete, i.company_name, i.company_address, u.user_name, u.phone_num,
            u.email, u.pending_email, u.is_delete AS user_deleted
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

export async function setPhone(q: Queryable, userId: number, phone: string) {
  await q.query(`UPDATE users SET phone_num = $2, updated_at = now() WHERE id = $1`, [userId, phone]);
  await syncIdentifiers(q, userId);
}

/** Stores an e-mail change that waits for its owner's confirmation (null: none). */
export function setPendingEmail(q: Queryable, userId: number, email: string | null) {
  return q.query(`UPDATE users SET pending_email = $2, updated_at = now() WHERE id = $1`, [userId, email]);
}

/** Applies the confirmed pending e-mail; false when none was waiting (or another request applied it). */
export async function applyPendingEmail(q: Queryable, userId: number, email: string) {
  const r = await q.query(
    `UPDATE users SET email = pending_email, pending_email = NULL, updated_at = now()
      WHERE id = $1 AND pending_email = $2 RETURNING id`,
    [userId, email],
  );
  if (r.length === 0) return false;
  await syncIdentifiers(q, userId);
  return true;
}

/** Whether a live user other than `userId` signs in with `identifier`. */
export async function identifierTaken(q: Queryable, identifier: string, userId: number) {
  const r = await first<{ taken: boolean }>(
    q,
    `SELECT EXISTS (SELECT 1 FROM login_identifiers WHERE identifier = lower($1) AND user_id <> $2) AS taken`,
    [identifier, userId],
  );
  return r?.taken ?? false;
}

export interface UserRecord {
  id: number;
  is_delete: boolean;
  user_name: string;
  email: string | null;
  pending_email: string | null;
  phone_num: string;
  permissions: number;
  services: number;
  message_count: number;
  parent_id: number | null;
  path: string;
  /** The organisation it works inside (users.org_id), or null. */
  org_id: number | null;
}

/** The permission number of the account that created `id` (null: none, e.g. signed up). */
export async function parentPermissions(q: Queryable, id: number): Promise<number | null> {
  const r = await first<{ p: number | null }>(
    q,
    `SELECT p.permissions AS p FROM users u LEFT JOIN users p ON p.id = u.parent_id WHERE u.id = $1`,
    [id],
  );
  return r?.p ?? null;
}

export function findUser(q: Queryable, id: number) {
  return first<UserRecord>(
    q,
    `SELECT id, is_delete, user_name, email, pending_email, phone_num, permissions, services, message_count,
            parent_id, path, org_id
       FROM users WHERE id = $1`,
    [id],
  );
}

// isBackendManager of @se/core, in SQL: 127 bits, created by a developer.
const BACKEND_MANAGER = `(u.permissions & ${PERMISSION.superSaled} = ${PERMISSION.superSaled}
  AND coalesce(p.permissions & ${PERMISSION.develop} = ${PERMISSION.develop}, false))`;

const ROW = `u.id, u.is_delete, u.user_name, coalesce(u.email, '') AS email,
  coalesce(u.pending_email, '') AS pending_email, u.phone_num, u.permissions, u.services,
  u.message_count, u.parent_id, coalesce(p.user_name, '') AS parent_name, ${BACKEND_MANAGER} AS backend_manager,
  CASE WHEN i.is_delete THEN '' ELSE coalesce(i.company_name, '') END AS company_name,
  u.org_id, coalesce(o.name, '') AS org_name,
  ${localTime('u.created_at')} AS created_at`;
const FROM = `users u LEFT JOIN users p ON p.id = u.parent_id LEFT JOIN user_info i ON i.user_id = u.id
  LEFT JOIN organisations o ON o.id = u.org_id`;

export function getUserRow(q: Queryable, id: number) {
  return first<UserRow>(q, `SELECT ${ROW} FROM ${FROM} WHERE u.id = $1`, [id]);
}

export interface UserFilter {
  /** Path prefix: the subtree to list. */
  scope: string;
  keywords?: string;
  keys?: readonly string[];
  permission?: number;
  limit: number;
  offset: number;
  count: boolean;
}

export async function listUsers(q: Queryable, f: UserFilter) {
  const keys = new Set<string>(f.keys?.length ? f.keys : USER_SEARCH_KEYS);
  const w = new Params();
  const cond = [`NOT u.is_delete`, accountSeen(w, f.scope)];
  if (f.keywords) {
    const match: string[] = [];
    const fields = (['user_name', 'email', 'phone_num'] as const).filter((k) => keys.has(k));
    // Each field is a part of the users' searched text, whose token index answers for any.
    if (fields.length) {
      const some = fields.length < 3 ? fields.map((k) => `u.${k}`) : undefined;
      match.push(keywordSql(w, 'users', f.keywords, some));
    }
    if (keys.has('company_name')) {
      match.push(`u.id = ANY(ARRAY(SELECT i.user_id FROM user_info i
                                    WHERE NOT i.is_delete AND ${keywordSql(w, 'userInfo', f.keywords)}))`);
    }
    if (keys.has('id') && /^\d{1,9}$/.test(f.keywords)) match.push(`u.id = ${w.p(Number(f.keywords))}`);
    cond.push(match.length ? `(${match.join(' OR ')})` : 'false');
  }
  if (f.permission) cond.push(`(u.permissions & ${w.p(f.permission)}) = ${w.p(f.permission)}`);
  const where = cond.join(' AND ');
  return selectPage<UserRow>(q, w, f, {
    list: (page) => `SELECT ${ROW} FROM ${FROM} WHERE ${where} ORDER BY u.id DESC ${page}`,
    where,
    countFrom: f.count ? 'users u' : null,
  });
}

/**
 * Moves account `id` to organisation `to` with the accounts below it that work in the same
 * organisation `from` (none follow an account outside any). Answers the ids moved, the
 * account first.
 */
export async function moveToOrg(q: Queryable, id: number, from: number | null, to: number | null) {
  const rows = await q.query<{ id: number }>(
    `UPDATE users t SET org_id = $3
       FROM users a
      WHERE a.id = $1 AND (t.id = a.id OR ($2::int IS NOT NULL AND t.org_id = $2 AND ${accountUnder('t', 'a.path')}))
      RETURNING t.id`,
    [id, from, to],
  );
  return rows.map((r) => r.id).sort((x, y) => (x === id ? -1 : y === id ? 1 : x - y));
}

/** The manager of organisation `orgId` (organisations.user_id) if it works in it at or below `path`. */
export async function managerAmong(q: Queryable, orgId: number, path: string) {
  return first<{ id: number; user_name: string; org_name: string }>(
    q,
    `SELECT u.id, u.user_name, o.name AS org_name FROM organisations o JOIN users u ON u.id = o.user_id
      WHERE o.id = $1 AND u.org_id = $1 AND u.path LIKE $2 || '%'`,
    [orgId, path],
  );
}

/** A new e-mail is not set here but waits for confirmation (setPendingEmail); null removes it. */
export async function updateUserColumns(
  q: Queryable,
  id: number,
  v: Partial<Pick<UserRecord, 'is_delete' | 'user_name' | 'phone_num' | 'permissions' | 'services'>> & {
    email?: null;
  },
) {
  await updateRow(
    q,
    { table: 'users', columns: ['is_delete', 'user_name', 'phone_num', 'permissions', 'services', 'email'] },
    id,
    v,
  );
  const identifiers = [v.is_delete, v.user_name, v.phone_num, v.email];
  if (identifiers.some((x) => x !== undefined)) {
    await syncIdentifiers(q, id);
  }
}
