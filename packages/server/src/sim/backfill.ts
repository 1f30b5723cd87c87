import mqtt from 'mqtt';
import { TOPIC } from '@se/core';
import type { SimDevice } from './values.ts';

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
