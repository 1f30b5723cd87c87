import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { MAX_MESSAGE_BYTES, TOPIC } from '@se/core';
import type { FastifyBaseLogger } from 'fastify';
import type { DeviceRef } from '../ingest/directory.ts';
import { ConnectionGate, GuardedSocket, type MqttLimits } from './guard.ts';

export interface Broker {
  port: number;
  ready(): boolean;
  /** Publishes to a device's down topic (QoS 1); false when it cannot be delivered now. */
  sendDown(device: { id: number; ser_num: string }, payload: unknown): Promise<boolean>;
  close(): Promise<void>;
}

export interface BrokerHooks {
  /** The device whose serial number and token these are, or null. */
  authenticate(user: string | undefined, password: Buffer | undefined): Promise<DeviceRef | null>;
  /** Resolves once the message is committed: only then is a QoS 1 publish acknowledged. */
  publish(device: DeviceRef, payload: Buffer): Promise<void>;
  /** The device now listens on its down topic: deliver what waits for it. */
  listening(device: DeviceRef): void;
}

const ACCEPT_BACKLOG = 8192;

type DeviceClient = Client & { device?: DeviceRef };

function authError(code: 2 | 3 | 4 | 5, msg: string) {
  const err = new Error(msg) as AuthenticateError;
  err.returnCode = code;
  return err;
}

/**
 * The embedded MQTT broker (aedes, MQTT 3.1.1). A device signs in with client id = user
 * name = ser_num and password = its token, may publish only on d/<ser_num>/up and
 * subscribe only to d/<ser_num>/down. Listening errors name MQTT_PORT.
 *
 * Every socket passes a ConnectionGate first (guard.ts): per-address caps, a CONNECT
 * deadline, and packet sizes checked on the raw bytes before aedes buffers any of them.
 */
export async function startBroker(
  port: number,
  host: string,
  log: FastifyBaseLogger,
  hooks: BrokerHooks,
  limits: MqttLimits,
): Promise<Broker> {
  const listeners = new Map<number, string>();
  const aedes = await Aedes.createBroker({
    authenticate(client, user, password, done) {
      if (!user || client.id !== user)
        return done(authError(2, 'client id must equal the user name (ser_num)'), false);
      hooks.authenticate(user, password).then(
        (device) => {
          if (!device) return done(authError(4, 'bad user name or password'), false);
          (client as DeviceClient).device = device;
          if (client.conn instanceof GuardedSocket) client.conn.signedIn();
          done(null, true);
        },
        (err: Error) => {
          log.warn({ err: err.message }, 'mqtt authentication failed');
          done(authError(3, 'server unavailable'), false);
        },
      );
    },
    authorizePublish(client, packet, done) {
      const device = (client as DeviceClient | null)?.device;
      if (!device || packet.topic !== TOPIC.up(device.ser_num)) return done(new Error('publish not allowed'));
      // The guard let the packet through with room for its topic; the payload limit is exact.
      if (packet.payload.length > MAX_MESSAGE_BYTES) {
        log.warn(
          {
            ip: (client?.conn as { remoteAddress?: string } | undefined)?.remoteAddress,
            ser_num: device.ser_num,
            bytes: packet.payload.length,
          },
          'mqtt message above MAX_MESSAGE_BYTES; disconnected',
        );
        return done(new Error('message too large'));
      }
      hooks.publish(device, packet.payload as Buffer).then(
        () => done(null),
        (err: Error) => done(err),
      );
    },
    authorizeSubscribe(client, sub, done) {
      const device = (client as DeviceClient).device;
      if (!device || sub.topic !== TOPIC.down(device.ser_num)) return done(null, null);
      done(null, sub);
    },
    // Device reports are for the server only, never relayed to other clients.
    authorizeForward(_client, packet) {
      return packet.topic.endsWith('/up') ? null : packet;
    },
  });
  aedes.on('subscribe', (subs, client) => {
    const device = (client as DeviceClient).device;
    if (device && subs.some((s) => s.topic === TOPIC.down(device.ser_num))) {
      listeners.set(device.id, device.ser_num);
      hooks.listening(device);
    }
  });
  aedes.on('clientDisconnect', (client) => {
    const device = (client as DeviceClient).device;
    if (device) listeners.delete(device.id);
  });

  const gate = new ConnectionGate(limits, log);
  const server = net.createServer((socket) => {
    const conn = gate.admit(socket);
    if (conn) aedes.handle(conn);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'EADDRINUSE'
          ? `port ${port} is already in use (another MQTT broker?); set MQTT_PORT to a free port`
          : `cannot listen on port ${port}: ${err.message}; check MQTT_PORT`;
      reject(new Error(`MQTT_PORT: ${why}`));
    });
    // A reconnect storm is thousands of SYNs at once: Node's default accept queue (511) drops
    // the rest, and each dropped device waits 1 s, 3 s, 7 s… to retry. The kernel caps
    // this at net.core.somaxconn.
    server.listen({ port, host, backlog: ACCEPT_BACKLOG }, () => resolve());
  });
  let listening = true;
  const actualPort = (server.address() as net.AddressInfo).port;
  return {
    port: actualPort,
    ready: () => listening && !aedes.closed,
    sendDown(device, payload) {
      const ser = listeners.get(device.id);
      if (!ser) return Promise.resolve(false);
      return new Promise((resolve) =>
        aedes.publish(
          {
            cmd: 'publish',
            topic: TOPIC.down(ser),
            payload: Buffer.from(JSON.stringify(payload)),
            qos: 1,
            retain: false,
            dup: false,
          },
          (err) => resolve(!err),
        ),
      );
    },
    async close() {
      listening = false;
      await new Promise<void>((r) => aedes.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
