import { PERMISSION, RULE_DEVICE_KINDS } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { deviceSeenByAccount, devicesOfAccount, scopeUser } from '../access/visible-repo.ts';
import { TOILET_DEVICE_JOIN } from './repo.ts';

// The rule engine's SQL. The engine owns the transaction (one per round); each function
// here is one statement on the connection it is given.

export interface RuleRecord {
  id: number;
  user_id: number;
  formula: string;
  duration_s: number;
  cooldown_s: number;
  min_count: number;
  window_s: number;
  template_id: number | null;
  object_ids: number[];
}

export interface StateRow {
  rule_id: number;
  device_id: number;
  last_ts: number;
  true_since: number | null;
  last_fired_at: number | null;
  last_values: Record<string, number | boolean>;
  /** Counting rules: the times (ms) of the latest reports the formula held on. */
  recent_true: number[];
}

/** Enabled rules of owners still there, with the owner's path and rights. */
export function activeRules(q: Queryable) {
  return q.query<{
    id: number;
    scope: string;
    device_ids: number[];
    toilet_ids: number[];
    path: string;
    permissions: number;
  }>(
    `SELECT r.id, r.scope, r.device_ids, r.toilet_ids, u.path, u.permissions
         FROM notify_rules r JOIN users u ON u.id = r.user_id
        WHERE r.enabled AND NOT r.is_delete AND NOT u.is_delete`,
  );
}

/** Devices each owner (a user path, not '/') sees: bound in its subtree, and the sensors of bound gateways. */
export function devicesUnderPaths(q: Queryable, paths: string[]) {
  return q.query<{ path: string; id: number }>(
    `SELECT o.path, d.id FROM unnest($1::text[], $2::int[]) AS o(path, owner)
       CROSS JOIN LATERAL (${devicesOfAccount('o.owner')}) s
       JOIN devices d ON d.id = s.device_id
      WHERE NOT d.is_delete AND (d.kind = ANY($3::text[]) OR d.kind = 'sensor')`,
    [paths, paths.map(scopeUser), [...RULE_DEVICE_KINDS]],
  );
}

/** The rule-capable devices of each toilet. */
export function devicesOfToilets(q: Queryable, toiletIds: number[]) {
  return q.query<{ toilet: number; id: number }>(
    `SELECT t.id AS toilet, d.id FROM toilets t JOIN devices d ON ${TOILET_DEVICE_JOIN}
          WHERE t.id = ANY($1::int[]) AND NOT t.is_delete AND NOT d.is_delete AND d.kind = ANY($2::text[])`,
    [toiletIds, [...RULE_DEVICE_KINDS]],
  );
}

export async function setHitDispatchError(q: Queryable, hitId: number, error: string) {
  await q.query(`UPDATE notify_rule_hits SET dispatch_error = $2 WHERE id = $1`, [hitId, error]);
}

export function enabledRules(tx: Queryable, ids: number[]) {
  return tx.query<RuleRecord>(
    `SELECT id, user_id, formula, duration_s, cooldown_s, min_count, window_s, template_id, object_ids
             FROM notify_rules WHERE id = ANY($1::int[]) AND enabled AND NOT is_delete`,
    [ids],
  );
}

/**
 * Claims (rule, device) pairs that have no state row yet with a placeholder (`last_ts`
 * -infinity: never evaluated), in a fixed order. A copy of the server claiming a pair
 * another copy has just claimed waits for that copy's commit and then finds its state:
 * the pair's first hit is decided by one copy only.
 */
export async function claimRuleStates(tx: Queryable, ruleIds: number[], deviceIds: number[]) {
  await tx.query(
    `INSERT INTO notify_rule_state (rule_id, device_id, last_ts)
         SELECT v.rule_id, v.device_id, '-infinity' FROM unnest($1::int[], $2::int[]) AS v(rule_id, device_id)
          ORDER BY v.rule_id, v.device_id
         ON CONFLICT (rule_id, device_id) DO NOTHING`,
    [ruleIds, deviceIds],
  );
}

