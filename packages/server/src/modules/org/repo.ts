/** Organisations: the rows of migration 0022 (SQL only; who may see one is modules/access/orgs.ts). */
import type { OrgRow } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import type { Patchable } from '../../db/update.ts';

export const ORGS: Patchable<
  'name' | 'slogan' | 'introduction' | 'org_url' | 'email' | 'address' | 'contact' | 'logo'
> = {
  table: 'organisations',
  columns: ['name', 'slogan', 'introduction', 'org_url', 'email', 'address', 'contact', 'logo'],
};

export function findOrg(q: Queryable, id: number) {
  return first<OrgRow>(
    q,
    `SELECT id, is_delete, name, slogan, logo, introduction, org_url, email, address, contact, root_dep_id, user_id
       FROM organisations WHERE id = $1`,
    [id],
  );
}

export async function accountOrgOf(q: Queryable, userId: number) {
  const r = await first<{ org_id: number | null }>(q, 'SELECT org_id FROM users WHERE id = $1', [userId]);
  return r?.org_id ?? null;
}

/** A new organisation managed by `userId`, who joins it; answers its id. */
export async function insertOrg(q: Queryable, o: { name: string; slogan: string; userId: number }) {
  const [row] = await q.query<{ id: number }>(
    'INSERT INTO organisations (name, slogan, user_id) VALUES ($1, $2, $3) RETURNING id',
    [o.name, o.slogan, o.userId],
  );
  await q.query('UPDATE users SET org_id = $1 WHERE id = $2', [row!.id, o.userId]);
  return row!.id;
}

/** An organisation row (the foundation's name for OrgRow). */
export type OrgRecord = OrgRow;

export const ORG_COLUMNS =
  'o.id, o.is_delete, o.name, o.slogan, o.logo, o.introduction, o.org_url, o.email, o.address, o.contact, o.root_dep_id, o.user_id';

/** The organisation an account works inside (users.org_id), or null. */
export const orgOfUser = accountOrgOf;
