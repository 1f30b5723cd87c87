import { ALARM_TYPE_LABELS, type MessageKind, type MessageRow, type MessagesEvent } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { first } from '../../db/index.ts';
import { Params, fromLocal, keywordSql, localTime, selectPage } from '../../db/sql.ts';
import { accountsSeeingDevice } from '../access/visible-repo.ts';

export interface NewMessage {
  user_id: number;
  kind: MessageKind;
  title: string;
  content: string;
  device_id?: number | null;
  alarm_id?: number | null;
  notification_id?: number | null;
}

/** Adds the count of the CTE `ins` (rows with user_id) to each user's message_count. */
const BUMP = `, c AS (SELECT user_id, count(*)::int AS n FROM ins GROUP BY user_id)
  UPDATE users u SET message_count = u.message_count + c.n FROM c WHERE u.id = c.user_id
  RETURNING u.id AS user_id, u.message_count AS unread`;

/** Inserts messages and raises each recipient's unread count in the same statement. */
export async function insertMessages(tx: Queryable, rows: NewMessage[]): Promise<MessagesEvent[]> {
  if (!rows.length) return [];
  return tx.query<MessagesEvent>(
    `WITH ins AS (
       INSERT INTO messages (user_id, kind, title, content, device_id, alarm_id, notification_id)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::bigint[], $7::bigint[])
       RETURNING user_id)${BUMP}`,
    [
      rows.map((r) => r.user_id),
      rows.map((r) => r.kind),
      rows.map((r) => r.title.slice(0, 200)),
      rows.map((r) => r.content.slice(0, 4000)),
      rows.map((r) => r.device_id ?? null),
      rows.map((r) => r.alarm_id ?? null),
      rows.map((r) => r.notification_id ?? null),
    ],
  );
}

/**
 * One inbox message per alarm opened (within the last day) for every user who sees its
 * device: the users it is bound to (a sensor: its gateway's) and all their ancestors. A
 * message per user and alarm is made once, however often the alarm changes or however
 * many server copies hear of it.
 */
export function alarmsToInbox(tx: Queryable, alarmIds: number[]): Promise<MessagesEvent[]> {
  if (!alarmIds.length) return Promise.resolve([]);
  return tx.query<MessagesEvent>(
    `WITH a AS (
       SELECT a.id, a.device_id, a.type, a.message, a.opened_at, d.ser_num, d."desc"
         FROM alarms a JOIN devices d ON d.id = a.device_id
        WHERE a.id = ANY($1::bigint[]) AND a.opened_at > now() - interval '1 day' AND NOT d.is_delete),
     r AS (
       SELECT DISTINCT a.id AS alarm_id, anc.id AS user_id
         FROM a JOIN users anc ON anc.id IN (${accountsSeeingDevice('a.device_id')})
        WHERE NOT anc.is_delete),
     ins AS (
       INSERT INTO messages (user_id, kind, title, content, device_id, alarm_id)
       SELECT r.user_id, 'alarm',
              coalesce($2::jsonb ->> a.type, a.type) || '：' || coalesce(nullif(a."desc", ''), a.ser_num),
              '设备 ' || a.ser_num || CASE WHEN a.message <> '' THEN '，' || a.message ELSE '' END
                || '（' || ${localTime('a.opened_at')} || '）',
              a.device_id, a.id
         FROM r JOIN a ON a.id = r.alarm_id
       ON CONFLICT (user_id, alarm_id) WHERE alarm_id IS NOT NULL DO NOTHING
       RETURNING user_id)${BUMP}`,
    [alarmIds, JSON.stringify(ALARM_LABELS)],
  );
}

const ALARM_LABELS: Record<string, string> = Object.fromEntries(
  Object.entries(ALARM_TYPE_LABELS).map(([k, v]) => [k, k === 'offline' ? '设备离线' : `${v}告警`]),
);

const ROW = `m.id, m.kind, m.title, m.content, m.device_id, m.alarm_id, m.read_at IS NOT NULL AS read,
  ${localTime('m.read_at')} AS read_at, ${localTime('m.created_at')} AS created_at`;

export async function listMessages(
  q: Queryable,
  f: {
    userId: number;
    read?: 'read' | 'unread';
    kind?: string;
    keywords?: string;
    start?: string;
    end?: string;
    limit: number;
    offset: number;
  },
) {
  const w = new Params();
  const cond = [`m.user_id = ${w.p(f.userId)}`, 'NOT m.is_delete'];
  if (f.read === 'unread') cond.push('m.read_at IS NULL');
  if (f.read === 'read') cond.push('m.read_at IS NOT NULL');
  if (f.kind) cond.push(`m.kind = ${w.p(f.kind)}`);
  if (f.start) cond.push(`m.created_at >= ${fromLocal(w.p(f.start))}`);
  if (f.end) cond.push(`m.created_at <= ${fromLocal(w.p(f.end))}`);
  if (f.keywords) cond.push(keywordSql(w, 'messages', f.keywords, ['m.title', 'm.content']));
  const where = cond.join(' AND ');
  return selectPage<MessageRow>(q, w, f, {
    list: (page) => `SELECT ${ROW} FROM messages m WHERE ${where} ORDER BY m.id DESC ${page}`,
    where,
    countFrom: 'messages m',
  });
}

/** How many of `ids` are the user's own, not deleted messages. */
export async function countOwn(q: Queryable, userId: number, ids: number[]) {
  const r = await first<{ n: number }>(
    q,
    `SELECT count(*)::int AS n FROM messages WHERE user_id = $1 AND id = ANY($2::bigint[]) AND NOT is_delete`,
    [userId, ids],
  );
  return r!.n;
}

/** Marks messages read (all unread ones when ids is null); answers the new unread count. */
export async function markRead(tx: Queryable, userId: number, ids: number[] | null) {
  const r = await first<{ unread: number }>(
    tx,
    `WITH r AS (
       UPDATE messages SET read_at = now()
        WHERE user_id = $1 AND read_at IS NULL AND NOT is_delete AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))
       RETURNING id)
     UPDATE users SET message_count = greatest(0, message_count - (SELECT count(*) FROM r))
      WHERE id = $1 RETURNING message_count AS unread`,
    [userId, ids],
  );
  return r?.unread ?? 0;
}

/** Soft-deletes messages; the unread ones among them leave the unread count. */
export async function removeMessages(tx: Queryable, userId: number, ids: number[]) {
  const r = await first<{ unread: number }>(
    tx,
    `WITH d AS (
       UPDATE messages SET is_delete = true
        WHERE user_id = $1 AND id = ANY($2::bigint[]) AND NOT is_delete
       RETURNING read_at)
     UPDATE users SET message_count = greatest(0, message_count - (SELECT count(*) FROM d WHERE read_at IS NULL))
      WHERE id = $1 RETURNING message_count AS unread`,
    [userId, ids],
  );
  return r?.unread ?? 0;
}

export async function unreadOf(q: Queryable, userId: number) {
  const r = await first<{ unread: number }>(q, `SELECT message_count AS unread FROM users WHERE id = $1`, [
    userId,
  ]);
  return r?.unread ?? 0;
}
