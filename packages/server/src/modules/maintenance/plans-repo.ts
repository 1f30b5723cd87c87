/**
 * Every statement of planned maintenance (计划保养, issue 18): the plans, where each stands per
 * target, the scheduler's due list and claim, and the checklist of the orders they open.
 */
import {
  OPEN_STATUSES,
  PLAN_DUE_SOON_DAYS,
  RECORD_STATUS,
  TRIGGER_KINDS,
  type AssigneeRow,
  type ChecklistItem,
  type PlanRow,
} from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, fromLocal, likeSql, localTime, selectPage } from '../../db/sql.ts';
import type { Patchable } from '../../db/update.ts';
import { accountSeen, toiletOrDeviceSeen } from '../access/visible-repo.ts';

const OPEN = `(${OPEN_STATUSES.join(', ')})`;

export const PLANS: Patchable<
  | 'name'
  | 'trigger'
  | 'every'
  | 'starts_at'
  | 'response_hours'
  | 'assignee_id'
  | 'team_id'
  | 'checklist'
  | 'enabled'
  | 'note'
  | 'is_delete'
> = {
  table: 'maintenance_plans',
  columns: [
    'name',
    'trigger',
    'every',
    'starts_at',
    'response_hours',
    'assignee_id',
    'team_id',
    'checklist',
    'enabled',
    'note',
    'is_delete',
  ],
  expr: { checklist: (p) => `${p}::text[]`, starts_at: (p) => fromLocal(`${p}::text`) },
};

/** A plan as stored (owner, what it covers, the edit form's fields). */
export interface StoredPlan {
  id: number;
  is_delete: boolean;
  user_id: number;
  name: string;
  equipment_type_id: number;
  device_id: number | null;
  toilet_id: number | null;
  trigger: string;
  every: number;
  starts_at: string;
  response_hours: number;
  assignee_id: number | null;
  team_id: number | null;
  checklist: string[];
  enabled: boolean;
  note: string;
}

export function findPlan(q: Queryable, id: number) {
  return first<StoredPlan>(
    q,
    `SELECT id, is_delete, user_id, name, equipment_type_id, device_id, toilet_id, trigger, every,
            ${localTime('starts_at')} AS starts_at, response_hours, assignee_id, team_id, checklist, enabled, note
       FROM maintenance_plans WHERE id = $1`,
    [id],
  );
}

/**
 * A plan (`alias`) is seen with its device or toilet; a plan over a whole equipment type by
 * its creator and the accounts above it (its targets are the creator's devices).
 */
function planSeen(w: Params, scope: string, alias: string, many = false) {
  if (scope === '/') return 'true';
  return `(CASE WHEN ${alias}.device_id IS NULL AND ${alias}.toilet_id IS NULL
      THEN ${ownerUnder(w, scope, alias)} ELSE ${toiletOrDeviceSeen(w, scope, alias, many)} END)`;
}

/** The plan's creator is in the scope's subtree (the caller created it or is above its creator). */
const ownerUnder = (w: Params, scope: string, alias: string) =>
  scope === '/'
    ? 'true'
    : `(SELECT o.path FROM users o WHERE o.id = ${alias}.user_id) LIKE ${w.p(scope)} || '%'`;

export async function planVisible(q: Queryable, id: number, scope: string) {
  const w = new Params();
  const r = await first<{ ok: boolean }>(
    q,
    `SELECT true AS ok FROM maintenance_plans pl WHERE pl.id = ${w.p(id)} AND NOT pl.is_delete AND ${planSeen(w, scope, 'pl')}`,
    w.values,
  );
  return r !== undefined;
}

/**
 * Every target of plan `pl` (an alias of maintenance_plans in the enclosing query) with where
 * it stands: `since` (its last order, or the plan's start), `next_due` (days plans), `used`
 * (usage plans: what its devices reported since, from telemetry_hourly in whole hours after
 * `since`) and whether the order it opened last is still open.
 */
