import type { AppContext } from '../../context.ts';
import { alarmsToInbox } from '../messages/service.ts';
import { DockingPushes } from './pushes.ts';
import { DeliveryWorker } from './worker.ts';

/** Flush period of docking pushes: at most one report POST per interface per second. */
const PUSH_FLUSH_MS = 1_000;

export interface Notifier {
  worker: DeliveryWorker;
  pushes: DockingPushes;
  /** Waits for event handlers still writing (alarm → inbox); tests use it. */
  settle(): Promise<void>;
  /** Kicks the worker when it runs by itself (auto); otherwise a no-op. */
  kick(): void;
  stop(): Promise<void>;
}

const instances = new WeakMap<AppContext, Notifier>();

/** The app's notifier (absent before startNotifications). */
export const notifierOf = (ctx: AppContext): Notifier | undefined => instances.get(ctx);

/**
 * Wires the notification side into the app: alarms reach inboxes, docking interfaces get
 * their pushes queued, and — when `auto` (the server, not tests) — the delivery worker and
 * the push flush run on timers.
 */
export function startNotifications(ctx: AppContext, opts: { auto: boolean }): Notifier {
  const worker = new DeliveryWorker(ctx);
  const kick = () => {
    if (opts.auto) worker.kick();
  };
  const pushes = new DockingPushes(ctx, kick);
  pushes.attach();

  const pending = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const onAlarms = (ids: number[]) =>
    track(alarmsToInbox(ctx, ids).catch((err) => ctx.log.warn({ err }, 'alarm messages not stored')));
  ctx.events.on('alarms', onAlarms);

  let flushTimer: NodeJS.Timeout | null = null;
  if (opts.auto) {
    worker.start();
    pushes.refresh().catch((err) => ctx.log.warn({ err }, 'docking push state not read'));
    let flushing = false;
    flushTimer = setInterval(() => {
      if (flushing) return;
      flushing = true;
      pushes
        .flush()
        .catch((err) => ctx.log.warn({ err }, 'docking push flush failed'))
        .finally(() => (flushing = false));
    }, PUSH_FLUSH_MS);
    flushTimer.unref();
  }

  const n: Notifier = {
    worker,
    pushes,
    kick,
    async settle() {
      while (pending.size) await Promise.all([...pending]);
    },
    async stop() {
      if (flushTimer) clearInterval(flushTimer);
      ctx.events.off('alarms', onAlarms);
      pushes.stop();
      await n.settle();
      await worker.stop();
    },
  };
  instances.set(ctx, n);
  return n;
}
