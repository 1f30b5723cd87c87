import net from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';

export interface Broker {
  port: number;
  ready(): boolean;
  close(): Promise<void>;
}

export type DeviceAuthenticator = (
  user: string | undefined,
  password: Buffer | undefined,
) => Promise<boolean>;

/** Devices are authenticated by the registry once it exists; until then nobody may connect. */
const refuseAll: DeviceAuthenticator = async () => false;

/**
 * The embedded MQTT broker (aedes, MQTT 3.1.1). Listening errors reject with a message that
 * names MQTT_PORT, since this machine may already run another broker on 1883.
 */
export async function startBroker(
  port: number,
  host: string,
  log: FastifyBaseLogger,
  authenticate: DeviceAuthenticator = refuseAll,
): Promise<Broker> {
  const aedes = await Aedes.createBroker({
    authenticate(_client, user, password, done) {
      authenticate(user, password).then(
        (ok) => {
          if (ok) return done(null, true);
          const err = new Error('bad user name or password') as AuthenticateError;
          err.returnCode = 4;
          done(err, false);
        },
        (err: Error) => {
          log.warn({ err: err.message }, 'mqtt authentication failed');
          const e = new Error('server unavailable') as AuthenticateError;
          e.returnCode = 3;
          done(e, false);
        },
      );
    },
  });
  const server = net.createServer(aedes.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'EADDRINUSE'
          ? `port ${port} is already in use (another MQTT broker?); set MQTT_PORT to a free port`
          : `cannot listen on port ${port}: ${err.message}; check MQTT_PORT`;
      reject(new Error(`MQTT_PORT: ${why}`));
    });
    server.listen(port, host, () => resolve());
  });
  let listening = true;
  const actualPort = (server.address() as net.AddressInfo).port;
  return {
    port: actualPort,
    ready: () => listening && !aedes.closed,
    async close() {
      listening = false;
      await new Promise<void>((r) => aedes.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
