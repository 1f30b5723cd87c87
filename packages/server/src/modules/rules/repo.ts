import {
  RULE_DEVICE_KINDS,
  RULE_VALUE_KEYS,
  type RuleDeviceRow,
  type RuleHitRow,
  type RuleRow,
  type RuleValues,
} from '@se/core';
import type { Patchable } from '../../db/update.ts';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, fromLocal, keywordSql, likeSql, localTime, selectPage } from '../../db/sql.ts';
import { deviceSeen } from '../access/visible-repo.ts';

const KINDS = [...RULE_DEVICE_KINDS];

/** A device a rule may watch is visible to the scope (a sensor through its gateway). */
const ruleDeviceVisible = (w: Params, scope: string) => deviceSeen(w, scope, 'd.id', { live: true });

/**
 * The devices of a toilet: its gateway, the gateway's sensors and the devices placed in it.
 * `t` is the toilets alias, `d` the devices alias.
 */
export const TOILET_DEVICE_JOIN = `(d.toilet_id = t.id OR (t.gateway_id IS NOT NULL AND (d.id = t.gateway_id OR d.gateway_id = t.gateway_id)))`;

const ROW = `r.id, r.user_id, r.name, r.formula, r.scope, r.device_ids, r.toilet_ids,
  ARRAY(SELECT d.ser_num FROM unnest(r.device_ids) WITH ORDINALITY AS x(id, o) JOIN devices d ON d.id = x.id ORDER BY x.o) AS device_labels,
  ARRAY(SELECT t.name FROM unnest(r.toilet_ids) WITH ORDINALITY AS x(id, o) JOIN toilets t ON t.id = x.id ORDER BY x.o) AS toilet_labels,
  r.duration_s, r.cooldown_s, r.min_count, r.window_s, r.template_id, coalesce(tp.name, '') AS template_name, r.object_ids,
  ARRAY(SELECT ob.name FROM unnest(r.object_ids) WITH ORDINALITY AS x(id, o) JOIN notify_objects ob ON ob.id = x.id
         WHERE NOT ob.is_delete ORDER BY x.o) AS object_names,
  r.enabled, r.is_delete,
  (SELECT count(*)::int FROM notify_rule_hits h WHERE h.rule_id = r.id) AS hit_count,
  (SELECT ${localTime('h.fired_at')} FROM notify_rule_hits h WHERE h.rule_id = r.id ORDER BY h.id DESC LIMIT 1) AS last_fired_at,
  ${localTime('r.created_at')} AS created_at, ${localTime('r.updated_at')} AS updated_at`;
const FROM = `notify_rules r LEFT JOIN notify_templates tp ON tp.id = r.template_id AND NOT tp.is_delete`;

export async function listRules(
  q: Queryable,
  f: { userId: number; keywords?: string; enabled?: boolean; limit: number; offset: number },
) {
  const w = new Params();
  const cond = [`NOT r.is_delete`, `r.user_id = ${w.p(f.userId)}`];
  if (f.keywords) {
    cond.push(likeSql(w, ['r.name', 'r.formula'], f.keywords));
  }
  if (f.enabled !== undefined) cond.push(`r.enabled = ${w.p(f.enabled)}`);
  const where = cond.join(' AND ');
  return selectPage<RuleRow>(q, w, f, {
    list: (page) =>
      `WITH page AS (SELECT r.id FROM notify_rules r WHERE ${where} ORDER BY r.id DESC ${page})
       SELECT ${ROW} FROM page JOIN ${FROM} ON r.id = page.id ORDER BY r.id DESC`,
    where,
    countFrom: 'notify_rules r',
  });
}

/** One rule of its owner (deleted ones excluded). */
export function findRule(q: Queryable, id: number, userId: number) {
  return first<RuleRow>(
    q,
    `SELECT ${ROW} FROM ${FROM} WHERE r.id = $1 AND r.user_id = $2 AND NOT r.is_delete`,
    [id, userId],
  );
}

/** Locks the owner's row: adds of one owner queue behind each other. */
export async function lockOwner(tx: Queryable, userId: number) {
  await tx.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [userId]);
}