function targetsOf(w: Params) {
  const kinds = (t: keyof typeof TRIGGER_KINDS) => `${w.p(TRIGGER_KINDS[t])}::text[]`;
  const uses = ['male', 'female', 'others']
    .map((g) => `coalesce((h.sums->>'${g}_times')::float8, 0)`)
    .join(' + ');
  const level = `(h.sums->>'liquid')::float8 / nullif((h.counts->>'liquid')::float8, 0)`;
  return `SELECT x.device_id, x.toilet_id, st.last_at, st.record_id,
        coalesce(st.last_at, pl.starts_at) AS since,
        CASE WHEN pl.trigger = 'days' THEN
          CASE WHEN st.last_at IS NULL THEN pl.starts_at ELSE st.last_at + make_interval(days => pl.every) END
        END AS next_due,
        m.used,
        EXISTS (SELECT 1 FROM maintenance_records r
                 WHERE r.id = st.record_id AND NOT r.is_delete AND r.status IN ${OPEN}) AS open
      FROM (SELECT pl.device_id AS device_id, 0 AS toilet_id WHERE pl.device_id IS NOT NULL
            UNION ALL SELECT 0, pl.toilet_id WHERE pl.toilet_id IS NOT NULL
            UNION ALL SELECT va.device_id, 0 FROM device_access va
                       JOIN equipment_types e ON e.id = pl.equipment_type_id
                      WHERE pl.device_id IS NULL AND pl.toilet_id IS NULL
                        AND va.user_id = pl.user_id AND va.live AND va.kind = e.code) x
      LEFT JOIN maintenance_plan_targets st
        ON st.plan_id = pl.id AND st.device_id = x.device_id AND st.toilet_id = x.toilet_id
      CROSS JOIN LATERAL (
        SELECT CASE pl.trigger WHEN 'hours' THEN count(DISTINCT u.hour)::float8
                               WHEN 'uses' THEN coalesce(sum(u.uses), 0)::float8
                               WHEN 'liquid' THEN coalesce(sum(greatest(u.prev - u.cur, 0)), 0)::float8 END AS used
          FROM (SELECT h.hour, ${uses} AS uses, ${level} AS cur,
                       lag(${level}) OVER (PARTITION BY h.device_id ORDER BY h.hour) AS prev
                  FROM telemetry_hourly h
                 WHERE pl.trigger <> 'days' AND h.hour >= coalesce(st.last_at, pl.starts_at)
                   AND h.device_id IN (
                     SELECT x.device_id WHERE x.device_id <> 0
                     UNION ALL SELECT dv.id FROM devices dv
                      WHERE x.toilet_id <> 0 AND NOT dv.is_delete
                        AND (dv.toilet_id = x.toilet_id
                             OR dv.id = (SELECT tt.gateway_id FROM toilets tt WHERE tt.id = x.toilet_id))
                        AND dv.kind = ANY(CASE pl.trigger WHEN 'hours' THEN ${kinds('hours')}
                                                          WHEN 'uses' THEN ${kinds('uses')}
                                                          ELSE ${kinds('liquid')} END))) u) m`;
}

/** The list row's columns over plan `pl` and its targets' aggregate `a`. */
const PLAN_COLUMNS = `pl.id, pl.name, pl.equipment_type_id, e.name AS equipment_type_name, pl.device_id,
  coalesce(d.ser_num, '') AS ser_num, pl.toilet_id, coalesce(t.name, '') AS toilet_name, pl.trigger, pl.every,
  ${localTime('pl.starts_at')} AS starts_at, pl.response_hours, pl.assignee_id,
  coalesce(au.user_name, '') AS assignee_name, pl.team_id, coalesce(tm.name, '') AS team_name, pl.checklist, pl.enabled, pl.note, pl.user_id,
  ou.user_name, pl.is_delete, pl.created_at AS created`;

export interface PlanFilter {
  scope: string;
  many?: boolean;
  keywords?: string;
  due?: 'week' | 'overdue';
  trigger?: string;
  equipment_type_id?: number;
  toilet_id?: number;
  device_id?: number;
  enabled?: boolean;
}

