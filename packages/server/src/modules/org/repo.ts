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
