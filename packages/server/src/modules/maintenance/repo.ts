/** Every statement of the maintenance area (issue 18): catalogues, work orders, their history. */
import {
  EXACT_COUNT_LIMIT,
  OPEN_STATUSES,
  recordIdOf,
  type AssigneeRow,
  type EquipmentTypeRow,
  type FaultTypeRow,
  type MaintenanceStats,
  type RecordEvent,
  type RecordRow,
} from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import type { JsonRows } from '../../db/json-rows.ts';
import {
  Params,
  SERIAL_LIKE,
  fromLocal,
  serialPrefixSql,
  keywordSql,
  likeSql,
  localTime,
  rowsByIdsSql,
  selectPage,
  type Page,
} from '../../db/sql.ts';
import { PageAnchors, listsGeneration } from '../../db/page-anchors.ts';
import { insertRow, type Patchable } from '../../db/update.ts';
import { deviceToiletSql } from '../devices/repo.ts';
import { seesManyObjects } from '../access/repo.ts';
import {
  accountsSeeingToiletOrDevice,
  deviceRanges,
  sharedCatalogueSeen,
  toiletOrDeviceRanges,
  toiletOrDeviceSeen,
} from '../access/visible-repo.ts';

const OPEN = `(${OPEN_STATUSES.join(', ')})`;

/** A catalogue row as stored (owner and deletion for the access check). */
export interface CatalogueRow {
  id: number;
  user_id: number | null;
  is_delete: boolean;
}

/** Whether the caller (scope) may edit a row owned by `col`: its own subtree's; the console's only for '/'. */
function editableSql(w: Params, scope: string, col: string) {
  if (scope === '/') return 'true';
  return `(${col} IS NOT NULL AND coalesce((SELECT o.path FROM users o WHERE o.id = ${col}), '') LIKE ${w.p(scope)} || '%')`;
}

// ---- equipment types ----

export const EQUIPMENT_TYPES: Patchable<'name' | 'code' | 'category' | 'note' | 'is_delete'> = {
  table: 'equipment_types',
  columns: ['name', 'code', 'category', 'note', 'is_delete'],
};

export function findEquipmentType(q: Queryable, id: number) {
  return first<CatalogueRow & { name: string; code: string; category: string; note: string }>(
    q,
    'SELECT id, user_id, is_delete, name, code, category, note FROM equipment_types WHERE id = $1',
    [id],
  );
}

export function listEquipmentTypes(
  q: Queryable,
  f: { scope: string; keywords?: string; category?: string; limit: number; offset: number },
) {
  const w = new Params();
  const cond = ['NOT e.is_delete', sharedCatalogueSeen(w, f.scope, 'e.user_id')];
  if (f.category) cond.push(`e.category = ${w.p(f.category)}`);
  if (f.keywords) cond.push(likeSql(w, ['e.name', 'e.code', 'e.note'], f.keywords));
  const where = cond.join(' AND ');
  const countValues = [...w.values];
  const editable = editableSql(w, f.scope, 'e.user_id');
  return selectPage<EquipmentTypeRow>(q, w, f, {
    list: (page) => `SELECT e.id, e.name, e.code, e.category, e.note, e.user_id IS NULL AS builtin,
        ${editable} AS editable,
        (SELECT count(*)::int FROM fault_types ft WHERE ft.equipment_type_id = e.id AND NOT ft.is_delete) AS fault_count,
        ${localTime('e.created_at')} AS created_at
      FROM equipment_types e WHERE ${where} ORDER BY e.user_id NULLS FIRST, e.id ${page}`,
    where,
    countFrom: 'equipment_types e',
    countValues,
  });
}

/**
 * Adds a row to a catalogue (equipment_types or fault_types): the body's columns (the core
 * schema, already checked) and its owner.
 */
export function insertCatalogueRow(
  q: Queryable,
  table: 'equipment_types' | 'fault_types',
  v: { user_id: number } & Record<string, unknown>,
) {
  return insertRow(q, table, v);
}

// ---- fault types ----

export const FAULT_TYPES: Patchable<
  'equipment_type_id' | 'name' | 'code' | 'severity' | 'response_hours' | 'remedy' | 'is_delete'
