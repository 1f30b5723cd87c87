/** Attendance (issue 16): every statement on departments, employees and punches. */
import type { DepartmentRow, EmployeeRow, PunchRow } from '@se/core';
import { first, type Queryable } from '../../db/index.ts';
import type { Patchable } from '../../db/update.ts';
import { Params, fromLocal, likeSql, localTime, selectPage } from '../../db/sql.ts';

// ---- organisations ------------------------------------------------------------------

export interface WorkOrg {
  id: number;
  name: string;
  root_dep_id: number | null;
}

/** The organisation an account works in: its users.org_id, else the oldest it manages. */
export function workOrgOf(q: Queryable, userId: number) {
  return first<WorkOrg>(
    q,
    `SELECT o.id, o.name, o.root_dep_id
       FROM users u
       JOIN organisations o ON NOT o.is_delete AND (o.id = u.org_id OR (u.org_id IS NULL AND o.user_id = u.id))
      WHERE u.id = $1
      ORDER BY (o.id = u.org_id) DESC, o.id
      LIMIT 1`,
    [userId],
  );
}

/** Locks the organisation's row: tree edits of one organisation run one at a time. */
export function lockOrg(q: Queryable, orgId: number) {
  return first<WorkOrg>(q, `SELECT id, name, root_dep_id FROM organisations WHERE id = $1 FOR UPDATE`, [
    orgId,
  ]);
}

export async function setRootDepartment(q: Queryable, orgId: number, depId: number) {
  await q.query(`UPDATE organisations SET root_dep_id = $2, updated_at = now() WHERE id = $1`, [
    orgId,
    depId,
  ]);
}

// ---- departments --------------------------------------------------------------------

export interface DepartmentRecord {
  id: number;
  org_id: number;
  parent_id: number | null;
  name: string;
  head_employee_id: number | null;
  path: string;
  sort: number;
  is_delete: boolean;
}

export const DEPARTMENTS: Patchable<'name' | 'head_employee_id' | 'sort' | 'is_delete'> = {
  table: 'att_departments',
  columns: ['name', 'head_employee_id', 'sort', 'is_delete'],
};

const DEPT_COLS = 'd.id, d.org_id, d.parent_id, d.name, d.head_employee_id, d.path, d.sort, d.is_delete';

/** A live department of the organisation. */
export function findDepartment(q: Queryable, orgId: number, id: number) {
  return first<DepartmentRecord>(
    q,
    `SELECT ${DEPT_COLS} FROM att_departments d WHERE d.id = $1 AND d.org_id = $2 AND NOT d.is_delete`,
    [id, orgId],
  );
}

