import os from 'node:os';
import mqtt, { type IPublishPacket, type MqttClient, type Packet } from 'mqtt';
import { TOPIC, UP_TOPIC } from '@se/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Broker } from './broker.ts';

export interface ExternalHooks {
  /** Resolves once the message is committed: only then is its PUBACK sent. */
  message(serNum: string, payload: Buffer): Promise<void>;
}

type SendPacket = (
  packet: Packet,
  cb?: (err?: Error) => void,
  cbStorePut?: () => void,
  noStore?: boolean,
) => void;

/**
 * The server as a client of an external broker (Mosquitto, EMQX): one shared subscription
 * per server copy, so copies split the devices' reports. Devices authenticate at the broker
 * through POST /api/v1/device/mqtt-auth and -acl (docs/deploy.md).
 *
 * mqtt.js handles incoming packets one at a time and acknowledges a QoS 1 publish as soon
 * as its handler returns. To acknowledge only after the commit without serialising every
 * message behind a database round trip, the handler returns at once and the PUBACK itself
 * is held until the message's batch has committed. PUBACKs still leave in arrival order,
 * since batches commit in order (MQTT 3.1.1 §4.6).
 */
/**
 * Brokers cap the QoS 1 messages in flight to one client (Mosquitto: 20 by default), and a
 * message stays in flight until its commit. Several connections in the same shared group
 * multiply what can be in flight at once.
 */
export const CONNECTIONS = 16;

export async function connectExternal(
  url: string,
  opts: { clientId: string | undefined; shareGroup: string; connections?: number },
  log: FastifyBaseLogger,
  hooks: ExternalHooks,
): Promise<Broker> {
  const base = opts.clientId ?? `console-${os.hostname()}`;
  const clients = await Promise.all(
    Array.from({ length: opts.connections ?? CONNECTIONS }, (_, i) =>
      subscriber(url, `${base}-${i}`, opts.shareGroup, log, hooks),
    ),
  );
  return {
    port: 0,
    ready: () => clients.some((c) => c.connected),
    // The broker keeps QoS 1 messages for a device's persistent session until it is back.
    async sendDown(device, payload) {
      const c = clients.find((x) => x.connected);
      if (!c) return false;
      await c.publishAsync(TOPIC.down(device.ser_num), JSON.stringify(payload), { qos: 1 });
      return true;
    },
    async close() {
      await Promise.all(clients.map((c) => c.endAsync()));
    },
  };
}

async function subscriber(
  url: string,
  clientId: string,
  group: string,
  log: FastifyBaseLogger,
  hooks: ExternalHooks,
) {
  const client: MqttClient = await mqtt.connectAsync(url, {
    clientId,
    clean: false,
    protocolVersion: 4,
    reconnectPeriod: 2000,
    keepalive: 30,
  });
  const committed = new Map<number, Promise<void>>();
  client.handleMessage = (packet: IPublishPacket, done) => {
    const m = UP_TOPIC.exec(packet.topic);
    const work = m ? hooks.message(m[1]!, packet.payload as Buffer) : Promise.resolve();
    if (packet.qos > 0 && packet.messageId !== undefined) committed.set(packet.messageId, work);
    else work.catch((err: Error) => log.warn({ err: err.message }, 'mqtt message failed'));
    done();
  };
  const internal = client as unknown as { _sendPacket: SendPacket };
  const send = internal._sendPacket.bind(client);
  internal._sendPacket = (packet, cb, cbStorePut, noStore) => {
    const id = (packet as { messageId?: number }).messageId;
    const held = packet.cmd === 'puback' && id !== undefined ? committed.get(id) : undefined;
    if (!held) return send(packet, cb, cbStorePut, noStore);
    committed.delete(id!);
    // Let mqtt.js move on to the next packet; the acknowledgement itself waits.
    cb?.();
    held.then(
      () => send(packet, undefined, cbStorePut, noStore),
      (err: Error) => {
        // Not acknowledged: the broker redelivers after the reconnect this forces.
        log.error({ err: err.message }, 'mqtt message not stored; reconnecting for redelivery');
        client.stream.destroy();
      },
    );
  };
  await client.subscribeAsync(TOPIC.sharedUp(group), { qos: 1 });
  client.on('error', (err) => log.warn({ err: err.message }, 'mqtt connection error'));
  return client;
}