> = {
  table: 'fault_types',
  columns: ['equipment_type_id', 'name', 'code', 'severity', 'response_hours', 'remedy', 'is_delete'],
};

export function findFaultType(q: Queryable, id: number) {
  return first<
    CatalogueRow & {
      equipment_type_id: number;
      name: string;
      code: string;
      severity: number;
      response_hours: number;
      remedy: string;
    }
  >(
    q,
    `SELECT id, user_id, is_delete, equipment_type_id, name, code, severity, response_hours, remedy
       FROM fault_types WHERE id = $1`,
    [id],
  );
}

export function listFaultTypes(
  q: Queryable,
  f: { scope: string; keywords?: string; equipment_type_id?: number; limit: number; offset: number },
) {
  const w = new Params();
  const cond = [
    'NOT ft.is_delete',
    'NOT e.is_delete',
    sharedCatalogueSeen(w, f.scope, 'ft.user_id'),
    sharedCatalogueSeen(w, f.scope, 'e.user_id'),
  ];
  if (f.equipment_type_id !== undefined) cond.push(`ft.equipment_type_id = ${w.p(f.equipment_type_id)}`);
  if (f.keywords) cond.push(likeSql(w, ['ft.name', 'ft.code', 'ft.remedy', 'e.name'], f.keywords));
  const where = cond.join(' AND ');
  const countValues = [...w.values];
  const editable = editableSql(w, f.scope, 'ft.user_id');
  return selectPage<FaultTypeRow>(q, w, f, {
    list: (page) => `SELECT ft.id, ft.equipment_type_id, e.name AS equipment_type_name, ft.name, ft.code,
        ft.severity, ft.response_hours, ft.remedy, ft.user_id IS NULL AS builtin, ${editable} AS editable,
        ${localTime('ft.created_at')} AS created_at
      FROM fault_types ft JOIN equipment_types e ON e.id = ft.equipment_type_id
      WHERE ${where} ORDER BY ft.equipment_type_id, ft.user_id NULLS FIRST, ft.id ${page}`,
    where,
    countFrom: 'fault_types ft JOIN equipment_types e ON e.id = ft.equipment_type_id',
    countValues,
  });
}

/** Whether the scope sees catalogue row `id` of `table` (live). */
export async function catalogueVisible(
  q: Queryable,
  table: 'equipment_types' | 'fault_types',
  id: number,
  scope: string,
) {
  const w = new Params();
  const r = await first<{ ok: boolean }>(
    q,
    `SELECT true AS ok FROM ${table} c WHERE c.id = ${w.p(id)} AND NOT c.is_delete AND ${sharedCatalogueSeen(w, scope, 'c.user_id')}`,
    w.values,
  );
  return r !== undefined;
}