export function listPlans(q: Queryable, f: PlanFilter & { limit: number; offset: number }) {
  const w = new Params();
  const soon = `interval '${PLAN_DUE_SOON_DAYS} days'`;
  const plans = `(SELECT ${PLAN_COLUMNS}, a.targets, a.next_due, a.progress, a.last_opened,
        (SELECT count(*)::int FROM maintenance_records r
          WHERE r.plan_id = pl.id AND NOT r.is_delete AND r.status IN ${OPEN}) AS open_orders,
        (EXISTS (SELECT 1 FROM maintenance_records r WHERE r.plan_id = pl.id AND NOT r.is_delete
                   AND r.status IN ${OPEN} AND r.due_at < now())
          OR coalesce(pl.enabled AND a.next_due < now() - interval '1 day', false)) AS overdue
      FROM maintenance_plans pl
      JOIN equipment_types e ON e.id = pl.equipment_type_id
      JOIN users ou ON ou.id = pl.user_id
      LEFT JOIN devices d ON d.id = pl.device_id
      LEFT JOIN toilets t ON t.id = pl.toilet_id
      LEFT JOIN users au ON au.id = pl.assignee_id
      LEFT JOIN maintenance_teams tm ON tm.id = pl.team_id
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS targets, min(tg.next_due) AS next_due,
               max(tg.used / pl.every) AS progress, max(tg.last_at) AS last_opened
          FROM (${targetsOf(w)}) tg) a) p`;
  const cond = ['NOT p.is_delete', planSeen(w, f.scope, 'p', f.many)];
  if (f.trigger) cond.push(`p.trigger = ${w.p(f.trigger)}`);
  if (f.equipment_type_id !== undefined) cond.push(`p.equipment_type_id = ${w.p(f.equipment_type_id)}`);
  if (f.toilet_id !== undefined) cond.push(`p.toilet_id = ${w.p(f.toilet_id)}`);
  if (f.device_id !== undefined) cond.push(`p.device_id = ${w.p(f.device_id)}`);
  if (f.enabled !== undefined) cond.push(`p.enabled = ${w.p(f.enabled)}`);
  if (f.keywords) cond.push(likeSql(w, ['p.name', 'p.ser_num', 'p.toilet_name', 'p.note'], f.keywords));
  const dueSoon = `(p.overdue OR coalesce(p.next_due <= now() + ${soon} OR p.progress >= 0.8, false))`;
  if (f.due === 'overdue') cond.push('p.overdue');
  if (f.due === 'week') cond.push(dueSoon);
  const where = cond.join(' AND ');
  const countValues = [...w.values];
  const editable = ownerUnder(w, f.scope, 'p');
  return selectPage<PlanRow>(q, w, f, {
    list: (page) => `SELECT p.id, p.name, p.equipment_type_id, p.equipment_type_name, p.device_id, p.ser_num,
        p.toilet_id, p.toilet_name, p.trigger, p.every, p.starts_at, p.response_hours, p.assignee_id,
        p.assignee_name, p.team_id, p.team_name, p.checklist, p.enabled, p.note, p.user_id, p.user_name, ${editable} AS editable,
        p.targets, CASE WHEN p.next_due IS NULL THEN NULL ELSE ${localTime('p.next_due')} END AS next_due_at,
        CASE WHEN p.trigger = 'days' THEN NULL ELSE round(coalesce(p.progress, 0)::numeric, 3)::float8 END AS progress,
        ${dueSoon} AS due_soon, p.overdue, p.open_orders,
        CASE WHEN p.last_opened IS NULL THEN NULL ELSE ${localTime('p.last_opened')} END AS last_opened_at,
        ${localTime('p.created')} AS created_at
      FROM ${plans} WHERE ${where} ORDER BY p.overdue DESC, p.next_due NULLS LAST, p.id DESC ${page}`,
    where,
    countFrom: plans,
    countValues,
  });
}

