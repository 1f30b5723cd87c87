import type { DockingInterface } from '@se/core';
import type { Patchable } from '../../db/update.ts';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, likeSql, localTime, selectPage } from '../../db/sql.ts';

const ROW = `d.id, d.name, d.url, d.token, d.user_id, u.user_name, d.is_delete,
  d.push_reports, d.push_alarms, d.push_comments, ${localTime('d.created_at')} AS created_at`;

export function findDocking(q: Queryable, id: number) {
  return first<DockingInterface>(
    q,
    `SELECT ${ROW} FROM docking_interfaces d JOIN users u ON u.id = d.user_id WHERE d.id = $1`,
    [id],
  );
}

export async function listDocking(
  q: Queryable,
  f: { userId: number; keywords?: string; token?: string; limit: number; offset: number },
) {
  const w = new Params();
  const cond = [`NOT d.is_delete`, `d.user_id = ${w.p(f.userId)}`];
  if (f.keywords) {
    cond.push(likeSql(w, ['d.name', 'd.url'], f.keywords));
  }
  if (f.token) cond.push(`d.token = ${w.p(f.token)}`);
  const where = cond.join(' AND ');
  return selectPage<DockingInterface>(q, w, f, {
    list: (page) =>
      `SELECT ${ROW} FROM docking_interfaces d JOIN users u ON u.id = d.user_id
        WHERE ${where} ORDER BY d.id DESC ${page}`,
    where,
    countFrom: 'docking_interfaces d',
  });
}

export async function insertDocking(
  q: Queryable,
  v: {
    name: string;
    url: string;
    token: string;
    user_id: number;
    push_reports?: boolean;
    push_alarms?: boolean;
    push_comments?: boolean;
  },
) {
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO docking_interfaces (name, url, token, user_id, push_reports, push_alarms, push_comments)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [v.name, v.url, v.token, v.user_id, !!v.push_reports, !!v.push_alarms, !!v.push_comments],
  );
  return r!.id;
}

/** Patched by the service (modules/audit/mutate.ts). */
export const DOCKING: Patchable<
  'name' | 'url' | 'token' | 'user_id' | 'is_delete' | 'push_reports' | 'push_alarms' | 'push_comments'
> = {
  table: 'docking_interfaces',
  columns: ['name', 'url', 'token', 'user_id', 'is_delete', 'push_reports', 'push_alarms', 'push_comments'],
};
