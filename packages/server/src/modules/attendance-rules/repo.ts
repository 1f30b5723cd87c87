import type { AddSchemeBody, HolidayRow, DayRecordRow, SchemeRow, SummaryEmployeeRow } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, likeSql, localTime, selectPage } from '../../db/sql.ts';
import type { Patchable } from '../../db/update.ts';
import type { CalendarKind, DayResult, SchemeRule } from './compute.ts';

/** Every statement of attendance rules: schemes, calendar, daily results, summaries. */

const day = (col: string) => `to_char(${col}, 'YYYY-MM-DD')`;

// ---- schemes

const SCHEME_ROW = `s.id, s.name, s.segments, s.late_grace, s.early_grace, s.earliest_in, s.latest_out,
  s.workdays, s.follow_holidays, ${localTime('s.created_at')} AS created_at,
  coalesce((SELECT json_agg(json_build_object('id', d.id, 'name', d.name) ORDER BY d.path)
     FROM att_department_schemes ds JOIN att_departments d ON d.id = ds.department_id
     WHERE ds.scheme_id = s.id AND NOT d.is_delete), '[]'::json) AS departments,
  (SELECT count(*)::int FROM att_employees e WHERE e.scheme_id = s.id AND NOT e.is_delete) AS employee_count`;

export async function listSchemes(
  q: Queryable,
  f: { org: number; keywords?: string; limit: number; offset: number },
) {
  const w = new Params();
  const cond = [`s.org_id = ${w.p(f.org)}`, 'NOT s.is_delete'];
  if (f.keywords) cond.push(likeSql(w, ['s.name'], f.keywords));
  const where = cond.join(' AND ');
  return selectPage<SchemeRow>(q, w, f, {
    list: (page) => `SELECT ${SCHEME_ROW} FROM att_schemes s WHERE ${where} ORDER BY s.id DESC ${page}`,
    where,
    countFrom: 'att_schemes s',
  });
}

export type SchemeFull = SchemeRow & { is_delete: boolean; org_id: number };

export const findScheme = (q: Queryable, org: number, id: number) =>
  first<SchemeFull>(
    q,
    `SELECT ${SCHEME_ROW}, s.is_delete, s.org_id FROM att_schemes s WHERE s.id = $1 AND s.org_id = $2 AND NOT s.is_delete`,
    [id, org],
  );

export async function insertScheme(
  q: Queryable,
  org: number,
  v: Omit<AddSchemeBody, 'segments'> & { segments: string },
) {
  const [r] = await q.query<{ id: number }>(
    `INSERT INTO att_schemes (org_id, name, segments, late_grace, early_grace, earliest_in, latest_out, workdays, follow_holidays)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8::int[], $9) RETURNING id`,
    [
      org,
      v.name,
      v.segments,
      v.late_grace,
      v.early_grace,
      v.earliest_in,
      v.latest_out,
      v.workdays,
      v.follow_holidays,
    ],
  );
  return r!.id;
}

export const SCHEMES: Patchable<
  | 'name'
  | 'segments'
  | 'late_grace'
  | 'early_grace'
  | 'earliest_in'
  | 'latest_out'
  | 'workdays'
  | 'follow_holidays'
  | 'is_delete'
> = {
  table: 'att_schemes',
  columns: [
    'name',
    'segments',
    'late_grace',
    'early_grace',
    'earliest_in',
    'latest_out',
    'workdays',
    'follow_holidays',
    'is_delete',
  ],
  expr: { segments: (p) => `${p}::jsonb`, workdays: (p) => `${p}::int[]` },
};

/** Ids among `ids` that are live departments of the organisation. */
export async function orgDepartments(q: Queryable, org: number, ids: number[]) {
  const rows = await q.query<{ id: number }>(
    `SELECT id FROM att_departments WHERE id = ANY($1::int[]) AND org_id = $2 AND NOT is_delete`,
    [ids, org],
  );
  return rows.map((r) => r.id);
}

/** Ids among `ids` that are employees of the organisation (leavers too: their history). */
export async function orgEmployees(q: Queryable, org: number, ids: number[]) {
  const rows = await q.query<{ id: number }>(
    `SELECT id FROM att_employees WHERE id = ANY($1::int[]) AND org_id = $2 AND NOT is_delete`,
    [ids, org],
  );
  return rows.map((r) => r.id);
}

