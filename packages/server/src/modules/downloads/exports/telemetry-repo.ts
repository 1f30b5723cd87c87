import type { Queryable } from '../../../db/index.ts';
import { Params } from '../../../db/sql.ts';
import { deviceSeen } from '../../access/visible-repo.ts';

// The telemetry export's SQL.

export interface ExportDevice {
  id: number;
  kind: string;
  ser_num: string;
  desc: string;
}

/**
 * Live devices in `scope` ('/' for all), of `ids` when given and of `kind` when given, by
 * serial number, at most `limit`.
 */
export function exportableDevices(
  q: Queryable,
  scope: string,
  ids: number[],
  kind: string | undefined,
  limit: number,
) {
  const w = new Params();
  const cond = ['NOT d.is_delete'];
  if (ids.length) cond.push(`d.id = ANY(${w.p(ids)}::int[])`);
  if (kind) cond.push(`d.kind = ${w.p(kind)}`);
  if (scope !== '/') cond.push(deviceSeen(w, scope, 'd.id', { kind, live: true }));
  return q.query<ExportDevice>(
    `SELECT d.id, d.kind, d.ser_num, d."desc" FROM devices d WHERE ${cond.join(' AND ')}
      ORDER BY d.ser_num LIMIT ${limit}`,
    w.values,
  );
}

type Reading = { us: number; msg_id: string; data: Record<string, unknown> };

/** The first page of a device's readings in [start, end), by (ts, msg_id). */
export function telemetryPage(q: Queryable, deviceId: number, start: string, end: string, size: number) {
  return q.query<Reading>(
    `SELECT (extract(epoch FROM ts) * 1000000)::int8 AS us, msg_id, data FROM telemetry
            WHERE device_id = $1 AND ts >= $2 AND ts < $3
            ORDER BY ts, msg_id LIMIT ${size}`,
    [deviceId, start, end],
  );
}

/** The next page after (`afterTs`, `afterMsg`), a keyset range scan. */
export function telemetryPageAfter(
  q: Queryable,
  deviceId: number,
  afterTs: string,
  end: string,
  afterMsg: string,
  size: number,
) {
  return q.query<Reading>(
    `SELECT (extract(epoch FROM ts) * 1000000)::int8 AS us, msg_id, data FROM telemetry
            WHERE device_id = $1 AND ts >= $2 AND ts < $3 AND (ts > $2 OR msg_id > $4)
            ORDER BY ts, msg_id LIMIT ${size}`,
    [deviceId, afterTs, end, afterMsg],
  );
}

export async function countTelemetry(q: Queryable, deviceIds: number[], start: string, end: string) {
  const r = await q.query<{ n: number }>(
    `SELECT count(*)::int8 AS n FROM telemetry WHERE device_id = ANY($1::int[]) AND ts >= $2 AND ts < $3`,
    [deviceIds, start, end],
  );
  return r[0]!.n;
}
