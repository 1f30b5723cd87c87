import { NUMERIC_PARAMS, WEEKDAYS, type DeviceCommand, type JwbConfig, type ParameterSet } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, likeSql, localTime, selectPage } from '../../db/sql.ts';
import { accountSeen } from '../access/visible-repo.ts';
import { updateRow } from '../../db/update.ts';

const SCHEDULE_COLS = WEEKDAYS.flatMap((d) => [`${d}_start`, `${d}_end`]);
const CONFIG_COLS = [
  'config_name',
  ...SCHEDULE_COLS,
  'work_mode',
  'work_fre',
  'all_fre',
  'ip_address',
  'work_limit',
];

export function getConfig(q: Queryable, deviceId: number) {
  return first<JwbConfig>(
    q,
    `SELECT id, device_id, is_delete, ${CONFIG_COLS.join(', ')}, ${localTime('config_date')} AS config_date
       FROM device_configs WHERE device_id = $1`,
    [deviceId],
  );
}

/** Creates the row with the defaults on first use, then applies the given columns. */
export async function saveConfig(q: Queryable, deviceId: number, v: Record<string, unknown>) {
  await q.query(`INSERT INTO device_configs (device_id) VALUES ($1) ON CONFLICT (device_id) DO NOTHING`, [
    deviceId,
  ]);
  await updateRow(
    q,
    { table: 'device_configs', columns: CONFIG_COLS, key: 'device_id', touch: 'config_date' },
    deviceId,
    v,
    true,
  );
  await q.query(`UPDATE devices SET config_date = now() WHERE id = $1`, [deviceId]);
}

const PARAM_COLS = ['parameter_desc', ...NUMERIC_PARAMS, 'environment'];
const paramRow = `p.id, p.is_delete, p.parameter_num, ${PARAM_COLS.map((c) => `p.${c}`).join(', ')}, p.user_id,
  (p.user_id IS NULL) AS shared`;

/** Shared sets and those of users in the scope's subtree. */
function paramVisible(w: Params, scope: string) {
  if (scope === '/') return 'true';
  return `(p.user_id IS NULL OR EXISTS (SELECT 1 FROM users u WHERE u.id = p.user_id AND ${accountSeen(w, scope)}))`;
}

export async function listParameters(
  q: Queryable,
  f: { scope: string; keywords?: string; limit: number; offset: number },
) {
  const w = new Params();
  const cond = ['NOT p.is_delete', paramVisible(w, f.scope)];
  if (f.keywords) cond.push(likeSql(w, ['p.parameter_desc'], f.keywords));
  const where = cond.join(' AND ');
  return selectPage<ParameterSet>(q, w, f, {
    list: (page) =>
      `SELECT ${paramRow} FROM parameter_sets p WHERE ${where} ORDER BY p.parameter_num ${page}`,
    where,
    countFrom: 'parameter_sets p',
  });
}

export function findParameter(q: Queryable, by: { id?: number; num?: number }, scope: string) {
  const w = new Params();
  const key = by.id !== undefined ? `p.id = ${w.p(by.id)}` : `p.parameter_num = ${w.p(by.num)}`;
  return first<ParameterSet>(
    q,
    `SELECT ${paramRow} FROM parameter_sets p WHERE ${key} AND NOT p.is_delete AND ${paramVisible(w, scope)}`,
    w.values,
  );
}

/** Serialises parameter inserts (parameter_num is max + 1). PostgreSQL only. */
export async function lockParameterNumbers(tx: Queryable) {
  await tx.query(`SELECT pg_advisory_xact_lock(73900394)`);
}

export async function insertParameter(q: Queryable, userId: number, v: Record<string, unknown>) {
  const cols = PARAM_COLS.filter((c) => v[c] !== undefined);
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO parameter_sets (parameter_num, user_id${cols.map((c) => `, ${c}`).join('')})
     VALUES ((SELECT coalesce(max(parameter_num), 2) + 1 FROM parameter_sets), $1${cols.map((_, i) => `, $${i + 2}`).join('')})
     RETURNING id`,
    [userId, ...cols.map((c) => v[c])],
  );
  return r!.id;
}

export function updateParameter(q: Queryable, id: number, v: Record<string, unknown>) {
  return updateRow(q, { table: 'parameter_sets', columns: [...PARAM_COLS, 'is_delete'], touch: null }, id, v);
}

export function setParameterNum(q: Queryable, deviceId: number, num: number) {
  return q.query(`UPDATE devices SET parameter_num = $2, updated_at = now() WHERE id = $1`, [deviceId, num]);
}

export async function insertCommand(
  q: Queryable,
  c: {
    deviceId: number;
    type: string;
    op: number | null;
    payload: unknown;
    createdBy: number;
    timeoutMs: number;
  },
) {
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO device_commands (device_id, type, op, payload, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond') RETURNING id`,
    [c.deviceId, c.type, c.op, JSON.stringify(c.payload), c.createdBy, c.timeoutMs],
  );
  return r!.id;
}

export async function listCommands(q: Queryable, deviceId: number, limit: number, offset: number) {
  const [list, count] = await Promise.all([
    q.query<DeviceCommand>(
      `SELECT c.id, c.device_id, c.type, c.op, c.payload,
              CASE WHEN c.status IN ('pending', 'sent') AND c.expires_at < now() THEN 'timeout' ELSE c.status END AS status,
              coalesce(u.user_name, '') AS created_by_name, ${localTime('c.created_at')} AS created_at,
              ${localTime('c.sent_at')} AS sent_at, ${localTime('c.done_at')} AS done_at, c.result
         FROM device_commands c LEFT JOIN users u ON u.id = c.created_by
        WHERE c.device_id = $1 ORDER BY c.id DESC LIMIT $2 OFFSET $3`,
      [deviceId, limit, offset],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM device_commands WHERE device_id = $1`, [deviceId]),
  ]);
  return { list, total: count[0]!.n };
}

export function findCommand(q: Queryable, id: number) {
  return first<{ id: number; device_id: number }>(
    q,
    `SELECT id, device_id FROM device_commands WHERE id = $1`,
    [id],
  );
}