export async function setDepartmentSchemes(q: Queryable, org: number, ids: number[], scheme: number | null) {
  if (!ids.length) return;
  if (scheme === null) {
    await q.query(`DELETE FROM att_department_schemes WHERE department_id = ANY($1::int[]) AND org_id = $2`, [
      ids,
      org,
    ]);
    return;
  }
  await q.query(
    `INSERT INTO att_department_schemes (department_id, org_id, scheme_id)
     SELECT unnest($1::int[]), $2, $3
     ON CONFLICT (department_id) DO UPDATE SET scheme_id = EXCLUDED.scheme_id`,
    [ids, org, scheme],
  );
}

export async function setEmployeeSchemes(q: Queryable, org: number, ids: number[], scheme: number | null) {
  if (!ids.length) return;
  await q.query(
    `UPDATE att_employees SET scheme_id = $3, updated_at = now() WHERE id = ANY($1::int[]) AND org_id = $2`,
    [ids, org, scheme],
  );
}

/** A deleted scheme leaves the departments and employees that had it. */
export async function dropSchemeAssignments(q: Queryable, org: number, scheme: number) {
  await q.query(`DELETE FROM att_department_schemes WHERE scheme_id = $1 AND org_id = $2`, [scheme, org]);
  await q.query(`UPDATE att_employees SET scheme_id = NULL WHERE scheme_id = $1 AND org_id = $2`, [
    scheme,
    org,
  ]);
}

// ---- calendar

/** The organisation's calendar between two days: its own entries over the national ones. */
export async function calendar(q: Queryable, org: number, from: string, to: string) {
  return q.query<HolidayRow>(
    `SELECT DISTINCT ON (h.day) ${day('h.day')} AS day, h.kind, h.name,
            CASE WHEN h.org_id IS NULL THEN 'national' ELSE 'org' END AS source
       FROM att_holidays h
      WHERE (h.org_id = $1 OR h.org_id IS NULL) AND h.day BETWEEN $2::date AND $3::date
      ORDER BY h.day, h.org_id NULLS LAST`,
    [org, from, to],
  );
}

export const findOrgHoliday = (q: Queryable, org: number, d: string) =>
  first<{ id: number; kind: string; name: string }>(
    q,
    `SELECT id, kind, name FROM att_holidays WHERE org_id = $1 AND day = $2::date`,
    [org, d],
  );

export const HOLIDAYS: Patchable<'kind' | 'name'> = { table: 'att_holidays', columns: ['kind', 'name'] };

export async function insertHoliday(q: Queryable, org: number, d: string, kind: string, name: string) {
  const [r] = await q.query<{ id: number }>(
    `INSERT INTO att_holidays (org_id, day, kind, name) VALUES ($1, $2::date, $3, $4) RETURNING id`,
    [org, d, kind, name],
  );
  return r!.id;
}

export async function deleteHoliday(q: Queryable, id: number) {
  await q.query(`DELETE FROM att_holidays WHERE id = $1`, [id]);
}

// ---- recomputation inputs

/** Marks results to recompute: the organisation's (from a day on), or some employees'. */
export async function markStale(
  q: Queryable,
  org: number,
  opts: { from?: string; employees?: number[] } = {},
) {
  const w = new Params();
  const cond = [`org_id = ${w.p(org)}`, 'NOT stale'];
  if (opts.from) cond.push(`day >= ${w.p(opts.from)}::date`);
  if (opts.employees) cond.push(`employee_id = ANY(${w.p(opts.employees)}::int[])`);
  await q.query(`UPDATE att_day_results SET stale = true WHERE ${cond.join(' AND ')}`, w.values);
}

/** Marks (employee, day) pairs to recompute: one statement for a batch of punches. */
export async function markDaysStale(q: Queryable, employees: number[], days: string[]) {
  if (!employees.length) return;
  await q.query(
    `UPDATE att_day_results r SET stale = true
       FROM unnest($1::int[], $2::date[]) AS p(employee_id, day)
      WHERE r.employee_id = p.employee_id AND r.day = p.day AND NOT r.stale`,
    [employees, days],
  );
}

