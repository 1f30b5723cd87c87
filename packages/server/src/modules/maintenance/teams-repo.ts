/**
 * Every statement of the maintenance teams (维修班组, issue 18): a team is its creator's, seen
 * and changed by it and the accounts above it; members are accounts below the creator.
 */
import { OPEN_STATUSES, type TeamRow } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, likeSql, localTime, selectPage } from '../../db/sql.ts';
import type { Patchable } from '../../db/update.ts';
import { accountUnder } from '../access/visible-repo.ts';

const OPEN = `(${OPEN_STATUSES.join(', ')})`;

export const TEAMS: Patchable<'name' | 'lead_id' | 'members' | 'note' | 'is_delete'> = {
  table: 'maintenance_teams',
  columns: ['name', 'lead_id', 'members', 'note', 'is_delete'],
  expr: { members: (p) => `${p}::int[]` },
};

export interface StoredTeam {
  id: number;
  is_delete: boolean;
  user_id: number;
  name: string;
  lead_id: number;
  members: number[];
  note: string;
}

export function findTeam(q: Queryable, id: number) {
  return first<StoredTeam>(
    q,
    'SELECT id, is_delete, user_id, name, lead_id, members, note FROM maintenance_teams WHERE id = $1',
    [id],
  );
}

/** The team's creator is in the scope's subtree (the caller made it or is above its creator). */
const ownerUnder = (w: Params, scope: string, alias: string) =>
  scope === '/'
    ? 'true'
    : `(SELECT o.path FROM users o WHERE o.id = ${alias}.user_id) LIKE ${w.p(scope)} || '%'`;

/** Whether the scope sees live team `id`. */
export async function teamVisible(q: Queryable, id: number, scope: string) {
  const w = new Params();
  const r = await first<{ ok: boolean }>(
    q,
    `SELECT true AS ok FROM maintenance_teams tm WHERE tm.id = ${w.p(id)} AND NOT tm.is_delete
        AND ${ownerUnder(w, scope, 'tm')}`,
    w.values,
  );
  return r !== undefined;
}

export function listTeams(
  q: Queryable,
  f: { scope: string; keywords?: string; limit: number; offset: number },
) {
  const w = new Params();
  const cond = ['NOT tm.is_delete', ownerUnder(w, f.scope, 'tm')];
  if (f.keywords) cond.push(likeSql(w, ['tm.name', 'tm.note'], f.keywords));
  const where = cond.join(' AND ');
  return selectPage<TeamRow>(q, w, f, {
    list: (page) => `SELECT tm.id, tm.name, tm.lead_id, coalesce(lu.user_name, '') AS lead_name,
        (SELECT coalesce(jsonb_agg(jsonb_build_object('id', mu.id, 'user_name', mu.user_name) ORDER BY m.n), '[]')
           FROM unnest(tm.members) WITH ORDINALITY AS m (id, n) JOIN users mu ON mu.id = m.id) AS members,
        tm.note, tm.user_id, ou.user_name,
        (SELECT count(*)::int FROM maintenance_plans pl WHERE pl.team_id = tm.id AND NOT pl.is_delete) AS plan_count,
        (SELECT count(*)::int FROM maintenance_records r
          WHERE r.team_id = tm.id AND NOT r.is_delete AND r.status IN ${OPEN}) AS open_orders,
        ${localTime('tm.created_at')} AS created_at
      FROM maintenance_teams tm JOIN users ou ON ou.id = tm.user_id LEFT JOIN users lu ON lu.id = tm.lead_id
      WHERE ${where} ORDER BY tm.id DESC ${page}`,
    where,
    countFrom: 'maintenance_teams tm',
  });
}

export function insertTeam(
  q: Queryable,
  v: { user_id: number; name: string; lead_id: number; members: number[]; note: string },
) {
  return first<{ id: number }>(
    q,
    `INSERT INTO maintenance_teams (user_id, name, lead_id, members, note)
     VALUES ($1, $2, $3, $4::int[], $5) RETURNING id`,
    [v.user_id, v.name, v.lead_id, v.members, v.note],
  ).then((r) => r!.id);
}

/** How many of `ids` are live accounts the owner manages (itself or below it). */
export async function accountsUnderOwner(q: Queryable, ownerId: number, ids: number[]) {
  const r = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM users u, users o
      WHERE o.id = $1 AND u.id = ANY($2::int[]) AND NOT u.is_delete AND ${accountUnder('u', 'o.path')}`,
    [ownerId, ids],
  );
  return r!.n;
}

/** Live plans that go to a team (a team in use cannot be deleted). */
export async function plansOfTeam(q: Queryable, teamId: number) {
  const r = await first<{ n: number }>(
    q,
    'SELECT count(*)::int AS n FROM maintenance_plans WHERE team_id = $1 AND NOT is_delete',
    [teamId],
  );
  return r!.n;
}