/** Live records that use an equipment type or a fault type. */
export async function recordsUsing(q: Queryable, column: 'equipment_type_id' | 'fault_type_id', id: number) {
  const r = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM maintenance_records WHERE ${column} = $1 AND NOT is_delete`,
    [id],
  );
  return r!.n;
}

/** The console's equipment type for a device kind (code = kind) or a part type (part<type>). */
export async function builtinEquipmentType(q: Queryable, code: string) {
  const r = await first<{ id: number }>(
    q,
    'SELECT id FROM equipment_types WHERE code = $1 AND user_id IS NULL AND NOT is_delete ORDER BY id LIMIT 1',
    [code],
  );
  return r?.id ?? null;
}

/** A live fault type of an equipment type by code or name (a prefill's guess). */
export async function faultTypeByCode(q: Queryable, equipmentTypeId: number, codeOrName: string) {
  const r = await first<{ id: number }>(
    q,
    `SELECT id FROM fault_types WHERE equipment_type_id = $1 AND (code = $2 OR name = $2) AND NOT is_delete
      ORDER BY user_id NULLS FIRST, id LIMIT 1`,
    [equipmentTypeId, codeOrName],
  );
  return r?.id ?? null;
}

// ---- what a record is about ----

export function deviceBySerial(q: Queryable, serNum: string) {
  return first<{ id: number }>(q, 'SELECT id FROM devices WHERE ser_num = $1 AND NOT is_delete', [serNum]);
}

export function deviceSubject(q: Queryable, id: number) {
  return first<{
    id: number;
    kind: string;
    ser_num: string;
    desc: string;
    toilet_id: number | null;
    toilet_name: string;
  }>(
    q,
    `SELECT d.id, d.kind, d.ser_num, d."desc", t.id AS toilet_id, coalesce(t.name, '') AS toilet_name
       FROM devices d
       LEFT JOIN toilets t ON t.id = ${deviceToiletSql('d')} AND NOT t.is_delete
      WHERE d.id = $1 AND NOT d.is_delete`,
    [id],
  );
}

export function partSubject(q: Queryable, id: number) {
  return first<{
    id: number;
    toilet_id: number;
    type: number;
    name: string;
    state: number;
    toilet_name: string;
  }>(
    q,
    `SELECT p.id, p.toilet_id, p.type, p.name, p.state, t.name AS toilet_name
       FROM toilet_parts p JOIN toilets t ON t.id = p.toilet_id
      WHERE p.id = $1 AND NOT p.is_delete AND NOT t.is_delete`,
    [id],
  );
}

export function toiletName(q: Queryable, id: number) {
  return first<{ name: string }>(q, 'SELECT name FROM toilets WHERE id = $1 AND NOT is_delete', [id]);
}

export function alarmSubject(q: Queryable, id: number) {
  return first<{
    id: number;
    device_id: number;
    type: string;
    status: string;
    message: string;
    warning: number;
  }>(
    q,
    `SELECT a.id, a.device_id, a.type, a.status, a.message, coalesce((a.detail->>'warning')::int, d.warning) AS warning
       FROM alarms a JOIN devices d ON d.id = a.device_id WHERE a.id = $1`,
    [id],
  );
}

// ---- records ----

const JOINS = `LEFT JOIN devices d ON d.id = r.device_id
  LEFT JOIN toilets t ON t.id = r.toilet_id
  LEFT JOIN toilet_parts p ON p.id = r.part_id
  JOIN equipment_types e ON e.id = r.equipment_type_id
  LEFT JOIN fault_types ft ON ft.id = r.fault_type_id
  JOIN users ru ON ru.id = r.reporter_id
  LEFT JOIN users au ON au.id = r.assignee_id
  LEFT JOIN maintenance_teams tm ON tm.id = r.team_id`;
const FROM = `maintenance_records r ${JOINS}`;

const OVERDUE = `(CASE WHEN r.status IN ${OPEN} THEN now() > r.due_at
  WHEN r.status = 4 THEN false ELSE coalesce(r.finished_at > r.due_at, false) END)`;

const ROW = `r.id, 'WX' || lpad(r.id::text, 6, '0') AS no, r.kind, r.status, r.device_id, r.ser_num,
  coalesce((SELECT d.kind FROM devices d WHERE d.id = r.device_id), '') AS device_kind,
  r.toilet_id, coalesce(t.name, '') AS toilet_name, r.part_id, coalesce(nullif(p.name, ''), '') AS part_name,
  r.alarm_id::int AS alarm_id, r.equipment_type_id, e.name AS equipment_type_name, r.fault_type_id,
  coalesce(ft.name, '') AS fault_type_name, coalesce(ft.severity, 0) AS severity, r.description,
  r.reporter_id, ru.user_name AS reporter_name, r.assignee_id, coalesce(au.user_name, '') AS assignee_name,
  r.team_id, coalesce(tm.name, '') AS team_name,
  ${localTime('r.created_at')} AS created_at, ${localTime('r.due_at')} AS due_at, ${OVERDUE} AS overdue,
  CASE WHEN r.finished_at IS NULL THEN NULL ELSE ${localTime('r.finished_at')} END AS finished_at,
  r.remedy, r.parts_replaced, r.cost::float8 AS cost, r.minutes_spent,
  coalesce(array_length(r.photos, 1), 0) AS photo_count`;

/** A list page's records by their ids (selectPage rows). */
const RECORD_ROWS = rowsByIdsSql(ROW, 'maintenance_records', 'r', JOINS);

/**
 * Where the records lists' pages were found lately, dropped by this process's record writes
 * (statsChanged) and by its audited writes (listsChanged: a device or toilet bound elsewhere).
 */
const recordAnchors = new PageAnchors(() => statsGeneration + listsGeneration());
const belowSql = (below: string | null) => (below === null ? '' : ` AND r.id < ${below}`);

/** Past this many devices and toilets a scope's records are filtered by hashed sub-selects. */
const MANY_OBJECTS = 1000;

/** Whether the scope sees many devices and toilets (see toiletOrDeviceSeen), kept a while. */
export const seesMany = (q: Queryable, scope: string) => seesManyObjects(q, scope, MANY_OBJECTS);

export interface RecordFilter {
  scope: string;
  /** The scope sees many objects (seesMany). */
  many?: boolean;
  keywords?: string;
  status?: number;
  kind?: string;
  equipment_type_id?: number;
  fault_type_id?: number;
  toilet_id?: number;
  device_id?: number;
  assignee_id?: number;
  team_id?: number;
  overdue?: boolean;
  begin?: string;
  end?: string;
}

/** A keyword that is a serial-number prefix (SERIAL_LIKE), not a record number. */
const serialPrefix = (keywords: string | undefined) =>
  keywords !== undefined && SERIAL_LIKE.test(keywords) && recordIdOf(keywords) === null ? keywords : null;

/** The conditions on a record `r`: seen by the scope and matching the filter (`filtered`: beyond not deleted). */
function recordWhere(w: Params, f: RecordFilter) {
  const seen = toiletOrDeviceSeen(w, f.scope, 'r', f.many);
  const cond = recordFilters(w, f);
  return { where: [seen, ...cond].join(' AND '), filtered: cond.length > 1 };
}

/** The filter's conditions on a record `r`, its visibility aside (the first: not deleted). */
function recordFilters(w: Params, f: RecordFilter) {
  const cond = ['NOT r.is_delete'];
  if (f.status !== undefined) cond.push(`r.status = ${w.p(f.status)}`);
  if (f.kind) cond.push(`r.kind = ${w.p(f.kind)}`);
  if (f.equipment_type_id !== undefined) cond.push(`r.equipment_type_id = ${w.p(f.equipment_type_id)}`);
  if (f.fault_type_id !== undefined) cond.push(`r.fault_type_id = ${w.p(f.fault_type_id)}`);
  if (f.toilet_id !== undefined) cond.push(`r.toilet_id = ${w.p(f.toilet_id)}`);
  if (f.device_id !== undefined) cond.push(`r.device_id = ${w.p(f.device_id)}`);
  if (f.assignee_id !== undefined) cond.push(`r.assignee_id = ${w.p(f.assignee_id)}`);
  if (f.team_id !== undefined) cond.push(`r.team_id = ${w.p(f.team_id)}`);
  // The filter is about work still to do: open and past its deadline (the open-due index).
  const late = `(r.status IN ${OPEN} AND r.due_at < now())`;
  if (f.overdue === true) cond.push(late);
  if (f.overdue === false) cond.push(`NOT ${late}`);
  if (f.begin) cond.push(`r.created_at >= ${fromLocal(w.p(f.begin))}`);
  if (f.end) cond.push(`r.created_at <= ${fromLocal(w.p(f.end))}`);
  if (f.keywords) {
    const no = recordIdOf(f.keywords);
    cond.push(no !== null ? `r.id = ${w.p(no)}` : keywordSql(w, 'maintenanceRecords', f.keywords));
  }
  return cond;
}

/**
 * Whether the filter has a narrow index of its own: one toilet or device, a keyword (its
 * tokens, a serial-number prefix or a record number), an open status or overdue (work still
 * to do, a small part of any history). The planner reads that index and tests each match
 * against the scope's id sets, at a cost of the matches; reading a small scope's every
 * record to test it would cost more (at 1M orders, a customer with 10k records: 60 ms
 * against 1 ms for status 待派单).
 */
function narrowFilter(f: RecordFilter) {
  return (
    f.toilet_id !== undefined ||
    f.device_id !== undefined ||
    !!f.keywords ||
    f.overdue === true ||
    (f.status !== undefined && (OPEN_STATUSES as readonly number[]).includes(f.status))
  );
}

type RecordPage = RecordFilter & { limit: number; offset: number; exact?: boolean };

/**
 * A page of records and its total; with `json` the rows come as the database's JSON text,
 * sent as they are (the console neither parses nor writes them again).
 */
export function listRecords(q: Queryable, f: RecordPage & { json: true }): Promise<Page<JsonRows<RecordRow>>>;
export function listRecords(q: Queryable, f: RecordPage & { json?: false }): Promise<Page<RecordRow[]>>;
export function listRecords(
  q: Queryable,
  f: RecordPage & { json?: boolean },
): Promise<Page<RecordRow[] | JsonRows<RecordRow>>> {
  const w = new Params();
  // The page's ids first (the filter reads only the records table and its indexes), then
  // the names joined to those 20 rows alone, by a statement kept prepared: a deep page skips
  // ids, not joined rows, and a filter planned on every call plans no joins.
  // A small scope's search by serial-number prefix: the ranges of the few devices whose
  // serial numbers start so. A work order carries its device's serial number (it is copied
  // when the order is made, and a device's never changes), so the prefix is tested on the
  // devices and each range is read off the device index alone, newest first.
  const serial = f.many ? null : serialPrefix(f.keywords);
  const bySerial = serial === null ? null : { ...f, keywords: undefined };
  const ranges =
    serial !== null
      ? deviceRanges(w, f.scope, 'r', 'maintenance_device_toilets', (d) =>
          serialPrefixSql(w, serial, `${d}.ser_num`),
        )
      : f.many || narrowFilter(f)
        ? null
        : toiletOrDeviceRanges(w, f.scope, 'r', 'maintenance_device_toilets');
  if (ranges) {
    // A small scope: its records off the index range of each of its toilets and devices
    // (toiletOrDeviceRanges), each range read newest first only as far as the page needs
    // (a page's records are among the first `offset + limit` of every range they are in),
    // and the count as far as its cap (or whole: exact). The filter is tested in each range,
    // so a filter matching few of the scope's records reads them all (its records, not the
    // table's); one with a narrow index of its own goes there instead (narrowFilter).
    const cond = recordFilters(w, bySerial ?? f).join(' AND ');
    // A page takes each range's newest; a count takes any of them, so its ranges have no
    // order and may be read off another index of the object (a date filter: (toilet_id,
    // created_at), its matches only, not the whole range in id order).
    const upTo = (n: string | null, below: string | null = null, newest = true) =>
      ranges(
        (col, id, also) => `SELECT r.id FROM maintenance_records r
                             WHERE r.${col} = ${id} AND ${cond} AND ${also}${belowSql(below)}
                             ${newest ? 'ORDER BY r.id DESC' : ''}${n === null ? '' : ` LIMIT ${n}`}`,
      );
    return selectPage<RecordRow>(q, w, f, {
      list: (page, need, below) => `SELECT x.id FROM ${upTo(need, below)} x ORDER BY x.id DESC ${page}`,
      rows: RECORD_ROWS,
      anchors: recordAnchors,
      where: 'true',
      countFrom: `${upTo(f.exact ? null : String(EXACT_COUNT_LIMIT + 1), null, false)} x`,
      // Each range is read off its own index whatever the filter: one plan kept per connection,
      // its generic one (a customer's: 0.30 ms against 1.1 ms planned each call).
      prepare: true,
      generic: true,
      json: f.json,
    });
  }
  const { where, filtered } = recordWhere(w, f);
  // One device's or toilet's records and nothing else filtered: read off that object's own
  // index range whatever its id, so one plan serves every value (planning was 1.0 of a
  // customer's 1.3 ms for a device's records, PostgreSQL; more on PGlite).
  const objects = Number(f.device_id !== undefined) + Number(f.toilet_id !== undefined);
  const alone = recordFilters(new Params(), f).length;
  const byObject = objects > 0 && alone === 1 + objects;
  // A record number or a serial-number prefix and nothing else: one range of the id or
  // serial index whatever the value (serialPrefixSql), so likewise one plan.
  const byNumber = f.keywords !== undefined && SERIAL_LIKE.test(f.keywords) && alone === 2;
  return selectPage<RecordRow>(q, w, f, {
    list: (page, _need, below) =>
      `SELECT r.id FROM maintenance_records r WHERE ${where}${belowSql(below)} ORDER BY r.id DESC ${page}`,
    rows: RECORD_ROWS,
    anchors: recordAnchors,
    where,
    countFrom: 'maintenance_records r',
    // Unfiltered, the page is a walk of the id index whatever the values; a filter's best
    // index depends on its value (待派单 is few, 已完成 most), so filtered lists plan each time.
    prepare: !filtered || byObject || byNumber,
    generic: true,
    json: f.json,
  });
}

/** Every record the filter matches, counted (an export's progress). */
export async function countRecords(q: Queryable, f: RecordFilter) {
  const w = new Params();
  const r = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM maintenance_records r WHERE ${recordWhere(w, f).where}`,
    w.values,
  );
  return r!.n;
}

