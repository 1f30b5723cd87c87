import type { DeliveryRow, NotificationRow, NotifyObject, NotifyTemplate } from '@se/core';
import { insertRow, type Patchable } from '../../db/update.ts';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, fromLocal, likeSql, localTime, selectPage } from '../../db/sql.ts';

// ---- objects ----

const OBJECT_ROW = `o.id, o.user_id, o.type, o.name, o.target,
  CASE o.type WHEN 'user' THEN coalesce(tu.user_name, o.target)
              WHEN 'docking' THEN coalesce(di.name, o.target) ELSE o.target END AS target_label,
  ${localTime('o.created_at')} AS created_at, ${localTime('o.updated_at')} AS updated_at`;
// Targets are text; comparing ids as text never casts a non-number.
const OBJECT_FROM = `notify_objects o
  LEFT JOIN users tu ON o.type = 'user' AND tu.id::text = o.target
  LEFT JOIN docking_interfaces di ON o.type = 'docking' AND di.id::text = o.target`;

export interface ObjectRecord extends NotifyObject {
  is_delete: boolean;
}

export function findObject(q: Queryable, id: number) {
  return first<ObjectRecord>(q, `SELECT ${OBJECT_ROW}, o.is_delete FROM ${OBJECT_FROM} WHERE o.id = $1`, [
    id,
  ]);
}

export async function listObjects(
  q: Queryable,
  f: { userId: number; keywords?: string; type?: string; limit: number; offset: number },
) {
  const w = new Params();
  const cond = ['NOT o.is_delete', `o.user_id = ${w.p(f.userId)}`];
  if (f.type) cond.push(`o.type = ${w.p(f.type)}`);
  if (f.keywords) {
    cond.push(likeSql(w, ['o.name', 'o.target'], f.keywords));
  }
  const where = cond.join(' AND ');
  return selectPage<NotifyObject>(q, w, f, {
    list: (page) => `SELECT ${OBJECT_ROW} FROM ${OBJECT_FROM} WHERE ${where} ORDER BY o.id DESC ${page}`,
    where,
    countFrom: 'notify_objects o',
  });
}

export function insertObject(
  q: Queryable,
  v: { user_id: number; type: string; name: string; target: string },
) {
  return insertRow(q, 'notify_objects', { user_id: v.user_id, type: v.type, name: v.name, target: v.target });
}

/** Patched by the service (modules/audit/mutate.ts). */
export const OBJECTS: Patchable<'type' | 'name' | 'target' | 'is_delete'> = {
  table: 'notify_objects',
  columns: ['type', 'name', 'target', 'is_delete'],
};

/** The live objects among `ids` owned by `userId` (a rule's recipients). */
export function objectsOf(q: Queryable, userId: number, ids: number[]) {
  return q.query<NotifyObject>(
    `SELECT ${OBJECT_ROW} FROM ${OBJECT_FROM}
      WHERE o.id = ANY($1::int[]) AND o.user_id = $2 AND NOT o.is_delete ORDER BY o.id`,
    [ids, userId],
  );
}

// ---- templates ----

const TEMPLATE_ROW = `t.id, t.user_id, t.name, t.content,
  ${localTime('t.created_at')} AS created_at, ${localTime('t.updated_at')} AS updated_at`;

export interface TemplateRecord extends NotifyTemplate {
  is_delete: boolean;
}

export function findTemplate(q: Queryable, id: number) {
  return first<TemplateRecord>(
    q,
    `SELECT ${TEMPLATE_ROW}, t.is_delete FROM notify_templates t WHERE t.id = $1`,
    [id],
  );
}