/** Inserts a department under `parent` (null: the root) and fills its path; answers its id. */
export async function insertDepartment(
  q: Queryable,
  v: { org_id: number; parent: { id: number; path: string } | null; name: string; sort: number },
) {
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO att_departments (org_id, parent_id, name, sort) VALUES ($1, $2, $3, $4) RETURNING id`,
    [v.org_id, v.parent?.id ?? null, v.name, v.sort],
  );
  const id = r!.id;
  await q.query(`UPDATE att_departments SET path = $2 WHERE id = $1`, [id, `${v.parent?.path ?? '/'}${id}/`]);
  return id;
}

/**
 * The whole tree of an organisation in one query: each department with its head's name and
 * the number of 在职 employees directly in it (the client sums subtrees from the paths).
 */
export function departmentTree(q: Queryable, orgId: number) {
  return q.query<Omit<DepartmentRow, 'total_count'>>(
    `SELECT d.id, d.parent_id, d.name, d.head_employee_id, coalesce(h.name, '') AS head_name, d.path, d.sort,
            coalesce(c.n, 0)::int AS employee_count
       FROM att_departments d
       LEFT JOIN att_employees h ON h.id = d.head_employee_id
       LEFT JOIN (SELECT department_id, count(*) AS n FROM att_employees
                   WHERE org_id = $1 AND NOT is_delete AND status = 1 GROUP BY department_id) c
              ON c.department_id = d.id
      WHERE d.org_id = $1 AND NOT d.is_delete
      ORDER BY d.sort, d.id`,
    [orgId],
  );
}

/** One department's head name and 在职 counts: directly in it, and in its whole subtree. */
export async function departmentCounts(
  q: Queryable,
  d: { id: number; org_id: number; path: string; head_employee_id: number | null },
) {
  const r = await first<{ head_name: string; employee_count: number; total_count: number }>(
    q,
    `SELECT coalesce((SELECT name FROM att_employees WHERE id = $4), '') AS head_name,
            count(*) FILTER (WHERE e.department_id = $1)::int AS employee_count,
            count(*)::int AS total_count
       FROM att_employees e JOIN att_departments x ON x.id = e.department_id
      WHERE e.org_id = $2 AND NOT e.is_delete AND e.status = 1
        AND x.org_id = $2 AND NOT x.is_delete AND x.path LIKE $3 || '%'`,
    [d.id, d.org_id, d.path, d.head_employee_id],
  );
  return r!;
}

/** Live children and 在职 employees directly in a department (what stops a delete). */
export async function departmentContents(q: Queryable, id: number) {
  const r = await first<{ children: number; employees: number }>(
    q,
    `SELECT (SELECT count(*) FROM att_departments WHERE parent_id = $1 AND NOT is_delete)::int AS children,
            (SELECT count(*) FROM att_employees WHERE department_id = $1 AND NOT is_delete AND status = 1)::int AS employees`,
    [id],
  );
  return r!;
}

/** Depth (levels below the department, itself = 1) and size of a department's subtree. */
export async function subtreeDepth(q: Queryable, orgId: number, path: string) {
  const r = await first<{ depth: number }>(
    q,
    `SELECT coalesce(max(length(path) - length(replace(path, '/', ''))), 0)::int AS depth
       FROM att_departments WHERE org_id = $1 AND NOT is_delete AND path LIKE $2 || '%'`,
    [orgId, path],
  );
  return r!.depth - (path.split('/').length - 2) + 1;
}

export async function countDepartments(q: Queryable, orgId: number) {
  const r = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM att_departments WHERE org_id = $1 AND NOT is_delete`,
    [orgId],
  );
  return r!.n;
}

/** Moves a department (and so its subtree) under a new parent: one statement. */
export async function moveDepartment(
  q: Queryable,
  orgId: number,
  d: { id: number; path: string },
  parent: { id: number; path: string },
) {
  const newPath = `${parent.path}${d.id}/`;
  await q.query(
    `UPDATE att_departments
        SET path = $3 || substr(path, length($2) + 1),
            parent_id = CASE WHEN id = $4 THEN $5 ELSE parent_id END,
            updated_at = now()
      WHERE org_id = $1 AND path LIKE $2 || '%'`,
    [orgId, d.path, newPath, d.id, parent.id],
  );
}

// ---- employees ----------------------------------------------------------------------

export interface EmployeeRecord extends NewEmployee {
  id: number;
  org_id: number;
  is_delete: boolean;
}

export type EmployeeColumn =
  | 'department_id'
  | 'number'
  | 'name'
  | 'position'
  | 'phone'
  | 'id_card'
  | 'badge_no'
  | 'face_id'
  | 'hire_date'
  | 'status'
  | 'user_id'
  | 'is_delete';

export const EMPLOYEES: Patchable<EmployeeColumn> = {
  table: 'att_employees',
  columns: [
    'department_id',
    'number',
    'name',
    'position',
    'phone',
    'id_card',
    'badge_no',
    'face_id',
    'hire_date',
    'status',
    'user_id',
    'is_delete',
  ],
  expr: { hire_date: (p) => `${p}::date` },
};

const EMP_ROW = `e.id, e.org_id, e.department_id, coalesce(d.name, '') AS department_name, e.number, e.name,
  e.position, e.phone, e.id_card, e.badge_no, e.face_id, to_char(e.hire_date, 'YYYY-MM-DD') AS hire_date,
  e.status, e.scheme_id, e.user_id, coalesce(a.user_name, '') AS user_name,
  ${localTime('e.created_at')} AS created_at`;