/** One page of an export, newest first, after record `afterId` (keyset: a deep page costs as the first). */
export function exportRecords(q: Queryable, f: RecordFilter, afterId: number | null, limit: number) {
  const w = new Params();
  const { where } = recordWhere(w, f);
  const after = afterId === null ? '' : ` AND r.id < ${w.p(afterId)}`;
  return q.query<RecordRow>(
    `SELECT ${ROW} FROM ${FROM} WHERE ${where}${after} ORDER BY r.id DESC LIMIT ${w.p(limit)}`,
    w.values,
  );
}

/** One record as stored, whoever may see it (the service checks). */
export function findRecord(q: Queryable, id: number) {
  return first<{
    id: number;
    is_delete: boolean;
    kind: string;
    status: number;
    device_id: number | null;
    toilet_id: number | null;
    part_id: number | null;
    reporter_id: number;
    assignee_id: number | null;
  }>(
    q,
    `SELECT id, is_delete, kind, status, device_id, toilet_id, part_id, reporter_id, assignee_id
       FROM maintenance_records WHERE id = $1`,
    [id],
    { prepare: true, generic: true },
  );
}

export function recordRow(q: Queryable, id: number) {
  return first<RecordRow>(q, `SELECT ${ROW} FROM ${FROM} WHERE r.id = $1`, [id], {
    prepare: true,
    generic: true,
  });
}