export async function listTemplates(
  q: Queryable,
  f: { userId: number; keywords?: string; limit: number; offset: number },
) {
  const w = new Params();
  const cond = ['NOT t.is_delete', `t.user_id = ${w.p(f.userId)}`];
  if (f.keywords) {
    cond.push(likeSql(w, ['t.name', 't.content'], f.keywords));
  }
  const where = cond.join(' AND ');
  return selectPage<NotifyTemplate>(q, w, f, {
    list: (page) =>
      `SELECT ${TEMPLATE_ROW} FROM notify_templates t WHERE ${where} ORDER BY t.id DESC ${page}`,
    where,
    countFrom: 'notify_templates t',
  });
}

export function insertTemplate(q: Queryable, v: { user_id: number; name: string; content: string }) {
  return insertRow(q, 'notify_templates', { user_id: v.user_id, name: v.name, content: v.content });
}

export const TEMPLATES: Patchable<'name' | 'content' | 'is_delete'> = {
  table: 'notify_templates',
  columns: ['name', 'content', 'is_delete'],
};

// ---- notifications and deliveries ----

export async function insertNotification(
  q: Queryable,
  v: {
    user_id: number;
    rule_id: number | null;
    template_id: number | null;
    device_id: number | null;
    title: string;
    content: string;
    values: Record<string, unknown>;
    created_at: Date;
  },
) {
  const r = await first<{ id: number }>(
    q,
    `INSERT INTO notifications (user_id, rule_id, template_id, device_id, title, content, "values", created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      v.user_id,
      v.rule_id,
      v.template_id,
      v.device_id,
      v.title,
      v.content,
      JSON.stringify(v.values),
      v.created_at,
    ],
  );
  return r!.id;
}

export interface NewDelivery {
  notification_id?: number | null;
  object_id?: number | null;
  docking_id?: number | null;
  user_id: number;
  channel: string;
  kind: string;
  target: string;
  payload: unknown;
  dedupe_key?: string | null;
  /** 'sent' for what is done at once (in-app messages). */
  status?: 'pending' | 'sent' | 'failed';
  last_error?: string | null;
}

/** Inserts deliveries (one statement); a repeated docking event (dedupe_key) is skipped. */
export async function insertDeliveries(q: Queryable, rows: NewDelivery[]) {
  if (!rows.length) return [];
  return q.query<{ id: number }>(
    `INSERT INTO deliveries (notification_id, object_id, docking_id, user_id, channel, kind, target, payload,
                             dedupe_key, status, last_error, attempts, sent_at)
     SELECT v.n, v.o, v.d, v.u, v.c, v.k, v.t, v.p, v.dk, v.s, v.e,
            CASE WHEN v.s = 'pending' THEN 0 ELSE 1 END, CASE WHEN v.s = 'sent' THEN now() END
       FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::jsonb[],
                   $9::text[], $10::text[], $11::text[]) AS v(n, o, d, u, c, k, t, p, dk, s, e)
     ON CONFLICT (docking_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
     RETURNING id`,
    [
      rows.map((r) => r.notification_id ?? null),
      rows.map((r) => r.object_id ?? null),
      rows.map((r) => r.docking_id ?? null),
      rows.map((r) => r.user_id),
      rows.map((r) => r.channel),
      rows.map((r) => r.kind),
      rows.map((r) => r.target),
      rows.map((r) => JSON.stringify(r.payload)),
      rows.map((r) => r.dedupe_key ?? null),
      rows.map((r) => r.status ?? 'pending'),
      rows.map((r) => r.last_error ?? null),
    ],
  );
}

const DELIVERY_ROW = `x.id, x.notification_id, x.object_id, coalesce(o.name, di.name, '') AS object_name, x.docking_id,
  x.channel, x.kind, x.target, x.status, x.attempts,
  CASE WHEN x.status IN ('pending', 'sending') THEN ${localTime('x.next_attempt_at')} END AS next_attempt_at,
  x.last_error, x.response_code, ${localTime('x.sent_at')} AS sent_at, ${localTime('x.created_at')} AS created_at`;
const DELIVERY_FROM = `deliveries x LEFT JOIN notify_objects o ON o.id = x.object_id
  LEFT JOIN docking_interfaces di ON di.id = x.docking_id`;

export async function listNotifications(
  q: Queryable,
  f: {
    userId: number;
    keywords?: string;
    deviceId?: number;
    ruleId?: number;
    status?: string;
    start?: string;
    end?: string;
    limit: number;
    offset: number;
  },
) {
  const w = new Params();
  const cond = [`n.user_id = ${w.p(f.userId)}`];
  if (f.deviceId !== undefined) cond.push(`n.device_id = ${w.p(f.deviceId)}`);
  if (f.ruleId !== undefined) cond.push(`n.rule_id = ${w.p(f.ruleId)}`);
  if (f.start) cond.push(`n.created_at >= ${fromLocal(w.p(f.start))}`);
  if (f.end) cond.push(`n.created_at <= ${fromLocal(w.p(f.end))}`);
  if (f.status) {
    const st =
      f.status === 'pending' ? `x.status IN ('pending', 'sending', 'queued')` : `x.status = ${w.p(f.status)}`;
    cond.push(`EXISTS (SELECT 1 FROM deliveries x WHERE x.notification_id = n.id AND ${st})`);
  }
  if (f.keywords) {
    cond.push(likeSql(w, ['n.title', 'n.content', 'd.ser_num', 'd."desc"'], f.keywords));
  }
  const where = cond.join(' AND ');
  const from = `notifications n LEFT JOIN devices d ON d.id = n.device_id`;
  const n = w.values.length;
  const [rows, count] = await Promise.all([
    q.query<Omit<NotificationRow, 'deliveries'>>(
      `SELECT n.id, n.user_id, n.rule_id, n.device_id, coalesce(d.ser_num, '') AS ser_num, coalesce(d."desc", '') AS "desc",
              n.title, n.content, n."values", ${localTime('n.created_at')} AS created_at
         FROM ${from} WHERE ${where} ORDER BY n.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...w.values, f.limit, f.offset],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`, w.values),
  ]);
  const deliveries = rows.length
    ? await q.query<DeliveryRow>(
        `SELECT ${DELIVERY_ROW} FROM ${DELIVERY_FROM} WHERE x.notification_id = ANY($1::bigint[]) ORDER BY x.id`,
        [rows.map((r) => r.id)],
      )
    : [];
  const by = new Map<number, DeliveryRow[]>();
  for (const d of deliveries) {
    const list = by.get(d.notification_id!) ?? [];
    list.push(d);
    by.set(d.notification_id!, list);
  }
  return { list: rows.map((r) => ({ ...r, deliveries: by.get(r.id) ?? [] })), total: count[0]!.n };
}

export async function listDockingDeliveries(
  q: Queryable,
  f: { dockingId: number; status?: string; limit: number; offset: number },
) {
  const w = new Params();
  const cond = [`x.docking_id = ${w.p(f.dockingId)}`];
  if (f.status === 'pending') cond.push(`x.status IN ('pending', 'sending', 'queued')`);
  else if (f.status) cond.push(`x.status = ${w.p(f.status)}`);
  const where = cond.join(' AND ');
  return selectPage<DeliveryRow>(q, w, f, {
    list: (page) => `SELECT ${DELIVERY_ROW} FROM ${DELIVERY_FROM} WHERE ${where} ORDER BY x.id DESC ${page}`,
    where,
    countFrom: 'deliveries x',
  });
}

export function findDelivery(q: Queryable, id: number) {
  return first<DeliveryRow & { user_id: number }>(
    q,
    `SELECT ${DELIVERY_ROW}, x.user_id FROM ${DELIVERY_FROM} WHERE x.id = $1`,
    [id],
  );
}

/** Makes a delivery due now again (a person asked); answers whether it could. */
export async function requeue(q: Queryable, id: number) {
  const r = await q.query(
    `UPDATE deliveries SET status = 'pending', next_attempt_at = now(), last_error = NULL
      WHERE id = $1 AND status IN ('failed', 'pending', 'queued') RETURNING id`,
    [id],
  );
  return r.length > 0;
}

// ---- the worker's side ----

export interface DueDelivery {
  id: number;
  channel: string;
  kind: string;
  target: string;
  payload: Record<string, unknown>;
  attempts: number;
  docking_id: number | null;
  /** The interface's current address and secret (docking), null when it is gone. */
  docking_url: string | null;
  docking_token: string | null;
}

/**
 * Leases up to `limit` due deliveries: status 'sending' until `leaseMs` from now. A lease
 * that runs out (the process died mid-send) makes the row due again.
 */
export function claimDue(q: Queryable, limit: number, leaseMs: number) {
  return q.query<DueDelivery>(
    `WITH due AS (
       SELECT id FROM deliveries
        WHERE status IN ('pending', 'sending') AND next_attempt_at <= now()
        ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED),
     upd AS (
       UPDATE deliveries x SET status = 'sending', attempts = x.attempts + 1,
              next_attempt_at = now() + $2 * interval '1 millisecond'
         FROM due WHERE x.id = due.id
       RETURNING x.id, x.channel, x.kind, x.target, x.payload, x.attempts, x.docking_id)
     SELECT upd.*, CASE WHEN di.is_delete THEN NULL ELSE di.url END AS docking_url,
            CASE WHEN di.is_delete THEN NULL ELSE di.token END AS docking_token
       FROM upd LEFT JOIN docking_interfaces di ON di.id = upd.docking_id`,
    [limit, leaseMs],
  );
}

export function markSent(q: Queryable, id: number, code: number | null) {
  return q.query(
    `UPDATE deliveries SET status = 'sent', sent_at = now(), response_code = $2, last_error = NULL WHERE id = $1`,
    [id, code],
  );
}

/**
 * A mail that only reached the outbox (no SMTP server configured): not sent, not retried by
 * itself; `reason` says why.
 */
export function markQueued(q: Queryable, id: number, reason: string) {
  return q.query(
    `UPDATE deliveries SET status = 'queued', response_code = NULL, last_error = $2 WHERE id = $1`,
    [id, reason],
  );
}

/** A failed attempt: again after `retryInMs`, or failed for good when it is null. */
export function markFailed(
  q: Queryable,
  id: number,
  error: string,
  code: number | null,
  retryInMs: number | null,
) {
  return q.query(
    `UPDATE deliveries SET status = CASE WHEN $4::float8 IS NULL THEN 'failed' ELSE 'pending' END,
            next_attempt_at = CASE WHEN $4::float8 IS NULL THEN next_attempt_at ELSE now() + $4::float8 * interval '1 millisecond' END,
            last_error = $2, response_code = $3
      WHERE id = $1`,
    [id, error.slice(0, 500), code, retryInMs],
  );
}

/** Of the given users, those not deleted. */
export function liveUsers(q: Queryable, ids: number[]) {
  return q.query<{ id: number; user_name: string }>(
    `SELECT id, user_name FROM users WHERE id = ANY($1::int[]) AND NOT is_delete`,
    [ids],
  );
}

/** Of the given docking interfaces, the live ones of `userId`. */
export function liveDockingsOf(q: Queryable, ids: number[], userId: number) {
  return q.query<{ id: number; name: string; url: string }>(
    `SELECT id, name, url FROM docking_interfaces WHERE id = ANY($1::int[]) AND user_id = $2 AND NOT is_delete`,
    [ids, userId],
  );
}

export async function userPermissions(q: Queryable, id: number) {
  const rows = await q.query<{ permissions: number }>(`SELECT permissions FROM users WHERE id = $1`, [id]);
  return rows[0]?.permissions;
}

/** undefined when there is no such user (deleted users are still rows). */
export async function userIsDeleted(q: Queryable, id: number) {
  const rows = await q.query<{ is_delete: boolean }>(`SELECT is_delete FROM users WHERE id = $1`, [id]);
  return rows[0]?.is_delete;
}