/** The days between two that are not known to have every current employee's result. */
export async function uncoveredDays(q: Queryable, org: number, from: string, to: string) {
  const rows = await q.query<{ day: string }>(
    `SELECT ${day('g.d')} AS day FROM generate_series($2::date, $3::date, interval '1 day') AS g(d)
      WHERE NOT EXISTS (SELECT 1 FROM att_result_coverage c WHERE c.org_id = $1 AND c.day = g.d::date)`,
    [org, from, to],
  );
  return rows.map((r) => r.day);
}

export async function cover(q: Queryable, org: number, days: string[]) {
  if (!days.length) return;
  await q.query(
    `INSERT INTO att_result_coverage (org_id, day) SELECT $1, unnest($2::date[]) ON CONFLICT DO NOTHING`,
    [org, days],
  );
}

/**
 * The (employee, day) pairs that need computing: on `days` (not covered), a current
 * employee's day without a result (from the hire date on); between two days, a result
 * marked stale or a provisional one whose windows have closed by `now`.
 */
export async function pendingDays(
  q: Queryable,
  org: number,
  f: { days: string[]; from: string; to: string; employees?: number[]; now: number },
): Promise<{ employee_id: number; day: string }[]> {
  const w = new Params();
  const o = w.p(org);
  let missing = '';
  if (f.days.length) {
    const only = f.employees ? `AND e.id = ANY(${w.p(f.employees)}::int[])` : '';
    missing = `SELECT e.id AS employee_id, ${day('g.d')} AS day
         FROM att_employees e CROSS JOIN unnest(${w.p(f.days)}::date[]) AS g(d)
        WHERE e.org_id = ${o} AND NOT e.is_delete AND e.status = 1 ${only}
          AND (e.hire_date IS NULL OR e.hire_date <= g.d)
          AND NOT EXISTS (SELECT 1 FROM att_day_results r WHERE r.employee_id = e.id AND r.day = g.d)
       UNION ALL `;
  }
  const onlyR = f.employees ? `AND r.employee_id = ANY(${w.p(f.employees)}::int[])` : '';
  const range = `r.org_id = ${o} AND r.day BETWEEN ${w.p(f.from)}::date AND ${w.p(f.to)}::date ${onlyR}`;
  // Two arms, each on its partial index; UNION: a row both stale and settled is computed once.
  return q.query(
    `${missing}(SELECT r.employee_id, ${day('r.day')} AS day FROM att_day_results r WHERE r.stale AND ${range}
      UNION
      SELECT r.employee_id, ${day('r.day')} AS day FROM att_day_results r
       WHERE r.settles_at <= to_timestamp(${w.p(f.now)} / 1000.0) AND ${range})`,
    w.values,
  );
}

export interface EmployeeRules {
  id: number;
  department_id: number;
  scheme_id: number | null;
}

export const employeesRules = (q: Queryable, org: number, ids: number[]) =>
  q.query<EmployeeRules>(
    `SELECT id, department_id, scheme_id FROM att_employees WHERE org_id = $1 AND id = ANY($2::int[])`,
    [org, ids],
  );

/** The department tree's parent links and each department's own scheme. */
export const departmentsRules = (q: Queryable, org: number) =>
  q.query<{ id: number; parent_id: number | null; scheme_id: number | null }>(
    `SELECT d.id, d.parent_id, ds.scheme_id
       FROM att_departments d LEFT JOIN att_department_schemes ds ON ds.department_id = d.id
      WHERE d.org_id = $1`,
    [org],
  );

export const schemeRules = (q: Queryable, org: number) =>
  q.query<SchemeRule>(
    `SELECT id, segments, late_grace, early_grace, earliest_in, latest_out, workdays, follow_holidays
       FROM att_schemes WHERE org_id = $1 AND NOT is_delete`,
    [org],
  );

export async function calendarMap(q: Queryable, org: number, from: string, to: string) {
  const rows = await calendar(q, org, from, to);
  const m = new Map<string, CalendarKind>();
  for (const r of rows) if (r.kind !== 'normal') m.set(r.day, r.kind);
  return m;
}

/** The matched punches of employees between two instants (epoch ms). */
export async function punchesOf(q: Queryable, employees: number[], fromMs: number, toMs: number) {
  const rows = await q.query<{ id: number; employee_id: number; at: number }>(
    `SELECT id, employee_id, (extract(epoch FROM punched_at) * 1000)::float8 AS at
       FROM att_punches
      WHERE employee_id = ANY($1::int[]) AND punched_at >= to_timestamp($2 / 1000.0) AND punched_at < to_timestamp($3 / 1000.0)`,
    [employees, fromMs, toMs],
  );
  return rows.map((r) => ({ id: Number(r.id), employee_id: r.employee_id, at: Number(r.at) }));
}

