import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/** In-process event bus: stored reports, alarm changes and offline transitions → live push. */
export class EventBus extends EventEmitter {
  /**
   * Emits to this copy's listeners only, never across Redis: for work each copy does once for
   * its own commits (docking report pushes), which would otherwise run once per copy.
   */
  emitLocal(event: string, payload: unknown): boolean {
    return super.emit(event, payload);
  }

  async close(): Promise<void> {}
}

/** This copy's own stored reports (emitLocal), as opposed to 'reports' from every copy. */
export const LOCAL_REPORTS = 'reports:local';

const CHANNEL = 'se:events';

/**
 * The bus across server copies: every event is emitted here at once and published on Redis;
 * the other copies re-emit what they receive, so any copy serves any browser.
 */
export class RedisBus extends EventBus {
  private readonly origin = crypto.randomBytes(8).toString('hex');
  private pub: Redis;
  private sub: Redis;

  constructor(url: string, log: FastifyBaseLogger) {
    super();
    this.pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
    this.sub = new Redis(url, { lazyConnect: true });
    for (const r of [this.pub, this.sub])
      r.on('error', (err: Error) => log.warn({ err: err.message }, 'redis error'));
    this.sub.on('message', (_channel: string, text: string) => {
      try {
        const m = JSON.parse(text) as { o: string; e: string; p: unknown };
        if (m.o !== this.origin) super.emit(m.e, m.p);
      } catch {
        log.warn('malformed event on the redis bus');
      }
    });
  }

  async connect() {
    await Promise.all([this.pub.connect(), this.sub.connect()]);
    await this.sub.subscribe(CHANNEL);
  }

  override emit(event: string, payload: unknown): boolean {
    const local = super.emit(event, payload);
    this.pub.publish(CHANNEL, JSON.stringify({ o: this.origin, e: event, p: payload })).catch(() => {});
    return local;
  }

  override async close() {
    this.sub.disconnect();
    await this.pub.quit().catch(() => {});
  }
}