/** The state of (rule, device) pairs, locked in a fixed order so rounds cannot deadlock. */
export function lockRuleStates(tx: Queryable, ruleIds: number[], deviceIds: number[]) {
  return tx.query<StateRow>(
    `SELECT s.rule_id, s.device_id, (extract(epoch FROM s.last_ts) * 1000)::float8 AS last_ts,
              (extract(epoch FROM s.true_since) * 1000)::float8 AS true_since,
              (extract(epoch FROM s.last_fired_at) * 1000)::float8 AS last_fired_at, s.last_values, s.recent_true
         FROM notify_rule_state s JOIN unnest($1::int[], $2::int[]) AS v(rule_id, device_id)
              ON s.rule_id = v.rule_id AND s.device_id = v.device_id
        ORDER BY s.rule_id, s.device_id
          FOR UPDATE OF s`,
    [ruleIds, deviceIds],
  );
}

export function latestOfDevices(tx: Queryable, ids: number[]) {
  return tx.query<{ id: number; latest: Record<string, unknown> }>(
    `SELECT id, latest FROM devices WHERE id = ANY($1::int[])`,
    [ids],
  );
}

/**
 * Of the (owner, device) pairs, those where the owner is still there and still sees the
 * device, with what a hit carries about the device.
 */
export function visiblePairs(tx: Queryable, owners: number[], devices: number[]) {
  return tx.query<{
    owner: number;
    device: number;
    ser_num: string;
    desc: string;
    toilet_id: number | null;
  }>(
    `SELECT v.owner, d.id AS device, d.ser_num, d."desc",
                coalesce(d.toilet_id, (SELECT t.id FROM toilets t
                                        WHERE NOT t.is_delete AND t.gateway_id IN (d.id, d.gateway_id)
                                        ORDER BY t.id LIMIT 1)) AS toilet_id
           FROM (SELECT DISTINCT * FROM unnest($1::int[], $2::int[]) AS x(owner, device)) v
           JOIN users o ON o.id = v.owner AND NOT o.is_delete
           JOIN devices d ON d.id = v.device AND NOT d.is_delete
          WHERE (o.permissions & $3) = $3
             OR ${deviceSeenByAccount('d.id', 'o.id')}`,
    [owners, devices, PERMISSION.develop],
  );
}

/** Answers the new ids in input order. */
export function insertRuleHits(
  tx: Queryable,
  ruleIds: number[],
  deviceIds: number[],
  formulas: string[],
  values: string[],
  firedAt: string[],
) {
  return tx.query<{ id: number }>(
    `INSERT INTO notify_rule_hits (rule_id, device_id, formula, "values", fired_at)
           SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::jsonb[], $5::timestamptz[])
           RETURNING id`,
    [ruleIds, deviceIds, formulas, values, firedAt],
  );
}

export async function upsertRuleStates(
  tx: Queryable,
  ruleIds: number[],
  deviceIds: number[],
  lastTs: (string | null)[],
  trueSince: (string | null)[],
  lastFiredAt: (string | null)[],
  lastValues: string[],
  recentTrue: string[],
) {
  await tx.query(
    `INSERT INTO notify_rule_state (rule_id, device_id, last_ts, true_since, last_fired_at, last_values, recent_true)
         SELECT * FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::timestamptz[], $6::jsonb[], $7::jsonb[])
         ON CONFLICT (rule_id, device_id) DO UPDATE SET last_ts = EXCLUDED.last_ts, true_since = EXCLUDED.true_since,
           last_fired_at = EXCLUDED.last_fired_at, last_values = EXCLUDED.last_values, recent_true = EXCLUDED.recent_true`,
    [ruleIds, deviceIds, lastTs, trueSince, lastFiredAt, lastValues, recentTrue],
  );
}