const EMP_FROM = `att_employees e LEFT JOIN att_departments d ON d.id = e.department_id
  LEFT JOIN users a ON a.id = e.user_id`;

export function findEmployee(q: Queryable, orgId: number, id: number) {
  return first<EmployeeRecord>(
    q,
    `SELECT id, org_id, department_id, number, name, position, phone, id_card, badge_no, face_id,
            to_char(hire_date, 'YYYY-MM-DD') AS hire_date, status, user_id, is_delete
       FROM att_employees WHERE id = $1 AND org_id = $2 AND NOT is_delete`,
    [id, orgId],
  );
}

export function employeeRow(q: Queryable, orgId: number, id: number) {
  return first<EmployeeRow>(
    q,
    `SELECT ${EMP_ROW} FROM ${EMP_FROM} WHERE e.id = $1 AND e.org_id = $2 AND NOT e.is_delete`,
    [id, orgId],
  );
}

/** The id of a live employee of the organisation with this number, other than `exceptId`. */
export async function numberTaken(q: Queryable, orgId: number, number: string, exceptId = 0) {
  const r = await first<{ id: number }>(
    q,
    `SELECT id FROM att_employees WHERE org_id = $1 AND number = $2 AND NOT is_delete AND id <> $3`,
    [orgId, number, exceptId],
  );
  return r !== undefined;
}

export async function numbersTaken(q: Queryable, orgId: number, numbers: string[]) {
  const rows = await q.query<{ number: string }>(
    `SELECT number FROM att_employees WHERE org_id = $1 AND number = ANY($2::text[]) AND NOT is_delete`,
    [orgId, numbers],
  );
  return new Set(rows.map((r) => r.number));
}

export interface NewEmployee {
  department_id: number;
  number: string;
  name: string;
  position: string;
  phone: string;
  id_card: string;
  badge_no: string;
  face_id: string;
  hire_date: string | null;
  status: number;
  /** The console account linked to the employee (0 or null: none). */
  user_id?: number | null;
}

const NEW_COLS = [
  'department_id',
  'number',
  'name',
  'position',
  'phone',
  'id_card',
  'badge_no',
  'face_id',
  'hire_date',
  'status',
  'user_id',
] as const;
const NEW_TYPES = ['int', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'date', 'smallint', 'int'];

/** Inserts employees in one statement; answers their ids in input order. */
export async function insertEmployees(q: Queryable, orgId: number, rows: NewEmployee[]) {
  const got = await q.query<{ id: number }>(
    `INSERT INTO att_employees (org_id, ${NEW_COLS.join(', ')})
     SELECT $1, ${NEW_COLS.map((c) => `u.${c}`).join(', ')}
       FROM unnest(${NEW_COLS.map((_, i) => `$${i + 2}::${NEW_TYPES[i]}[]`).join(', ')})
            WITH ORDINALITY AS u(${NEW_COLS.join(', ')}, n)
      ORDER BY u.n
     RETURNING id`,
    [orgId, ...NEW_COLS.map((c) => rows.map((r) => (c === 'user_id' ? r.user_id || null : r[c])))],
  );
  return got.map((r) => r.id);
}

export interface EmployeeFilter {
  org_id: number;
  keywords?: string;
  /** Path of the department: it and everything below. */
  department_path?: string;
  status?: number;
}

function employeeWhere(w: Params, f: EmployeeFilter) {
  const cond = [`e.org_id = ${w.p(f.org_id)}`, 'NOT e.is_delete'];
  if (f.department_path) {
    cond.push(
      `e.department_id IN (SELECT id FROM att_departments WHERE org_id = ${w.p(f.org_id)}
                              AND path LIKE ${w.p(f.department_path)} || '%')`,
    );
  }
  if (f.status !== undefined) cond.push(`e.status = ${w.p(f.status)}`);
  if (f.keywords)
    cond.push(likeSql(w, ['e.name', 'e.number', 'e.phone', 'e.badge_no', 'e.position'], f.keywords));
  return cond.join(' AND ');
}