/** Whether the scope sees record `id` (through its device or toilet). */
export async function recordVisible(q: Queryable, id: number, scope: string) {
  const w = new Params();
  const r = await first<{ ok: boolean }>(
    q,
    `SELECT true AS ok FROM maintenance_records r WHERE r.id = ${w.p(id)} AND NOT r.is_delete AND ${toiletOrDeviceSeen(w, scope, 'r')}`,
    w.values,
    { prepare: true, generic: true },
  );
  return r !== undefined;
}

export function insertRecord(
  q: Queryable,
  v: {
    kind: string;
    status: number;
    device_id: number | null;
    ser_num: string;
    toilet_id: number | null;
    part_id: number | null;
    alarm_id: number | null;
    equipment_type_id: number;
    fault_type_id: number | null;
    description: string;
    reporter_id: number;
    assignee_id: number | null;
    response_hours: number;
  },
) {
  statsChanged();
  return first<{ id: number }>(
    q,
    `INSERT INTO maintenance_records (kind, status, device_id, ser_num, toilet_id, part_id, alarm_id,
        equipment_type_id, fault_type_id, description, reporter_id, assignee_id, due_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now() + make_interval(hours => $13::int))
     RETURNING id`,
    [
      v.kind,
      v.status,
      v.device_id,
      v.ser_num,
      v.toilet_id,
      v.part_id,
      v.alarm_id,
      v.equipment_type_id,
      v.fault_type_id,
      v.description,
      v.reporter_id,
      v.assignee_id,
      v.response_hours,
    ],
  ).then((r) => r!.id);
}

