import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

export type Row = Record<string, unknown>;

/**
 * `prepare`: the statement's shape is fixed and its plan does not depend on its values (a
 * point check, a drawer by id, a page off one index), so PostgreSQL may keep one plan for it
 * per connection (a named prepared statement: after five runs the server keeps the generic
 * plan when it costs no more than the custom ones) instead of planning it on every call,
 * which costs a drawer more than running it. Never for a statement whose best plan depends on
 * its values (db/sql.ts walkFirst). The embedded PGlite's worker keeps named statements the
 * same way (db/pglite-worker.mjs).
 *
 * `generic` (with `prepare`): one plan serves every value, so the statement always runs its
 * generic plan, never planned again. Left to choose, the server keeps planning on every call
 * while its custom plans cost less than the generic one, which they do for a small scope
 * (the generic plan is sized for the average account): a customer's work-order page, 0.30 ms
 * on its generic plan, took 1.1 ms. Not for a statement gated on its values (walkFirst, a
 * small scope's walk): there a custom plan is what makes a customer's keyword page cheap.
 */
export interface QueryOptions {
  prepare?: boolean;
  generic?: boolean;
  /**
   * The statement continues a request whose earlier statement has been answered (a list
   * page's rows after its ids): it waits only behind other such statements, not behind
   * every request's first one. At 100 requests at once a page of two statements queued
   * twice behind the others, and waited twice as long as one of one.
   */
  followUp?: boolean;
}

/** The SQL surface repositories use: the same on PGlite and PostgreSQL. */
export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[], opts?: QueryOptions): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction with exclusive use of its connection; rolls back on throw. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Is the database there? PostgreSQL: `SELECT 1` on a pooled connection. PGlite in its
   * worker: the thread answers between two statements, without waiting behind queued ones;
   * while it is busy and has answered within the last second, that is the answer.
   */
  ping(): Promise<void>;
}

/** Returns the first row or undefined. */
export async function first<T>(
  q: Queryable,
  sql: string,
  params?: readonly unknown[],
  opts?: QueryOptions,
): Promise<T | undefined> {
  const rows = await q.query<T>(sql, params, opts);
  return rows[0];
}

