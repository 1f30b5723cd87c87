import fs from 'node:fs';
import { canAccess, DOWNLOAD_KEEP_DAYS, formatDateTime } from '@se/core';
import type { AppContext, Caller } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { issueMessage } from '../../http/validation.ts';
import { findExport } from './registry.ts';
import * as repo from './repo.ts';
import type { DownloadRecord } from './repo.ts';
import { downloadsDir, finalName, partName, safeFileName, storedFile, unlinkQuiet } from './storage.ts';
import { writeExport } from './writers.ts';

export interface RunnerOptions {
  /** Jobs one server copy runs at once. */
  concurrency: number;
  /** How often idle runners look for queued jobs (a create on this copy wakes it at once). */
  pollMs: number;
  /** Progress is written at most this often. */
  progressMs: number;
  /** A running job's row is touched this often even when a page takes long… */
  heartbeatMs: number;
  /** …and one not touched for this long belongs to a dead copy: queued again. */
  staleMs: number;
  /** Starts before a job that keeps killing its runner is given up. */
  maxAttempts: number;
}

const DEFAULTS: RunnerOptions = {
  concurrency: 2,
  pollMs: 2000,
  progressMs: 500,
  heartbeatMs: 5000,
  staleMs: 30_000,
  maxAttempts: 3,
};

/** The job was deleted while it ran, or the server is stopping. */
class Stopped extends Error {
  constructor(readonly why: 'deleted' | 'shutdown') {
    super(why);
  }
}

const runners = new WeakMap<AppContext, DownloadRunner>();

/** The app's runner (created on first use; started by app.ts, or by a test). */
export function runnerOf(ctx: AppContext): DownloadRunner {
  let r = runners.get(ctx);
  if (!r) {
    r = new DownloadRunner(ctx);
    runners.set(ctx, r);
  }
  return r;
}

/**
 * Runs export jobs in the background of the server process: never inside a request (a
 * request only inserts the row and wakes the runner). Jobs are claimed from the database,
 * so several server copies share the queue and a job runs on one of them.
 */
export class DownloadRunner {
  readonly opts: RunnerOptions;
  private started = false;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private again = false;
  private readonly active = new Map<
    number,
    { stop: (why: 'deleted' | 'shutdown') => void; done: Promise<void> }
  >();