/** What a step of the flow sets (undefined: unchanged; finished: stamp now, clear, or keep). */
export interface StepSet {
  status: number;
  assignee_id?: number;
  remedy?: string;
  parts_replaced?: string;
  cost?: number;
  minutes_spent?: number;
  finished?: 'set' | 'clear';
}

/**
 * Moves record `id` from status `from` to `set.status` with the step's fields; answers false
 * when another step moved it first (a concurrent assign or accept), so it is not done twice.
 */
export async function stepRecord(q: Queryable, id: number, from: number, set: StepSet) {
  statsChanged();
  const r = await q.query(
    `UPDATE maintenance_records SET status = $3,
        assignee_id = coalesce($4::int, assignee_id),
        remedy = coalesce($5::text, remedy),
        parts_replaced = coalesce($6::text, parts_replaced),
        cost = coalesce($7::numeric, cost),
        minutes_spent = coalesce($8::int, minutes_spent),
        finished_at = CASE $9::text WHEN 'set' THEN now() WHEN 'clear' THEN NULL ELSE finished_at END,
        updated_at = now()
      WHERE id = $1 AND status = $2 AND NOT is_delete RETURNING id`,
    [
      id,
      from,
      set.status,
      set.assignee_id ?? null,
      set.remedy ?? null,
      set.parts_replaced ?? null,
      set.cost ?? null,
      set.minutes_spent ?? null,
      set.finished ?? null,
    ],
  );
  return r.length > 0;
}

