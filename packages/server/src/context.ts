import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Broker } from './mqtt/broker.ts';
import type { CommandDelivery } from './ingest/commands.ts';
import type { DeviceDirectory } from './ingest/directory.ts';
import type { IngestPipeline } from './ingest/pipeline.ts';
import type { EventBus } from './realtime/bus.ts';
import type { SessionStore } from './modules/auth/sessions.ts';

/** Everything a module needs, built once per app and passed down explicitly. */
export interface AppContext {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  sessions: SessionStore;
  mailer: Mailer;
  limiter: RateLimiter;
  /** Set once the embedded or external broker is up; health reads it. */
  broker: Broker | null;
  /** Device lookup and authentication for both transports. */
  directory: DeviceDirectory;
  /** The one ingest pipeline behind MQTT and HTTP. */
  pipeline: IngestPipeline;
  /** Sends queued commands to listening devices. */
  commands: CommandDelivery;
  /** Stored reports, alarm changes, offline transitions → live push. */
  events: EventBus;
}

/** The signed-in caller of a request. */
export interface Caller {
  id: number;
  userName: string;
  permission: number;
  sessionId: number;
}
