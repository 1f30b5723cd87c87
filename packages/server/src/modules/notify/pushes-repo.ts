import { PERMISSION } from '@se/core';
import type { Queryable } from '../../db/index.ts';
import { deviceSeenByAccount, toiletSeenByAccount } from '../access/visible-repo.ts';

// Docking pushes' SQL: which live interfaces receive which reports, alarms and comments.

const OWNER_SEES_DEVICE = `((o.permissions & ${PERMISSION.develop}) = ${PERMISSION.develop} OR ${deviceSeenByAccount('d.id', 'o.id')})`;

const LIVE_INTERFACE = `NOT di.is_delete AND NOT o.is_delete`;

export interface Receiver {
  docking_id: number;
  user_id: number;
  name: string;
  url: string;
}

/** Whether any live interface asked for reports. */
export async function anyInterfaceWantsReports(q: Queryable) {
  const r = await q.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM docking_interfaces WHERE push_reports AND NOT is_delete) AS yes`,
  );
  return r[0]!.yes;
}

/** (interface, device) pairs: interfaces that want reports and whose owner sees the device. */
export function reportReceivers(q: Queryable, deviceIds: number[]) {
  return q.query<Receiver & { device_id: number; ser_num: string }>(
    `SELECT di.id AS docking_id, di.user_id, di.name, di.url, d.id AS device_id, d.ser_num
       FROM docking_interfaces di JOIN users o ON o.id = di.user_id
       JOIN devices d ON d.id = ANY($1::int[]) AND NOT d.is_delete
      WHERE di.push_reports AND ${LIVE_INTERFACE} AND ${OWNER_SEES_DEVICE}`,
    [deviceIds],
  );
}

/** (interface, alarm) pairs: interfaces that want alarms and whose owner sees the device. */
export function alarmReceivers(q: Queryable, ids: number[]) {
  return q.query<Receiver & { alarm_id: number }>(
    `SELECT di.id AS docking_id, di.user_id, di.name, di.url, a.id AS alarm_id
       FROM alarms a JOIN devices d ON d.id = a.device_id
       JOIN docking_interfaces di ON di.push_alarms JOIN users o ON o.id = di.user_id
      WHERE a.id = ANY($1::bigint[]) AND ${LIVE_INTERFACE} AND ${OWNER_SEES_DEVICE}`,
    [ids],
  );
}

/** (interface, comment) pairs with the comment as pushed. */
export function commentReceivers(q: Queryable, ids: number[]) {
  return q.query<
    Receiver & {
      comment: Record<string, unknown>;
      comment_id: number;
    }
  >(
    `SELECT di.id AS docking_id, di.user_id, di.name, di.url, c.id AS comment_id,
            jsonb_build_object('id', c.id, 'toilet_id', c.toilet_id, 'toilet_name', t.name,
              'equipment_id', c.equipment_id, 'ser_num', e.ser_num, 'star_level', c.star_level,
              'content', c.content, 'sex', c.sex, 'badattitude', c.badattitude, 'inefficiency', c.inefficiency,
              'poorsanitary', c.poorsanitary, 'smelly', c.smelly, 'source', c.source,
              'created_at', (extract(epoch FROM c.created_at) * 1000)::float8) AS comment
       FROM comments c LEFT JOIN toilets t ON t.id = c.toilet_id LEFT JOIN devices e ON e.id = c.equipment_id
       JOIN docking_interfaces di ON di.push_comments JOIN users o ON o.id = di.user_id
      WHERE c.id = ANY($1::bigint[]) AND NOT c.is_delete AND ${LIVE_INTERFACE}
        AND ((o.permissions & ${PERMISSION.develop}) = ${PERMISSION.develop}
          OR ${toiletSeenByAccount('c.toilet_id', 'o.id')} OR ${deviceSeenByAccount('c.equipment_id', 'o.id')})`,
    [ids],
  );
}