/** Adds a stored photo's key unless the record has `max` already; answers whether it did. */
export async function addPhoto(q: Queryable, id: number, key: string, max: number) {
  const r = await q.query(
    `UPDATE maintenance_records SET photos = photos || $2::text, updated_at = now()
      WHERE id = $1 AND coalesce(array_length(photos, 1), 0) < $3 RETURNING id`,
    [id, key, max],
  );
  return r.length > 0;
}

/** The storage key of photo `n` (from 0) of a record. */
export async function photoKey(q: Queryable, id: number, n: number) {
  const r = await first<{ key: string | null }>(
    q,
    'SELECT photos[$2::int + 1] AS key FROM maintenance_records WHERE id = $1',
    [id, n],
  );
  return r?.key ?? null;
}

export function insertEvent(
  q: Queryable,
  v: { record_id: number; action: string; status: number; note: string; user_id: number },
) {
  return q.query(
    `INSERT INTO maintenance_events (record_id, action, status, note, user_id) VALUES ($1, $2, $3, $4, $5)`,
    [v.record_id, v.action, v.status, v.note, v.user_id],
  );
}

export function listEvents(q: Queryable, recordId: number) {
  return q.query<RecordEvent>(
    `SELECT ev.id::int AS id, ev.action, ev.status, ev.note, coalesce(u.user_name, '') AS user_name,
            ${localTime('ev.created_at')} AS created_at
       FROM maintenance_events ev LEFT JOIN users u ON u.id = ev.user_id
      WHERE ev.record_id = $1 ORDER BY ev.id`,
    [recordId],
  );
}

/** Other open records that hold part `partId`. */
export async function otherOpenOnPart(q: Queryable, recordId: number, partId: number) {
  const r = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM maintenance_records
      WHERE part_id = $1 AND id <> $2 AND NOT is_delete AND status IN ${OPEN}`,
    [partId, recordId],
  );
  return r!.n;
}

/**
 * Other open records that hold toilet `toiletId`'s 维修中 flag: repairs of the toilet, of a
 * device in it or of one of its parts, and any order on a part (holdsRepairFlag in the service).
 */
export async function otherOpenInToilet(q: Queryable, recordId: number, toiletId: number) {
  const r = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM maintenance_records
      WHERE toilet_id = $1 AND (part_id IS NOT NULL OR kind = 'repair') AND id <> $2 AND NOT is_delete
        AND status IN ${OPEN}`,
    [toiletId, recordId],
  );
  return r!.n;
}

export function setPartState(q: Queryable, partId: number, state: number) {
  return q.query('UPDATE toilet_parts SET state = $2, updated_at = now() WHERE id = $1', [partId, state]);
}

/** Whether account `userId` (live) sees the toilet or the device. */
export async function accountSees(
  q: Queryable,
  userId: number,
  toiletId: number | null,
  deviceId: number | null,
) {
  const r = await first<{ ok: boolean }>(
    q,
    `SELECT true AS ok FROM users u WHERE u.id = $1 AND NOT u.is_delete
        AND u.id IN (${accountsSeeingToiletOrDevice('$2::int', '$3::int')})`,
    [userId, toiletId, deviceId],
  );
  return r !== undefined;
}