export interface ComputedRow {
  employee_id: number;
  day: string;
  department_id: number;
  scheme_id: number | null;
  result: DayResult;
}

/**
 * Writes computed results, one statement for the batch. A corrected row keeps its corrected
 * values and takes only the new `computed`.
 */
export async function upsertResults(q: Queryable, org: number, rows: ComputedRow[]) {
  if (!rows.length) return;
  const computed = rows.map((r) =>
    JSON.stringify({
      status: r.result.status,
      late_minutes: r.result.late_minutes,
      early_minutes: r.result.early_minutes,
      missing: r.result.missing,
    }),
  );
  await q.query(
    `INSERT INTO att_day_results AS r (employee_id, day, org_id, department_id, scheme_id, status, due, present,
        late_minutes, early_minutes, missing, decided, computed, stale, computed_at, settles_at)
     SELECT e, d, $1, dep, s, st, du, pr, l, ea, m, dc, c, false, now(), to_timestamp(sa / 1000.0)
       FROM unnest($2::int[], $3::date[], $4::int[], $5::int[], $6::text[], $7::bool[], $8::bool[],
                   $9::int[], $10::int[], $11::int[], $12::jsonb[], $13::jsonb[], $14::float8[])
         AS x(e, d, dep, s, st, du, pr, l, ea, m, dc, c, sa)
     ON CONFLICT (employee_id, day) DO UPDATE SET
       settles_at = EXCLUDED.settles_at, department_id = EXCLUDED.department_id, scheme_id = EXCLUDED.scheme_id,
       decided = EXCLUDED.decided, computed = EXCLUDED.computed, stale = false, computed_at = now(),
       status = CASE WHEN r.corrected THEN r.status ELSE EXCLUDED.status END,
       due = CASE WHEN r.corrected THEN r.due ELSE EXCLUDED.due END,
       present = CASE WHEN r.corrected THEN r.present ELSE EXCLUDED.present END,
       late_minutes = CASE WHEN r.corrected THEN r.late_minutes ELSE EXCLUDED.late_minutes END,
       early_minutes = CASE WHEN r.corrected THEN r.early_minutes ELSE EXCLUDED.early_minutes END,
       missing = CASE WHEN r.corrected THEN r.missing ELSE EXCLUDED.missing END`,
    [
      org,
      rows.map((r) => r.employee_id),
      rows.map((r) => r.day),
      rows.map((r) => r.department_id),
      rows.map((r) => r.scheme_id),
      rows.map((r) => r.result.status),
      rows.map((r) => r.result.due),
      rows.map((r) => r.result.present),
      rows.map((r) => r.result.late_minutes),
      rows.map((r) => r.result.early_minutes),
      rows.map((r) => r.result.missing),
      rows.map((r) => JSON.stringify(r.result.decided)),
      computed,
      rows.map((r) => r.result.settles_at),
    ],
  );
}

// ---- records

const RECORD_FROM = `att_day_results r
  JOIN att_employees e ON e.id = r.employee_id
  LEFT JOIN att_departments dep ON dep.id = r.department_id
  LEFT JOIN att_schemes s ON s.id = r.scheme_id`;

const RECORD_ROW = `r.id, r.employee_id, e.name AS employee_name, e.number AS employee_number,
  r.department_id, coalesce(dep.name, '') AS department_name, ${day('r.day')} AS day,
  r.scheme_id, coalesce(s.name, '') AS scheme_name, r.status, r.late_minutes, r.early_minutes, r.missing,
  r.due, r.present, r.decided, r.corrected, r.note, r.computed`;

export interface RecordFilter {
  org: number;
  start: string;
  end: string;
  department_id?: number;
  employee_id?: number;
  keywords?: string;
  status?: string;
}

/** A department and every department below it, as a condition on `col`. */
const subtree = (w: Params, org: number, dep: number, col: string) =>
  `${col} IN (SELECT x.id FROM att_departments x, att_departments top
     WHERE top.id = ${w.p(dep)} AND top.org_id = ${w.p(org)} AND x.org_id = top.org_id AND x.path LIKE top.path || '%')`;