export function listEmployees(
  q: Queryable,
  f: EmployeeFilter & { limit: number; offset: number; exact?: boolean },
) {
  const w = new Params();
  const where = employeeWhere(w, f);
  return selectPage<EmployeeRow>(q, w, f, {
    list: (page) => `SELECT ${EMP_ROW} FROM ${EMP_FROM} WHERE ${where} ORDER BY e.number, e.id ${page}`,
    where,
    countFrom: 'att_employees e',
  });
}

/** 在职 employees a terminal is told about (同步员工). */
export function activeEmployees(q: Queryable, orgId: number) {
  return q.query<{ number: string; name: string; badge_no: string; face_id: string }>(
    `SELECT number, name, badge_no, face_id FROM att_employees
      WHERE org_id = $1 AND NOT is_delete AND status = 1 ORDER BY number`,
    [orgId],
  );
}

// ---- punches ------------------------------------------------------------------------

const PUNCH_ROW = `p.id, p.org_id, p.employee_id, coalesce(e.name, '') AS employee_name,
  coalesce(e.number, '') AS employee_number, p.device_id, coalesce(dv.ser_num, '') AS device_ser_num,
  p.badge, p.method, ${localTime('p.punched_at')} AS punched_at, p.photo, p.toilet_id,
  coalesce(t.name, '') AS toilet_name, ${localTime('p.created_at')} AS created_at`;
const PUNCH_FROM = `att_punches p
  LEFT JOIN att_employees e ON e.id = p.employee_id
  LEFT JOIN devices dv ON dv.id = p.device_id
  LEFT JOIN toilets t ON t.id = p.toilet_id`;

export interface PunchFilter {
  org_id: number;
  device_id?: number;
  employee_id?: number;
  unmatched: boolean;
  keywords?: string;
  start?: string;
  end?: string;
}