export function insertPlan(
  q: Queryable,
  v: Omit<StoredPlan, 'id' | 'is_delete' | 'starts_at'> & { starts_at: string | null },
) {
  return first<{ id: number }>(
    q,
    `INSERT INTO maintenance_plans (user_id, name, equipment_type_id, device_id, toilet_id, trigger, every,
        starts_at, response_hours, assignee_id, checklist, enabled, note, team_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce(${fromLocal('$8::text')}, now()), $9, $10, $11::text[], $12, $13, $14)
     RETURNING id`,
    [
      v.user_id,
      v.name,
      v.equipment_type_id,
      v.device_id,
      v.toilet_id,
      v.trigger,
      v.every,
      v.starts_at,
      v.response_hours,
      v.assignee_id,
      v.checklist,
      v.enabled,
      v.note,
      v.team_id,
    ],
  ).then((r) => r!.id);
}

/** A target due now: the plan's fields an order needs, and the claim token (record_id as read). */
export interface DueTarget {
  plan_id: number;
  device_id: number;
  toilet_id: number;
  seen_record_id: number | null;
  user_id: number;
  name: string;
  equipment_type_id: number;
  trigger: string;
  every: number;
  used: number | null;
  response_hours: number;
  /** The plan's person, or its team's lead. */
  assignee_id: number | null;
  /** A team plan's live team, its name and members (the lead among them). */
  team_id: number | null;
  team_name: string;
  members: number[];
  checklist: string[];
  ser_num: string;
  subject_toilet_id: number | null;
}

/**
 * The targets of live, enabled plans of live accounts that are due now and have no open order
 * from their last period (at most `limit`, the oldest plans first).
 */
export function dueTargets(q: Queryable, limit: number) {
  const w = new Params();
  return q.query<DueTarget>(
    `SELECT pl.id AS plan_id, tg.device_id, tg.toilet_id, tg.record_id AS seen_record_id, pl.user_id, pl.name,
            pl.equipment_type_id, pl.trigger, pl.every, tg.used, pl.response_hours,
            coalesce(pl.assignee_id, tm.lead_id) AS assignee_id, tm.id AS team_id, coalesce(tm.name, '') AS team_name,
            coalesce(tm.members, '{}') AS members, pl.checklist, coalesce(d.ser_num, '') AS ser_num,
            CASE WHEN tg.toilet_id <> 0 THEN tg.toilet_id ELSE coalesce(d.toilet_id, g.toilet_id) END AS subject_toilet_id
       FROM maintenance_plans pl
       JOIN users u ON u.id = pl.user_id AND NOT u.is_delete
       CROSS JOIN LATERAL (${targetsOf(w)}) tg
       LEFT JOIN devices d ON d.id = tg.device_id
       LEFT JOIN devices g ON g.id = d.gateway_id
       LEFT JOIN maintenance_teams tm ON tm.id = pl.team_id AND NOT tm.is_delete
      WHERE NOT pl.is_delete AND pl.enabled AND NOT tg.open
        AND (tg.device_id = 0 OR NOT d.is_delete)
        AND (tg.toilet_id = 0 OR EXISTS (SELECT 1 FROM toilets t WHERE t.id = tg.toilet_id AND NOT t.is_delete))
        AND CASE WHEN pl.trigger = 'days' THEN tg.next_due <= now() ELSE tg.used >= pl.every END
      ORDER BY pl.id LIMIT ${w.p(limit)}`,
    w.values,
  );
}

/**
 * Claims a due target for this run: restarts its period now, but only if its last order is
 * still the one the due list read (`seen`). A second server copy that read the same list
 * waits for the first one's transaction and then finds another order there: false.
 */
export async function claimTarget(
  q: Queryable,
  t: { plan_id: number; device_id: number; toilet_id: number; seen_record_id: number | null },
) {
  const r = await q.query(
    `INSERT INTO maintenance_plan_targets AS st (plan_id, device_id, toilet_id, last_at)
     VALUES ($1, $2, $3, now())
     ON CONFLICT (plan_id, device_id, toilet_id) DO UPDATE SET last_at = now()
       WHERE st.record_id IS NOT DISTINCT FROM $4::int
     RETURNING st.plan_id`,
    [t.plan_id, t.device_id, t.toilet_id, t.seen_record_id],
  );
  return r.length > 0;
}