// int8 and numeric come back as JS numbers: ids and counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/**
 * The name a prepared statement goes by on every connection: a digest of its text, so one
 * text is prepared once per connection whoever sends it. SE_PG_PREPARE=0 plans every
 * statement (the benchmarks' "before").
 */
const preparedNames = new Map<string, string>();
/**
 * Whether statements are kept prepared, and past how many texts not (a text built with values
 * in it must not fill every connection). The PGlite worker is given the same (workerData).
 */
const PREPARED = {
  on: process.env.SE_PG_PREPARE !== '0',
  max: 500,
  /**
   * Whether those asked to (QueryOptions.generic) always run their generic plan (PostgreSQL:
   * a pool of their own, openPostgres; PGlite: the worker switches plan_cache_mode around
   * them). SE_PG_GENERIC=0 leaves the choice to the server (the benchmarks' "before").
   */
  generic: process.env.SE_PG_GENERIC !== '0',
};
function statementOf(sql: string, params: readonly unknown[] | undefined, opts: QueryOptions | undefined) {
  if (!opts?.prepare || !PREPARED.on) return null;
  let name = preparedNames.get(sql);
  if (!name) {
    if (preparedNames.size >= PREPARED.max) return null;
    name = `se_${crypto.createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    preparedNames.set(sql, name);
  }
  return { name, text: sql, values: params as unknown[], generic: !!opts.generic && PREPARED.generic };
}

/** Connections of a PostgreSQL pool. */
const POOL_SIZE = 10;
/**
 * Statements at work on the server at once, both pools together: twice this machine's cores
 * (SE_PG_AT_WORK sets another number, for a server on a larger machine of its own). With ten
 * on two cores, ten backends, the console and the clients took turns on the cores, and a
 * statement's wait for one showed in every answer: `bench:lists` on PostgreSQL, 100
 * connections, four at work against ten in the same run, dealer and customer (varied):
 * req/s ×0.93–1.37 (median ×1.08), p99 lower in 16 of 18 cases (dealer's reviews 521 →
 * 155 ms, 中文 keyword 447 → 173). Two at work starved the keyword searches (×0.55).
 */
const AT_WORK = Number(process.env.SE_PG_AT_WORK) || 2 * os.availableParallelism();

function openPostgres(url: string): Db {
  // No JIT: a list statement whose gated branches the planner costs high (db/sql.ts
  // walkFirst: the way not taken is costed too) spent ~200 ms compiling what runs in 1 ms.
  // PGlite has no JIT, so both databases run the same plans.
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, options: '-c jit=off' });
  // Statements asked to run their generic plan (QueryOptions.generic) go to connections of
  // their own opened with plan_cache_mode = force_generic_plan. The setting cannot be given
  // per statement, and on the other connections it would also fix the plans of statements
  // planned with their values on purpose.
  const generic = PREPARED.generic
    ? new pg.Pool({
        connectionString: url,
        max: POOL_SIZE,
        options: '-c jit=off -c plan_cache_mode=force_generic_plan',
      })
    : pool;
  // Statements at work on both pools together (AT_WORK): the server has the cores it has,
  // and more statements at once only queue there instead of here.
  const atWork = new Slots(Math.min(AT_WORK, POOL_SIZE));
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  generic.on('error', () => {});
  return {
    kind: 'postgres',
    async query<T>(sql: string, params?: readonly unknown[], opts?: QueryOptions) {
      const statement = statementOf(sql, params, opts);
      await atWork.acquire(opts?.followUp);
      try {
        const r = statement
          ? await (statement.generic ? generic : pool).query(statement)
          : await pool.query(sql, params as unknown[]);
        return r.rows as T[];
      } finally {
        atWork.release();
      }
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      // A deadlock or serialization failure aborts the whole transaction before anything
      // commits, so it is run again (a few times, after a short random pause) rather than
      // answered as a server error. Transactions only touch the database, so a rerun is safe.
      for (let attempt = 1; ; attempt++) {
        try {
          return await runTransaction(fn);
        } catch (err) {
          const code = (err as { code?: string }).code;
          if (attempt >= 4 || (code !== '40P01' && code !== '40001')) throw err;
          await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
        }
      }
    },
    close: () => Promise.all([pool.end(), generic === pool ? null : generic.end()]).then(() => {}),
    ping: () => pool.query('SELECT 1').then(() => {}),
  };

  async function runTransaction<T>(fn: (tx: Queryable) => Promise<T>) {
    await atWork.acquire();
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      atWork.release();
      throw err;
    }
    try {
      await client.query('BEGIN');
      const tx: Queryable = {
        async query<R>(sql: string, params?: readonly unknown[], opts?: QueryOptions) {
          const statement = statementOf(sql, params, opts);
          return (statement ? await client.query(statement) : await client.query(sql, params as unknown[]))
            .rows as R[];
        },
      };
      const out = await fn(tx);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
      atWork.release();
    }
  }
}

/** At most `n` holders at once; the rest wait in order. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  /** Follow-ups (QueryOptions.followUp): served before `waiting`. */
  private readonly next: (() => void)[] = [];

  constructor(n: number) {
    this.free = n;
  }

  acquire(followUp = false): Promise<void> | void {
    if (this.free > 0) {
      this.free--;
      return;
    }
    return new Promise((resolve) => (followUp ? this.next : this.waiting).push(resolve));
  }

  release() {
    const next = this.next.shift() ?? this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** PGlite on this thread: its queries hold the event loop (kept for the event-loop benchmark). */
async function openPgliteHere(dataDir: string | null, loadDataDir: Blob | undefined): Promise<Db> {
  let db: PGlite;
  if (dataDir) {
    const dir = path.join(dataDir, 'pg');
    await fs.mkdir(dataDir, { recursive: true });
    db = await PGlite.create(dir, { extensions: { pg_trgm } });
  } else {
    db = await PGlite.create({ extensions: { pg_trgm }, loadDataDir });
  }
  const parse = { parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) } };
  // PGlite runs one statement at a time; its query() and transaction() share one mutex,
  // so a transaction has the connection to itself until it ends.
  return {
    kind: 'pglite',
    async query<T>(sql: string, params?: readonly unknown[]) {
      const r = await db.query<T>(sql, params as unknown[], parse);
      return r.rows;
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction(async (t) =>
        fn({
          async query<R>(sql: string, params?: readonly unknown[]) {
            return (await t.query<R>(sql, params as unknown[], parse)).rows;
          },
        }),
      );
    },
    close: () => db.close(),
    ping: () => db.query('SELECT 1').then(() => {}),
  };
}

/**
 * Shared and exclusive turns in arrival order: plain queries overlap (the worker runs them one
 * after another anyway), a transaction waits for them and then runs alone, as on PGlite's
 * own mutex. A query arriving behind a waiting transaction waits too, so none starves.
 */
class Turns {
  private shared = 0;
  private exclusive = false;
  private waiting: { exclusive: boolean; go: () => void }[] = [];

  async run<T>(exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    if (this.waiting.length || !this.free(exclusive)) {
      await new Promise<void>((go) => this.waiting.push({ exclusive, go }));
    } else {
      this.enter(exclusive);
    }
    try {
      return await fn();
    } finally {
      if (exclusive) this.exclusive = false;
      else this.shared--;
      while (this.waiting.length && this.free(this.waiting[0]!.exclusive)) {
        const next = this.waiting.shift()!;
        this.enter(next.exclusive);
        next.go();
      }
    }
  }

  private free(exclusive: boolean) {
    return !this.exclusive && (!exclusive || this.shared === 0);
  }

  private enter(exclusive: boolean) {
    if (exclusive) this.exclusive = true;
    else this.shared++;
  }
}

interface Pending {
  resolve: (rows: Row[]) => void;
  reject: (err: Error) => void;
}

/** PGlite's compiled code and file bundle, read once per process and lent to every worker. */
let modules: Promise<object> | null = null;
function pgliteModules() {
  modules ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pgliteWasmModule, initdbWasmModule, bundle] = await Promise.all([
      fs.readFile(path.join(dist, 'pglite.wasm')).then((b) => WebAssembly.compile(b)),
      fs.readFile(path.join(dist, 'initdb.wasm')).then((b) => WebAssembly.compile(b)),
      fs.readFile(path.join(dist, 'pglite.data')),
    ]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([bundle]) };
  })();
  return modules;
}

/**
 * PGlite in a worker thread (db/pglite-worker.mjs): the server's event loop only posts a
 * statement and takes the rows back, however long the database works on it. Errors arrive
 * with PostgreSQL's fields (`code` '23505', `constraint`…) as on the pg driver.
 */
async function openPgliteWorker(dataDir: string | null, loadDataDir: Blob | undefined): Promise<Db> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir, loadDataDir, modules: await pgliteModules(), prepared: PREPARED },
    // The worker is plain JavaScript: no TypeScript loader or other flags of this process.
    execArgv: [],
  });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let lost: Error | null = null;
  // An idle worker must not keep the process alive; one that owes an answer must.
  worker.unref();
  const settle = (id: number) => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return p;
  };
  const fail = (err: Error) => {
    lost ??= err;
    for (const id of [...pending.keys()]) settle(id)!.reject(lost);
  };
  let answeredAt = performance.now();
  worker.on('message', (m: { id: number; rows?: Row[]; error?: { message: string } }) => {
    answeredAt = performance.now();
    const p = settle(m.id);
    if (!p) return;
    if (m.error) p.reject(Object.assign(new Error(m.error.message), m.error));
    else p.resolve(m.rows ?? []);
  });
  worker.on('error', (err) => fail(new Error(`embedded database stopped: ${err.message}`, { cause: err })));
  worker.on('exit', (code) => fail(new Error(`embedded database stopped (exit ${code})`)));
  const post = (msg: {
    id: number;
    sql?: string | null;
    params?: readonly unknown[];
    prepare?: boolean;
    generic?: boolean;
    followUp?: boolean;
    ping?: true;
  }) =>
    new Promise<Row[]>((resolve, reject) => {
      if (lost) return reject(lost);
      if (pending.size === 0) worker.ref();
      pending.set(msg.id, { resolve, reject });
      worker.postMessage(msg);
    });
  const opened = new Promise<Row[]>((resolve, reject) => {
    worker.ref();
    pending.set(0, { resolve, reject });
  });
  try {
    await opened;
  } catch (err) {
    await worker.terminate();
    throw err;
  }

  const run = <T>(sql: string, params?: readonly unknown[], opts?: QueryOptions) =>
    post({
      id: nextId++,
      sql,
      params,
      ...(opts?.prepare ? { prepare: true, ...(opts.generic ? { generic: true } : {}) } : {}),
      ...(opts?.followUp ? { followUp: true } : {}),
    }) as Promise<T[]>;
  const turns = new Turns();
  return {
    kind: 'pglite',
    query: <T>(sql: string, params?: readonly unknown[], opts?: QueryOptions) =>
      turns.run(false, () => run<T>(sql, params, opts)),
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return turns.run(true, async () => {
        await run('BEGIN');
        try {
          const out = await fn({ query: run });
          await run('COMMIT');
          return out;
        } catch (err) {
          await run('ROLLBACK').catch(() => {});
          throw err;
        }
      });
    },
    async close() {
      if (lost) return;
      // Statements already queued run first; then the database is closed (flushed to disk)
      // and the thread is ended.
      await turns.run(true, () => post({ id: nextId++, sql: null }));
      await worker.terminate();
    },
    // Busy and answering within the last second: the thread is there, and a ping would only
    // wait for the statement it is running. Idle, or silent for a second: ask the thread.
    ping: () =>
      pending.size > 0 && performance.now() - answeredAt < 1000
        ? Promise.resolve()
        : post({ id: nextId++, ping: true }).then(() => {}),
  };
}

export interface OpenOptions {
  databaseUrl?: string;
  dataDir: string | null;
  /** PGlite on the server's own thread instead of a worker (the event-loop benchmark's "before"). */
  pgliteInProcess?: boolean;
  /** Identical reads in flight share one execution (`coalesced`); default on. */
  coalesce?: boolean;
  /**
   * In-memory PGlite only (`dataDir` null): start from this copy of a data directory
   * (PGlite's `dumpDataDir`) instead of an empty one from initdb. Tests start every database
   * from one migrated copy (test/global-setup.ts); the server never passes it.
   */
  loadDataDir?: Blob;
}

/** PostgreSQL when a URL is given, else PGlite in `dataDir/pg` (or in memory for null). */
export async function openDb(opts: OpenOptions): Promise<Db> {
  const db = opts.databaseUrl
    ? openPostgres(opts.databaseUrl)
    : opts.pgliteInProcess
      ? await openPgliteHere(opts.dataDir, opts.loadDataDir)
      : await openPgliteWorker(opts.dataDir, opts.loadDataDir);
  const shared = opts.coalesce === false ? db : coalesced(db);
  return process.env.SE_DB_TRACE ? traced(shared) : shared;
}

/**
 * A statement that only reads, so that callers asking it at the same time may share one
 * execution: a SELECT (or WITH … SELECT) that writes nothing, calls nothing with an effect
 * (sequences, advisory locks, random values, notifications) and locks no rows.
 */
const READ_ONLY = /^\s*(select|with)\b/i;
const HAS_EFFECT =
  /\b(insert|update|delete|merge|nextval|setval|set_config|pg_notify|pg_sleep|txid_current|lock)\b|random|advisory/i;
export const isSharedRead = (sql: string) => READ_ONLY.test(sql) && !HAS_EFFECT.test(sql);

/** Statement texts numbered for single flight's keys (db/index.ts coalesced). */
const MAX_NUMBERED_TEXTS = 5000;

/** The parameters as a key, or null for one JSON cannot write (a bigint): that call runs alone. */
function paramsKey(params?: readonly unknown[]): string | null {
  try {
    return JSON.stringify(params ?? []);
  } catch {
    return null;
  }
}

interface InFlight {
  /** The write epoch when the statement was sent: only callers of the same epoch join it. */
  epoch: number;
  joiners: Pending[];
}

/**
 * Single flight for reads: an identical read statement (same SQL, same parameters) asked
 * while one is in flight shares its execution instead of running again, so a burst (fifty
 * dashboards, a customer's staff refreshing one list) costs one query. Read-your-writes holds:
 * every transaction and every other statement bumps a write epoch when it ends, and a read
 * joins only one sent in the same epoch, so a read asked after a write was answered never
 * takes rows from before it. Reads inside a transaction go to the transaction's connection
 * and never join. Each joiner gets its own copy of the rows (callers may change theirs).
 */
export function coalesced(db: Db): Db {
  const inFlight = new Map<string, InFlight>();
  let epoch = 0;
  // Each statement text's number, 0 for one that is not a shared read. A text is a constant of
  // a repository, so its lookup hashes a string V8 has hashed before; the key of a call is then
  // that number and the parameters, not a copy of the whole text (a list statement is a few
  // KB: hashing a fresh copy of it and matching the effect pattern over it on every call cost
  // ~15% of a by-id request's CPU). Texts built with values in them are not kept past a bound.
  const numbers = new Map<string, number>();
  const keyOf = (sql: string, params?: readonly unknown[]) => {
    let n = numbers.get(sql);
    let text: string | undefined;
    if (n === undefined) {
      n = isSharedRead(sql) ? numbers.size + 1 : 0;
      if (numbers.size < MAX_NUMBERED_TEXTS) numbers.set(sql, n);
      else text = sql;
    }
    if (n === 0) return null;
    const p = paramsKey(params);
    if (p === null) return null;
    return `${text ?? n}\u0000${p}`;
  };
  return {
    kind: db.kind,
    async query<T>(sql: string, params?: readonly unknown[], opts?: QueryOptions): Promise<T[]> {
      const key = keyOf(sql, params);
      if (key === null) {
        try {
          return await db.query<T>(sql, params, opts);
        } finally {
          epoch++;
        }
      }
      const running = inFlight.get(key);
      if (running && running.epoch === epoch) {
        return new Promise<Row[]>((resolve, reject) => running.joiners.push({ resolve, reject })) as Promise<
          T[]
        >;
      }
      const mine: InFlight = { epoch, joiners: [] };
      inFlight.set(key, mine);
      try {
        const rows = await db.query<T>(sql, params, opts);
        if (inFlight.get(key) === mine) inFlight.delete(key);
        for (const j of mine.joiners) j.resolve(structuredClone(rows) as Row[]);
        return rows;
      } catch (err) {
        if (inFlight.get(key) === mine) inFlight.delete(key);
        for (const j of mine.joiners) j.reject(err as Error);
        throw err;
      }
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      try {
        return await db.transaction(fn);
      } finally {
        epoch++;
      }
    },
    close: () => db.close(),
    ping: () => db.ping(),
  };
}

/**
 * SE_DB_TRACE=1: every statement is written to stderr as one line (`[db] ` and its first
 * 160 characters, `[db tx]` inside a transaction), to count what a request costs.
 */
function traced(db: Db): Db {
  const line = (tag: string, sql: string) =>
    process.stderr.write(`[db${tag}] ${sql.replace(/\s+/g, ' ').slice(0, 160)}\n`);
  return {
    kind: db.kind,
    query<T>(sql: string, params?: readonly unknown[], opts?: QueryOptions) {
      line('', sql);
      return db.query<T>(sql, params, opts);
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction((tx) =>
        fn({
          query<R>(sql: string, params?: readonly unknown[], opts?: QueryOptions) {
            line(' tx', sql);
            return tx.query<R>(sql, params, opts);
          },
        }),
      );
    },
    close: () => db.close(),
    ping: () => db.ping(),
  };
}