function recordWhere(w: Params, f: RecordFilter) {
  const cond = [`r.org_id = ${w.p(f.org)}`, `r.day BETWEEN ${w.p(f.start)}::date AND ${w.p(f.end)}::date`];
  if (f.department_id) cond.push(subtree(w, f.org, f.department_id, 'r.department_id'));
  if (f.employee_id) cond.push(`r.employee_id = ${w.p(f.employee_id)}`);
  if (f.status) {
    // 迟到/早退 also match a day that was both, or late with a missing punch.
    if (f.status === 'late') cond.push('r.due AND r.late_minutes > 0');
    else if (f.status === 'early') cond.push('r.due AND r.early_minutes > 0');
    else if (f.status === 'missing') cond.push(`r.due AND r.missing > 0`);
    else cond.push(`r.status = ${w.p(f.status)}`);
  }
  if (f.keywords) {
    cond.push(
      `r.employee_id IN (SELECT e2.id FROM att_employees e2 WHERE e2.org_id = r.org_id AND ${likeSql(w, ['e2.name', 'e2.number'], f.keywords)})`,
    );
  }
  return cond.join(' AND ');
}

type RawRecord = Omit<DayRecordRow, 'decided'> & {
  decided: { segment: number; kind: 'in' | 'out'; punch_id: number | null; at: number | null }[];
};

export async function listRecords(
  q: Queryable,
  f: RecordFilter & { limit: number; offset: number; exact?: boolean },
) {
  const w = new Params();
  const where = recordWhere(w, f);
  return selectPage<RawRecord>(q, w, f, {
    list: (page) =>
      `SELECT ${RECORD_ROW} FROM ${RECORD_FROM} WHERE ${where} ORDER BY r.day DESC, e.number, r.employee_id ${page}`,
    where,
    countFrom: 'att_day_results r',
  });
}

export const findRecord = (q: Queryable, org: number, employee: number, d: string) =>
  first<RawRecord & { stale: boolean }>(
    q,
    `SELECT ${RECORD_ROW}, r.stale FROM ${RECORD_FROM} WHERE r.org_id = $1 AND r.employee_id = $2 AND r.day = $3::date`,
    [org, employee, d],
  );

export const RESULTS: Patchable<
  'status' | 'late_minutes' | 'early_minutes' | 'missing' | 'due' | 'present' | 'corrected' | 'note'
> = {
  table: 'att_day_results',
  columns: ['status', 'late_minutes', 'early_minutes', 'missing', 'due', 'present', 'corrected', 'note'],
  touch: null,
};

/** Every punch of an employee in a window, with the terminal. */
export const employeePunches = (q: Queryable, employee: number, fromMs: number, toMs: number) =>
  q.query<{ id: number; punched_at: string; method: string; device_ser_num: string }>(
    `SELECT p.id, ${localTime('p.punched_at')} AS punched_at, p.method, coalesce(d.ser_num, '') AS device_ser_num
       FROM att_punches p LEFT JOIN devices d ON d.id = p.device_id
      WHERE p.employee_id = $1 AND p.punched_at >= to_timestamp($2 / 1000.0) AND p.punched_at < to_timestamp($3 / 1000.0)
      ORDER BY p.punched_at, p.id`,
    [employee, fromMs, toMs],
  );

// ---- summaries (read from the rollups migration 0043's triggers keep with the results)

/** The summary's counted figures, per employee or department. */
export const FIGURES = [
  'days_due',
  'days_present',
  'late_count',
  'late_minutes',
  'early_count',
  'early_minutes',
  'missing_count',
  'absent_count',
] as const;

export interface SummaryFilter {
  org: number;
  /** The month: its first day. */
  month: string;
  department_id?: number;
  keywords?: string;
}

function rollupWhere(w: Params, f: SummaryFilter, alias: string) {
  const cond = [`${alias}.org_id = ${w.p(f.org)}`];
  if (f.department_id) cond.push(subtree(w, f.org, f.department_id, `${alias}.department_id`));
  return cond;
}