export function setTargetRecord(
  q: Queryable,
  t: { plan_id: number; device_id: number; toilet_id: number },
  recordId: number,
) {
  return q.query(
    `UPDATE maintenance_plan_targets SET record_id = $4 WHERE plan_id = $1 AND device_id = $2 AND toilet_id = $3`,
    [t.plan_id, t.device_id, t.toilet_id, recordId],
  );
}

/** Links a new record to its plan (and the plan's team) and gives it the plan's checklist. */
export function setRecordPlan(
  q: Queryable,
  recordId: number,
  planId: number,
  steps: string[],
  teamId: number | null,
) {
  return q.query(
    `UPDATE maintenance_records SET plan_id = $2, team_id = $4,
        checklist = (SELECT coalesce(jsonb_agg(jsonb_build_object('step', s, 'done', false, 'by', '', 'at', '')
                                                ORDER BY n), '[]') FROM unnest($3::text[]) WITH ORDINALITY AS x (s, n))
      WHERE id = $1`,
    [recordId, planId, steps, teamId],
  );
}

/** The plan and checklist of a record. */
export async function recordChecklist(q: Queryable, recordId: number) {
  const r = await first<{ plan_id: number | null; checklist: ChecklistItem[] }>(
    q,
    'SELECT plan_id, checklist FROM maintenance_records WHERE id = $1',
    [recordId],
  );
  return r ?? { plan_id: null, checklist: [] };
}

/**
 * Ticks (or unticks) step `n` of an open record's checklist, naming who and when; answers
 * false when the record moved on or has no such step.
 */
export async function tickStep(q: Queryable, recordId: number, n: number, done: boolean, by: string) {
  const r = await q.query(
    `UPDATE maintenance_records
        SET checklist = jsonb_set(checklist, ARRAY[$5::text],
              (checklist -> $2::int) || jsonb_build_object('done', $3::boolean,
                'by', CASE WHEN $3::boolean THEN $4::text ELSE '' END,
                'at', CASE WHEN $3::boolean THEN ${localTime('now()')} ELSE '' END)),
            updated_at = now()
      WHERE id = $1 AND NOT is_delete AND status = ${RECORD_STATUS.working}
        AND jsonb_array_length(checklist) > $2::int
      RETURNING id`,
    [recordId, n, done, by, String(n)],
  );
  return r.length > 0;
}

/** Steps of a record's checklist not ticked yet. */
export async function openSteps(q: Queryable, recordId: number) {
  const r = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM maintenance_records r, jsonb_array_elements(r.checklist) s
      WHERE r.id = $1 AND NOT (s->>'done')::boolean`,
    [recordId],
  );
  return r!.n;
}

/** Live plans that use an equipment type (a type in use cannot be deleted). */
export async function plansUsing(q: Queryable, equipmentTypeId: number) {
  const r = await first<{ n: number }>(
    q,
    'SELECT count(*)::int AS n FROM maintenance_plans WHERE equipment_type_id = $1 AND NOT is_delete',
    [equipmentTypeId],
  );
  return r!.n;
}

/** Live accounts in the scope's subtree (whole-type plans' assignees), nearest first. */
export function accountsUnder(q: Queryable, scope: string, keywords?: string) {
  const w = new Params();
  const cond = ['NOT u.is_delete', accountSeen(w, scope, 'u')];
  if (keywords) cond.push(likeSql(w, ['u.user_name', "coalesce(i.company_name, '')"], keywords));
  return q.query<AssigneeRow>(
    `SELECT u.id, u.user_name, coalesce(i.company_name, '') AS company_name
       FROM users u LEFT JOIN user_info i ON i.user_id = u.id AND NOT i.is_delete
      WHERE ${cond.join(' AND ')} ORDER BY length(u.path), u.id LIMIT 50`,
    w.values,
  );
}
