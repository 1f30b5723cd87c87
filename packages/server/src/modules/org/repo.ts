/** Organisations: the rows of migration 0022 (SQL only; who may see one is modules/access/orgs.ts). */
import { first, type Queryable } from '../../db/index.ts';

export interface OrgRecord {
  id: number;
  is_delete: boolean;
  name: string;
  slogan: string;
  logo: string;
  introduction: string;
  org_url: string;
  email: string;
  address: string;
  contact: string;
  root_dep_id: number | null;
  user_id: number | null;
}

export const ORG_COLUMNS =
  'o.id, o.is_delete, o.name, o.slogan, o.logo, o.introduction, o.org_url, o.email, o.address, o.contact, o.root_dep_id, o.user_id';

export function findOrg(q: Queryable, id: number) {
  return first<OrgRecord>(q, `SELECT ${ORG_COLUMNS} FROM organisations o WHERE o.id = $1`, [id]);
}

/** The organisation an account works inside (users.org_id), or null. */
export async function orgOfUser(q: Queryable, userId: number) {
  const r = await first<{ org_id: number | null }>(q, 'SELECT org_id FROM users WHERE id = $1', [userId]);
  return r?.org_id ?? null;
}