export function listPunches(q: Queryable, f: PunchFilter & { limit: number; offset: number }) {
  const w = new Params();
  const cond = [`p.org_id = ${w.p(f.org_id)}`];
  if (f.device_id !== undefined) cond.push(`p.device_id = ${w.p(f.device_id)}`);
  if (f.employee_id !== undefined) cond.push(`p.employee_id = ${w.p(f.employee_id)}`);
  if (f.unmatched) cond.push('p.employee_id IS NULL');
  if (f.start) cond.push(`p.punched_at >= ${fromLocal(w.p(f.start))}`);
  if (f.end) cond.push(`p.punched_at <= ${fromLocal(w.p(f.end))}`);
  if (f.keywords) {
    cond.push(
      `(p.badge ILIKE ${w.p(`%${f.keywords.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}
        OR p.employee_id IN (SELECT id FROM att_employees WHERE org_id = ${w.p(f.org_id)} AND
           ${likeSql(w, ['name', 'number'], f.keywords)}))`,
    );
  }
  const where = cond.join(' AND ');
  return selectPage<PunchRow>(q, w, f, {
    list: (page) =>
      `SELECT ${PUNCH_ROW} FROM ${PUNCH_FROM} WHERE ${where} ORDER BY p.punched_at DESC, p.id DESC ${page}`,
    where,
    countFrom: 'att_punches p',
  });
}

export function findPunch(q: Queryable, orgId: number, id: number) {
  return first<{ id: number; employee_id: number | null; badge: string }>(
    q,
    `SELECT id, employee_id, badge FROM att_punches WHERE id = $1 AND org_id = $2`,
    [id, orgId],
  );
}

export const PUNCHES: Patchable<'employee_id'> = {
  table: 'att_punches',
  columns: ['employee_id'],
  touch: null,
};

export function punchRow(q: Queryable, orgId: number, id: number) {
  return first<PunchRow>(q, `SELECT ${PUNCH_ROW} FROM ${PUNCH_FROM} WHERE p.id = $1 AND p.org_id = $2`, [
    id,
    orgId,
  ]);
}

/**
 * Punches of a batch of terminal reports, in one statement: the organisation is the
 * terminal's (devices.org_id, else its registrant's), the employee is matched by number,
 * card or face id inside it (none: an unmatched punch), the toilet is where the terminal
 * stands. A punch already stored (same terminal, person and instant) is kept once.
 */
export function insertPunches(
  q: Queryable,
  p: {
    deviceIds: number[];
    employeeNos: string[];
    badges: string[];
    methods: string[];
    punchedAt: string[];
    photos: (string | null)[];
  },
) {
  return q.query<{ id: number; org_id: number; employee_id: number | null; toilet_id: number | null }>(
    `WITH u AS (
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[])
         AS u(device_id, employee_no, badge, method, punched_at, photo)
     ), r AS (
       SELECT u.*, coalesce(d.org_id, ru.org_id) AS org_id, d.toilet_id
         FROM u JOIN devices d ON d.id = u.device_id
         LEFT JOIN users ru ON ru.id = d.registered_by
     )
     INSERT INTO att_punches (org_id, employee_id, device_id, badge, method, punched_at, photo, msg_id, toilet_id)
     SELECT r.org_id,
            (SELECT e.id FROM att_employees e
              WHERE e.org_id = r.org_id AND NOT e.is_delete
                AND ((r.employee_no <> '' AND e.number = r.employee_no)
                  OR (r.badge <> '' AND (e.badge_no = r.badge OR e.face_id = r.badge)))
              ORDER BY (e.number = r.employee_no) DESC, e.status, e.id LIMIT 1),
            r.device_id, CASE WHEN r.badge <> '' THEN r.badge ELSE r.employee_no END, r.method, r.punched_at,
            nullif(r.photo, ''),
            (extract(epoch FROM r.punched_at) * 1000)::bigint || '|' || r.employee_no || '|' || r.badge,
            r.toilet_id
       FROM r WHERE r.org_id IS NOT NULL
     ON CONFLICT (device_id, msg_id) WHERE msg_id IS NOT NULL DO NOTHING
     RETURNING id, org_id, employee_id, toilet_id`,
    [p.deviceIds, p.employeeNos, p.badges, p.methods, p.punchedAt, p.photos],
  );
}

// ---- terminals and patrols -----------------------------------------------------------

/** The organisation a terminal's punches go to (for the terminal page's punch list). */
export async function terminalOrg(q: Queryable, deviceId: number) {
  const r = await first<{ org_id: number | null }>(
    q,
    `SELECT coalesce(d.org_id, ru.org_id) AS org_id FROM devices d LEFT JOIN users ru ON ru.id = d.registered_by
      WHERE d.id = $1 AND d.kind = 'attendance'`,
    [deviceId],
  );
  return r?.org_id ?? null;
}

export async function setTerminalOrg(q: Queryable, deviceId: number, orgId: number) {
  await q.query(`UPDATE devices SET org_id = $2 WHERE id = $1 AND org_id IS NULL`, [deviceId, orgId]);
}

export interface PatrolSetting {
  id: number;
  patrol_every_min: number;
  open_time: string;
  close_time: string;
}

/** A toilet's patrol interval and its opening hours (its document's, else the defaults). */
export function patrolSetting(q: Queryable, toiletId: number) {
  return first<PatrolSetting>(
    q,
    `SELECT t.id, t.patrol_every_min, coalesce(doc.open_time, '00:00') AS open_time,
            coalesce(doc.close_time, '23:59') AS close_time
       FROM toilets t LEFT JOIN toilet_documents doc ON doc.toilet_id = t.id AND NOT doc.is_delete
      WHERE t.id = $1 AND NOT t.is_delete`,
    [toiletId],
  );
}

export const PATROLS: Patchable<'patrol_every_min'> = { table: 'toilets', columns: ['patrol_every_min'] };

/** A toilet's last patrols (punches at its terminals), newest first. */
export function recentPatrols(q: Queryable, toiletId: number, limit: number) {
  return q.query<{ id: number; employee_name: string; device_ser_num: string; punched_at: string; at: Date }>(
    `SELECT p.id, coalesce(e.name, p.badge) AS employee_name, coalesce(dv.ser_num, '') AS device_ser_num,
            ${localTime('p.punched_at')} AS punched_at, p.punched_at AS at
       FROM att_punches p
       LEFT JOIN att_employees e ON e.id = p.employee_id
       LEFT JOIN devices dv ON dv.id = p.device_id
      WHERE p.toilet_id = $1 ORDER BY p.punched_at DESC LIMIT $2`,
    [toiletId, limit],
  );
}

/**
 * Opens a 'patrol' alarm on the clock-in terminal of every toilet whose required patrol is
 * overdue at `at`: inside its opening hours (its document's, UTC+8; a close before the open
 * runs past midnight), no punch at the toilet for patrol_every_min minutes since the later of
 * the last punch and the current opening. One open alarm per terminal (the open-alarm key).
 */
export function openPatrolAlarms(q: Queryable, at: Date) {
  return q.query<{ id: number; device_id: number }>(
    `WITH hours AS (
       SELECT t.id, t.name, t.patrol_every_min, ($1::timestamptz AT TIME ZONE 'Asia/Shanghai') AS t,
              coalesce(doc.open_time, '00:00')::time AS o, coalesce(doc.close_time, '23:59')::time AS c
         FROM toilets t
         LEFT JOIN toilet_documents doc ON doc.toilet_id = t.id AND NOT doc.is_delete
        WHERE t.patrol_every_min > 0 AND NOT t.is_delete
     ), opened AS (
       -- The current opening's start; hours whose close is before their open run past midnight.
       SELECT h.id, h.name, h.patrol_every_min,
              CASE WHEN h.o <= h.c THEN CASE WHEN h.t::time BETWEEN h.o AND h.c THEN date_trunc('day', h.t) + h.o END
                   WHEN h.t::time >= h.o THEN date_trunc('day', h.t) + h.o
                   WHEN h.t::time <= h.c THEN date_trunc('day', h.t) - interval '1 day' + h.o
              END AS since_local
         FROM hours h
     ), due AS (
       SELECT o.id, o.name, o.patrol_every_min,
              greatest(
                (SELECT max(p.punched_at) FROM att_punches p WHERE p.toilet_id = o.id AND p.punched_at <= $1::timestamptz),
                o.since_local AT TIME ZONE 'Asia/Shanghai'
              ) AS since
         FROM opened o WHERE o.since_local IS NOT NULL
     )
     INSERT INTO alarms (device_id, type, message, detail)
     SELECT DISTINCT ON (due.id) d.id, 'patrol', '巡检超时：' || due.name || ' 已超过 ' || due.patrol_every_min || ' 分钟未巡检',
            jsonb_build_object('toilet_id', due.id, 'since', due.since)
       FROM due JOIN devices d ON d.toilet_id = due.id AND d.kind = 'attendance' AND NOT d.is_delete
      WHERE due.since < $1::timestamptz - due.patrol_every_min * interval '1 minute'
      ORDER BY due.id, d.id
     ON CONFLICT DO NOTHING
     RETURNING id, device_id`,
    [at.toISOString()],
  );
}

/**
 * A toilet by the public id of its QR code, and whether a live clock-in terminal of the
 * organisation stands in it (the organisation patrols it).
 */
export function toiletByPublicId(q: Queryable, publicId: string, orgId: number) {
  return first<{ id: number; name: string; org_terminal: boolean }>(
    q,
    `SELECT t.id, t.name,
            EXISTS (SELECT 1 FROM devices d WHERE d.toilet_id = t.id AND d.kind = 'attendance'
                       AND NOT d.is_delete AND d.org_id = $2) AS org_terminal
       FROM toilets t WHERE t.public_id = $1 AND NOT t.is_delete`,
    [publicId, orgId],
  );
}

/** The live employee record linked to the account, in any organisation. */
export function employeeOfAccount(q: Queryable, userId: number) {
  return first<{ id: number; org_id: number; name: string; number: string; status: number }>(
    q,
    `SELECT id, org_id, name, number, status FROM att_employees WHERE user_id = $1 AND NOT is_delete`,
    [userId],
  );
}

/** Unlinks the account from the employee records of an organisation (the account left it). */
export function unlinkAccounts(q: Queryable, orgId: number, userIds: number[]) {
  return q.query<{ id: number }>(
    `UPDATE att_employees SET user_id = NULL, updated_at = now()
      WHERE org_id = $1 AND user_id = ANY($2::int[]) RETURNING id`,
    [orgId, userIds],
  );
}

/** A 在职 employee of the organisation by number. */
export function activeEmployeeByNumber(q: Queryable, orgId: number, number: string) {
  return first<{ id: number; name: string; number: string }>(
    q,
    `SELECT id, name, number FROM att_employees WHERE org_id = $1 AND number = $2 AND NOT is_delete AND status = 1`,
    [orgId, number],
  );
}

/** The employee's QR check-in at the toilet within the last minute, if any. */
export function recentScan(q: Queryable, toiletId: number, employeeId: number) {
  return first<{ id: number; punched_at: string }>(
    q,
    `SELECT id, ${localTime('punched_at')} AS punched_at FROM att_punches
      WHERE toilet_id = $1 AND employee_id = $2 AND method = 'qr' AND device_id IS NULL
        AND punched_at > now() - interval '1 minute'
      ORDER BY punched_at DESC LIMIT 1`,
    [toiletId, employeeId],
  );
}

/** Stores a QR patrol check-in as a punch at the toilet (no terminal). */
export async function insertScan(
  q: Queryable,
  v: { org_id: number; employee_id: number; toilet_id: number; number: string },
) {
  return (await first<{ id: number; punched_at: string }>(
    q,
    `INSERT INTO att_punches (org_id, employee_id, toilet_id, badge, method, punched_at)
     VALUES ($1, $2, $3, $4, 'qr', now()) RETURNING id, ${localTime('punched_at')} AS punched_at`,
    [v.org_id, v.employee_id, v.toilet_id, v.number],
  ))!;
}

/** Closes the open 'patrol' alarms of the terminals in these toilets (a patrol arrived). */
export function closePatrolAlarms(q: Queryable, toiletIds: number[]) {
  return q.query<{ id: number; device_id: number }>(
    `UPDATE alarms a SET status = 'closed', closed_at = now()
       FROM devices d
      WHERE a.device_id = d.id AND d.toilet_id = ANY($1::int[]) AND a.type = 'patrol' AND a.status <> 'closed'
      RETURNING a.id, a.device_id`,
    [toiletIds],
  );
}

// ---- demo set-up (sim/demo-attendance.ts) ---------------------------------------------

/** The organisation of this name, created when missing (the demo's; no API creates one yet). */
export async function ensureOrgNamed(q: Queryable, name: string, managerId: number | null) {
  const have = await first<{ id: number }>(
    q,
    `SELECT id FROM organisations WHERE name = $1 AND NOT is_delete`,
    [name],
  );
  if (have) return have.id;
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO organisations (name, user_id, contact, address) VALUES ($1, $2, '0571-88880000', '浙江省杭州市西湖区')
     RETURNING id`,
    [name, managerId],
  );
  return r!.id;
}

/** A new organisation managed by an account: named after its company, else `<user>的组织`. */
export async function insertOrgFor(q: Queryable, userId: number, userName: string) {
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO organisations (name, user_id)
     SELECT coalesce(nullif((SELECT company_name FROM user_info WHERE user_id = $1), ''), $2 || '的组织'), $1
     RETURNING id`,
    [userId, userName],
  );
  return r!.id;
}

export async function setUserOrg(q: Queryable, userId: number, orgId: number) {
  await q.query(`UPDATE users SET org_id = $2 WHERE id = $1`, [userId, orgId]);
}
