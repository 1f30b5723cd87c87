import mqtt from 'mqtt';
import { TOPIC, USER_API } from '@se/core';
import type { ConsoleApi } from './fleet.ts';
import type { SimDevice } from './values.ts';

// Helpers of the issue-15 demo builders (meters, industry).

/**
 * Sends a device's past readings over MQTT as the device itself (QoS 1, each with its own
 * time), so a demo starts with history that went through the real ingest pipeline.
 */
export async function backfill(
  url: string,
  d: SimDevice,
  points: { ts: number; data: Record<string, unknown> }[],
) {
  if (!points.length) return;
  const c = await mqtt.connectAsync(url, {
    clientId: d.ser_num,
    username: d.ser_num,
    password: d.token,
    protocolVersion: 4,
  });
  try {
    const inFlight = 100;
    for (let i = 0; i < points.length; i += inFlight) {
      await Promise.all(
        points
          .slice(i, i + inFlight)
          .map((p, k) =>
            c.publishAsync(
              TOPIC.up(d.ser_num),
              JSON.stringify({ id: `bf-${p.ts}-${i + k}`, ts: p.ts, type: 'report', data: p.data }),
              { qos: 1 },
            ),
          ),
      );
    }
  } finally {
    await c.endAsync();
  }
}

/** Every row of a paged list call (100 a page). */
export async function listPages<T>(api: ConsoleApi, path: string, q: Record<string, unknown> = {}) {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const r = await api.call<{ list: T[] }>('GET', path, { ...q, page, page_size: 100 });
    out.push(...r.list);
    if (r.list.length < 100) return out;
  }
}

/** The id of account `name`, created once by `admin` with `permissions`. */
export async function ensureAccount(admin: ConsoleApi, name: string, password: string, permissions: number) {
  const found = await admin.call<{ list: { id: number; user_name: string }[] }>('GET', USER_API.list, {
    keywords: name,
    keys: 'user_name',
  });
  const hit = found.list.find((u) => u.user_name === name);
  if (hit) return hit.id;
  return (await admin.call<{ id: number }>('POST', USER_API.add, { user_name: name, password, permissions }))
    .id;
}

/** Devices sorted by the number at the end of their serial (PREFIX-1, PREFIX-2, …). */
export const bySerial = <T extends { ser_num: string }>(list: T[]) =>
  [...list].sort((a, b) => Number(a.ser_num.split('-').pop()) - Number(b.ser_num.split('-').pop()));