export async function summaryByEmployee(
  q: Queryable,
  f: SummaryFilter & { limit: number; offset: number; exact?: boolean },
) {
  const w = new Params();
  const cond = [...rollupWhere(w, f, 'm'), `m.month = ${w.p(f.month)}::date`];
  const sums = [...FIGURES, 'rest_days', 'unscheduled_days']
    .map((k) => `sum(m.${k})::int AS ${k}`)
    .join(', ');
  const grouped = `SELECT m.employee_id, ${sums} FROM att_month_rollups m WHERE ${cond.join(' AND ')} GROUP BY m.employee_id`;
  const from = `(${grouped}) g JOIN att_employees e ON e.id = g.employee_id
      LEFT JOIN att_departments dep ON dep.id = e.department_id`;
  const ewhere = f.keywords ? likeSql(w, ['e.name', 'e.number'], f.keywords) : 'true';
  return selectPage<SummaryEmployeeRow>(q, w, f, {
    list: (page) =>
      `SELECT g.*, e.name AS employee_name, e.number AS employee_number, coalesce(dep.name, '') AS department_name
         FROM ${from} WHERE ${ewhere} ORDER BY e.number, e.id ${page}`,
    where: ewhere,
    countFrom: from,
  });
}

/** Each department's own figures (not yet with its sub-departments'). */
export const summaryByDepartment = (q: Queryable, f: SummaryFilter) => {
  const w = new Params();
  const cond = [...rollupWhere(w, f, 'm'), `m.month = ${w.p(f.month)}::date`, 'm.department_id <> 0'];
  const sums = FIGURES.map((k) => `sum(m.${k})::int AS ${k}`).join(', ');
  return q.query<{ department_id: number; employees: number } & Record<string, number>>(
    `SELECT m.department_id, count(*)::int AS employees, ${sums}
       FROM att_month_rollups m WHERE ${cond.join(' AND ')} GROUP BY m.department_id`,
    w.values,
  );
};

export const summaryByDay = (q: Queryable, f: SummaryFilter) => {
  const w = new Params();
  const cond = [
    ...rollupWhere(w, f, 'd'),
    `d.day >= ${w.p(f.month)}::date`,
    `d.day < (${w.p(f.month)}::date + interval '1 month')::date`,
  ];
  return q.query<{
    day: string;
    due: number;
    present: number;
    late: number;
    early: number;
    missing: number;
    absent: number;
  }>(
    `SELECT ${day('d.day')} AS day, sum(d.due)::int AS due, sum(d.present)::int AS present,
        sum(d.late)::int AS late, sum(d.early)::int AS early, sum(d.missing)::int AS missing,
        sum(d.absent)::int AS absent
       FROM att_day_rollups d WHERE ${cond.join(' AND ')} GROUP BY d.day ORDER BY d.day`,
    w.values,
  );
};

export const orgDepartmentTree = (q: Queryable, org: number) =>
  q.query<{ id: number; parent_id: number | null; name: string; path: string }>(
    `SELECT id, parent_id, name, path FROM att_departments WHERE org_id = $1 AND NOT is_delete ORDER BY path`,
    [org],
  );

export const departmentInOrg = (q: Queryable, org: number, id: number) =>
  first<{ id: number }>(q, `SELECT id FROM att_departments WHERE id = $1 AND org_id = $2 AND NOT is_delete`, [
    id,
    org,
  ]);

export const employeeInOrg = (q: Queryable, org: number, id: number) =>
  first<{ id: number; status: number; hire_date: string | null }>(
    q,
    `SELECT id, status, ${day('hire_date')} AS hire_date FROM att_employees WHERE id = $1 AND org_id = $2 AND NOT is_delete`,
    [id, org],
  );

/**
 * Marks the days of this transaction's new punches (and the day before each: a shift past
 * midnight) to recompute: one statement for the batch. New rows carry created_at = now(),
 * the transaction's start.
 */
export async function markNewPunchDaysStale(q: Queryable, devices: number[]) {
  await q.query(
    `UPDATE att_day_results r SET stale = true
       FROM (SELECT DISTINCT p.employee_id, ((p.punched_at AT TIME ZONE 'UTC') + interval '8 hours')::date AS d
               FROM att_punches p
              WHERE p.device_id = ANY($1::int[]) AND p.created_at = now() AND p.employee_id IS NOT NULL) n
      WHERE r.employee_id = n.employee_id AND (r.day = n.d OR r.day = n.d - 1) AND NOT r.stale`,
    [devices],
  );
}