export function listAssignees(
  q: Queryable,
  toiletId: number | null,
  deviceId: number | null,
  keywords?: string,
) {
  const w = new Params();
  const t = w.p(toiletId);
  const d = w.p(deviceId);
  const cond = ['NOT u.is_delete', `u.id IN (${accountsSeeingToiletOrDevice(`${t}::int`, `${d}::int`)})`];
  if (keywords) cond.push(likeSql(w, ['u.user_name', "coalesce(i.company_name, '')"], keywords));
  return q.query<AssigneeRow>(
    `SELECT u.id, u.user_name, coalesce(i.company_name, '') AS company_name
       FROM users u LEFT JOIN user_info i ON i.user_id = u.id AND NOT i.is_delete
      WHERE ${cond.join(' AND ')} ORDER BY u.path LIMIT 50`,
    w.values,
  );
}

/**
 * The statistics panel's figures for a scope, kept STATS_MS per database and scope, and
 * shared by the requests that ask while they are counted: they aggregate the scope's whole
 * history (at 1M orders a dealer's took 2–4 s of three statements, a customer's 40–130 ms)
 * and every visit of the records page asks for them. A record added or moved through this
 * process (insertRecord, stepRecord) drops what is kept, so the caller sees its own change;
 * another process's changes and new bindings show within STATS_MS.
 */
export function stats(q: Queryable, scope: string): Promise<MaintenanceStats> {
  let kept = statsKept.get(q);
  if (!kept) statsKept.set(q, (kept = new Map()));
  const known = kept.get(scope);
  if (known && known.generation === statsGeneration && Date.now() - known.at < STATS_MS) return known.stats;
  const entry = { at: Date.now(), generation: statsGeneration, stats: countStats(q, scope) };
  if (kept.size >= 5_000) kept.clear();
  kept.set(scope, entry);
  // A failed count is not kept.
  entry.stats.catch(() => kept.get(scope) === entry && kept.delete(scope));
  return entry.stats;
}
const STATS_MS = 30_000;
const statsKept = new WeakMap<
  Queryable,
  Map<string, { at: number; generation: number; stats: Promise<MaintenanceStats> }>
>();
let statsGeneration = 0;
/**
 * A record was added or changed: the kept statistics are stale. Called by insertRecord and
 * stepRecord, and again by the service once their transaction commits, so a count that ran
 * between the two (not seeing the row yet) is not kept.
 */
export const statsChanged = () => void statsGeneration++;

async function countStats(q: Queryable, scope: string): Promise<MaintenanceStats> {
  const w = new Params();
  const seen = `NOT r.is_delete AND ${toiletOrDeviceSeen(w, scope, 'r')}`;
  const [counts, mttr, top] = await Promise.all([
    first<{ open: number; overdue: number }>(
      q,
      `SELECT count(*)::int AS open, count(*) FILTER (WHERE now() > r.due_at)::int AS overdue
         FROM maintenance_records r WHERE ${seen} AND r.status IN ${OPEN}`,
      w.values,
    ),
    q.query<MaintenanceStats['mttr'][number]>(
      `SELECT coalesce(ft.name, '未分类') AS fault_type_name, count(*)::int AS count,
              round(avg(extract(epoch FROM r.finished_at - r.created_at) / 60))::int AS minutes
         FROM maintenance_records r LEFT JOIN fault_types ft ON ft.id = r.fault_type_id
        WHERE ${seen} AND r.finished_at IS NOT NULL AND r.status IN (2, 3)
        GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20`,
      w.values,
    ),
    q.query<MaintenanceStats['top_devices'][number]>(
      `SELECT r.device_id, max(r.ser_num) AS ser_num, count(*)::int AS count
         FROM maintenance_records r WHERE ${seen} AND r.device_id IS NOT NULL AND r.kind = 'repair'
        GROUP BY r.device_id ORDER BY 3 DESC, 1 LIMIT 10`,
      w.values,
    ),
  ]);
  return { open: counts!.open, overdue: counts!.overdue, mttr, top_devices: top };
}