export async function countRules(q: Queryable, userId: number) {
  const r = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM notify_rules WHERE user_id = $1 AND NOT is_delete`,
    [userId],
  );
  return r[0]!.n;
}

export async function insertRule(q: Queryable, userId: number, v: RuleValues) {
  const rows = await q.query<{ id: number }>(
    `INSERT INTO notify_rules (user_id, name, formula, scope, device_ids, toilet_ids, duration_s, cooldown_s,
                               template_id, object_ids, enabled, min_count, window_s)
     VALUES ($1, $2, $3, $4, $5::int[], $6::int[], $7, $8, $9, $10::int[], $11, $12, $13) RETURNING id`,
    [
      userId,
      v.name,
      v.formula,
      v.scope,
      v.device_ids,
      v.toilet_ids,
      v.duration_s,
      v.cooldown_s,
      v.template_id,
      v.object_ids,
      v.enabled,
      v.min_count,
      v.window_s,
    ],
  );
  return rows[0]!.id;
}

const intArray = (p: string) => `${p}::int[]`;

/** Patched by the service (modules/audit/mutate.ts). */
export const RULES: Patchable<keyof RuleValues | 'is_delete'> = {
  table: 'notify_rules',
  columns: [...RULE_VALUE_KEYS, 'is_delete'],
  expr: { device_ids: intArray, toilet_ids: intArray, object_ids: intArray },
};

/**
 * Forgets since-when each device's condition held and the reports it held on (a new formula
 * or a re-enabled rule starts counting its duration afresh); the cool-down (last_fired_at)
 * is kept.
 */
export function resetTrueSince(q: Queryable, ruleId: number) {
  return q.query(`UPDATE notify_rule_state SET true_since = NULL, recent_true = '[]' WHERE rule_id = $1`, [
    ruleId,
  ]);
}

/** Ids among `ids` that are devices of a rule-capable kind the scope may see. */
export async function visibleRuleDeviceIds(q: Queryable, ids: number[], scope: string) {
  if (!ids.length) return new Set<number>();
  const w = new Params();
  const rows = await q.query<{ id: number }>(
    `SELECT d.id FROM devices d
      WHERE d.id = ANY(${w.p(ids)}::int[]) AND NOT d.is_delete AND d.kind = ANY(${w.p(KINDS)}::text[])
        AND ${ruleDeviceVisible(w, scope)}`,
    w.values,
  );
  return new Set(rows.map((r) => r.id));
}

/** Ids among `ids` of the owner's live templates / objects (the notify module's tables). */
export async function ownedIds(
  q: Queryable,
  table: 'notify_templates' | 'notify_objects',
  ids: number[],
  userId: number,
) {
  if (!ids.length) return new Set<number>();
  const rows = await q.query<{ id: number }>(
    `SELECT id FROM ${table} WHERE id = ANY($1::int[]) AND user_id = $2 AND NOT is_delete`,
    [ids, userId],
  );
  return new Set(rows.map((r) => r.id));
}

/** The devices a rule may pick: rule-capable kinds the scope sees, by keyword or by id. */
export async function listRuleDevices(
  q: Queryable,
  f: { scope: string; keywords?: string; ids?: number[]; limit: number; offset: number },
) {
  const w = new Params();
  const cond = [`NOT d.is_delete`, `d.kind = ANY(${w.p(KINDS)}::text[])`, ruleDeviceVisible(w, f.scope)];
  if (f.keywords) cond.push(keywordSql(w, 'devices', f.keywords));
  if (f.ids?.length) cond.push(`d.id = ANY(${w.p(f.ids)}::int[])`);
  const where = cond.join(' AND ');
  return selectPage<RuleDeviceRow>(q, w, f, {
    list: (page) =>
      `SELECT d.id, d.kind, d.ser_num, d."desc", d.location FROM devices d WHERE ${where}
        ORDER BY d.id DESC ${page}`,
    where,
    countFrom: 'devices d',
  });
}

/** A device's latest merged readings, if the scope sees it. */
export function deviceLatest(q: Queryable, id: number, scope: string) {
  const w = new Params();
  return first<{
    id: number;
    ser_num: string;
    desc: string;
    time: number | null;
    latest: Record<string, unknown>;
  }>(
    q,
    `SELECT d.id, d.ser_num, d."desc", (extract(epoch FROM d.time) * 1000)::float8 AS time, d.latest
       FROM devices d WHERE d.id = ${w.p(id)} AND NOT d.is_delete AND ${ruleDeviceVisible(w, scope)}`,
    w.values,
  );
}

export async function listHits(
  q: Queryable,
  f: {
    userId: number;
    ruleId?: number;
    deviceId?: number;
    start?: string;
    end?: string;
    limit: number;
    offset: number;
  },
) {
  const w = new Params();
  const cond = [`r.user_id = ${w.p(f.userId)}`];
  if (f.ruleId !== undefined) cond.push(`h.rule_id = ${w.p(f.ruleId)}`);
  if (f.deviceId !== undefined) cond.push(`h.device_id = ${w.p(f.deviceId)}`);
  if (f.start) cond.push(`h.fired_at >= ${fromLocal(w.p(f.start))}`);
  if (f.end) cond.push(`h.fired_at <= ${fromLocal(w.p(f.end))}`);
  const where = cond.join(' AND ');
  return selectPage<RuleHitRow>(q, w, f, {
    list: (page) =>
      `SELECT h.id, h.rule_id, r.name AS rule_name, h.device_id, d.ser_num, d."desc", h.formula, h."values",
              ${localTime('h.fired_at')} AS fired_at, h.dispatch_error
         FROM notify_rule_hits h JOIN notify_rules r ON r.id = h.rule_id JOIN devices d ON d.id = h.device_id
        WHERE ${where} ORDER BY h.id DESC ${page}`,
    where,
    countFrom: 'notify_rule_hits h JOIN notify_rules r ON r.id = h.rule_id',
  });
}