  constructor(
    private readonly ctx: AppContext,
    opts: Partial<RunnerOptions> = {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  get running() {
    return this.started;
  }

  /** Re-queues jobs a crash left running, then polls. */
  async start(opts: Partial<RunnerOptions> = {}) {
    if (this.started) return;
    Object.assign(this.opts, opts);
    this.started = true;
    // On PGlite only this process can hold the database: anything 'running' is from a crash.
    await this.recover(this.ctx.db.kind === 'pglite' ? 0 : this.opts.staleMs);
    this.timer = setInterval(() => this.wake(), this.opts.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops polling; running jobs stop and go back to the queue for the next start. */
  async stop() {
    if (!this.started) return;
    this.started = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const job of this.active.values()) job.stop('shutdown');
    await this.polling?.catch(() => {});
    await Promise.allSettled([...this.active.values()].map((j) => j.done));
  }

  /** The app is closing. */
  async close() {
    await this.stop();
  }

  /** Looks for work now (after a create, or when a job ends). */
  wake() {
    if (!this.started) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = this.poll()
      .catch((err) => this.ctx.log.warn({ err }, 'download runner poll failed'))
      .finally(() => {
        this.polling = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves once no job of the queue is waiting or running (tests, benchmarks). */
  async idle(timeoutMs = 60_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      await this.polling;
      await Promise.allSettled([...this.active.values()].map((j) => j.done));
      const left = await repo.countPending(this.ctx.db);
      if (!left && this.active.size === 0) return;
      if (Date.now() > until) throw new Error(`download jobs still pending after ${timeoutMs} ms`);
      this.wake();
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Stops a job of this copy (deleted by its owner). */
  cancel(id: number) {
    this.active.get(id)?.stop('deleted');
  }

  async recover(staleMs: number) {
    const { failed, queued } = await repo.requeueStale(this.ctx.db, staleMs, this.opts.maxAttempts);
    for (const r of [...failed, ...queued]) await unlinkQuiet(storedFile(this.ctx, partName(r.id)));
    if (queued.length) this.ctx.log.info({ ids: queued.map((r) => r.id) }, 'download jobs re-queued');
  }

  private async poll() {
    await this.recover(this.opts.staleMs);
    while (this.started && this.active.size < this.opts.concurrency) {
      const job = await repo.claimNext(this.ctx.db);
      if (!job) return;
      let stop: (why: 'deleted' | 'shutdown') => void = () => {};
      const stopped = new Promise<Stopped>((resolve) => {
        stop = (why) => resolve(new Stopped(why));
      });
      const done = this.run(job, stopped)
        .catch((err) => this.ctx.log.error({ err, id: job.id }, 'download job crashed'))
        .finally(() => {
          this.active.delete(job.id);
          this.wake();
        });
      this.active.set(job.id, { stop, done });
    }
  }

  private async run(job: DownloadRecord, stopped: Promise<Stopped>) {
    const { ctx } = this;
    const part = storedFile(ctx, partName(job.id));
    let halt: Stopped | null = null;
    void stopped.then((s) => (halt = s));
    const heartbeat = setInterval(() => {
      repo.progress(ctx.db, job.id, rows, null).then(
        (alive) => {
          if (!alive) halt ??= new Stopped('deleted');
        },
        () => {},
      );
    }, this.opts.heartbeatMs);
    heartbeat.unref();
    let rows = 0;
    let lastWrite = 0;
    try {
      const def = findExport(job.name);
      if (!def) throw new AppError(400, '此导出类型已不再提供');
      const user = await repo.jobOwner(ctx.db, job.user_id);
      if (!user || user.is_delete) throw new AppError(403, '账号已停用，导出已取消');
      const parsed = def.query.safeParse(job.params);
      if (!parsed.success) {
        throw new AppError(400, `导出参数有误：${issueMessage(parsed.error.issues[0]!, job.params)}`);
      }
      const q = parsed.data;
      // Checked again here: the permission may have changed since the job was created.
      if (!canAccess(user.permissions, def.accessFor ? def.accessFor(q) : def.access)) {
        throw new AppError(403, '当前账号已没有导出此数据的权限');
      }
      const caller: Caller = {
        id: job.user_id,
        userName: user.user_name,
        permission: user.permissions,
        sessionId: 0,
      };
      const columns = await def.columns(q, ctx, caller);
      const total = def.count ? await def.count(ctx, caller, q) : null;
      if (total !== null) await repo.progress(ctx.db, job.id, 0, total);
      downloadsDir(ctx);
      const n = await writeExport(
        part,
        job.format,
        def.sheetName?.(q) ?? def.label,
        columns,
        def.rows(ctx, caller, q),
        async (count) => {
          rows = count;
          if (halt) throw halt;
          const now = Date.now();
          if (now - lastWrite < this.opts.progressMs) return;
          lastWrite = now;
          if (!(await repo.progress(ctx.db, job.id, count, null))) throw new Stopped('deleted');
        },
      );
      if (halt) throw halt;
      const size = (await fs.promises.stat(part)).size;
      const stored = finalName(job.id, job.format);
      await fs.promises.rename(part, storedFile(ctx, stored));
      const base =
        def.fileName?.(q) ?? `${def.label}-${formatDateTime(Date.now()).slice(0, 10).replace(/-/g, '')}`;
      const ok = await repo.finish(ctx.db, job.id, {
        fileName: `${safeFileName(base)}.${job.format}`,
        storedPath: stored,
        size,
        rows: n,
        keepDays: DOWNLOAD_KEEP_DAYS,
      });
      if (!ok) await unlinkQuiet(storedFile(ctx, stored));
    } catch (err) {
      await unlinkQuiet(part);
      if (err instanceof Stopped) {
        if (err.why === 'shutdown') {
          await repo.requeueRunning(ctx.db, job.id).catch(() => {});
        }
        return;
      }
      let message = '导出失败：服务器处理出错，请稍后重新导出';
      if (err instanceof AppError) message = err.message;
      else ctx.log.error({ err, id: job.id, name: job.name }, 'download job failed');
      await repo.fail(ctx.db, job.id, message, DOWNLOAD_KEEP_DAYS).catch(() => {});
    } finally {
      clearInterval(heartbeat);
    }
  }
}
