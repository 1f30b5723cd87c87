import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface PoolOptions {
  /** Threads at most; each is reused for the next task. */
  size: number;
  /** From the call to the answer, queueing included: past it the thread is terminated. */
  budgetMs: number;
  /** Heap caps of each thread: a task that needs more ends the thread, not the server. */
  resourceLimits: ResourceLimits;
  /** Tasks waiting for a thread at most; more are refused at once. */
  maxQueue: number;
}

/** Why a task did not produce a result (the message is for logs, not for users). */
export class WorkerFailure extends Error {
  constructor(
    readonly reason: 'budget' | 'crash' | 'busy' | 'task',
    message: string,
    /** The task's own error name when reason is 'task' (e.g. UploadRejected). */
    readonly taskError?: string,
  ) {
    super(message);
  }
}

interface Job {
  fn: string;
  args: unknown[];
  deadline: number;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  job: Job | null;
  timer?: NodeJS.Timeout;
}

const BOOTSTRAP = new URL('./worker.mjs', import.meta.url);

/**
 * Runs the exported functions of one module in worker threads, so that a slow or hostile
 * input (a parse that loops, a file that needs gigabytes) costs a thread that is
 * terminated at its time budget or memory cap, never the event loop of the server.
 * Threads start on first use, are kept for the next task and unref'd.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(
    private readonly module: URL,
    private readonly opts: PoolOptions,
  ) {}

  run<T>(fn: string, args: unknown[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length >= this.opts.maxQueue) {
        reject(new WorkerFailure('busy', 'upload queue full'));
        return;
      }
      const job: Job = {
        fn,
        args,
        deadline: Date.now() + this.opts.budgetMs,
        resolve: resolve as (v: unknown) => void,
        reject,
      };
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Ends every thread (tests, shutdown); the pool starts new ones when used again. */
  async close() {
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private dispatch() {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.opts.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      const left = job.deadline - Date.now();
      if (left <= 0) {
        job.reject(new WorkerFailure('busy', 'budget spent waiting for a thread'));
        continue;
      }
      this.start(slot, job, left);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(BOOTSTRAP, {
      workerData: { module: this.module.href },
      resourceLimits: this.opts.resourceLimits,
      // Not the parent's loader flags: the bootstrap registers its own.
      execArgv: [],
      stdout: false,
      stderr: false,
    });
    worker.unref();
    const slot: Slot = { worker, job: null, ready: Promise.resolve() };
    slot.ready = new Promise((resolve) => {
      const onReady = (m: { ready?: boolean }) => {
        if (m?.ready) {
          worker.off('message', onReady);
          resolve();
        }
      };
      worker.on('message', onReady);
    });
    worker.on(
      'message',
      (m: { id?: number; result?: unknown; error?: { name: string; message: string } }) => {
        const job = slot.job;
        if (m.id === undefined || !job) return;
        this.finish(slot);
        if (m.error) job.reject(new WorkerFailure('task', m.error.message, m.error.name));
        else job.resolve(m.result);
      },
    );
    const gone = (err?: Error) => {
      const job = slot.job;
      this.drop(slot);
      job?.reject(new WorkerFailure('crash', err?.message ?? 'worker exited'));
    };
    worker.on('error', gone);
    worker.on('exit', () => gone());
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job, left: number) {
    slot.job = job;
    const id = this.nextId++;
    slot.timer = setTimeout(() => {
      // A sync loop cannot be interrupted from inside: the thread goes, its heap with it.
      this.drop(slot);
      void slot.worker.terminate();
      job.reject(new WorkerFailure('budget', `task ${job.fn} over ${this.opts.budgetMs} ms`));
    }, left);
    slot.timer.unref();
    void slot.ready.then(() => {
      if (slot.job === job) slot.worker.postMessage({ id, fn: job.fn, args: job.args });
    });
  }

  private finish(slot: Slot) {
    clearTimeout(slot.timer);
    slot.job = null;
    this.dispatch();
  }

  private drop(slot: Slot) {
    clearTimeout(slot.timer);
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    slot.job = null;
    this.dispatch();
  }
}
