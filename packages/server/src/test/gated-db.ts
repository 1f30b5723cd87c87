import { isSharedRead, type Db, type Queryable } from '../db/index.ts';

/**
 * The real database with a gate behind shareable reads, for tests of read sharing: while
 * closed, a read matching the gate's pattern runs and then waits with its rows (an execution
 * "in flight" whose rows predate whatever happens meanwhile) until the gate opens; writes
 * and other reads pass. Every statement that reaches the database is counted.
 */
export function gatedDb(db: Db) {
  let hold: RegExp | null = null;
  let waiting: (() => void)[] = [];
  const gate = {
    executed: 0,
    /** Holds the shared reads matching `pattern` (all of them by default). */
    close(pattern = /./) {
      hold = pattern;
    },
    /** Opens the gate; 'newest' only lets the read that arrived last go on, the gate stays closed. */
    release(which: 'all' | 'newest' = 'all') {
      if (which === 'newest') return waiting.pop()?.();
      hold = null;
      for (const go of waiting) go();
      waiting = [];
    },
    /** Resolves once `n` reads wait at the closed gate; fails after `ms`. */
    async held(n: number, ms = 5000) {
      const until = Date.now() + ms;
      while (waiting.length < n) {
        if (Date.now() > until) throw new Error(`${waiting.length} reads wait at the gate, not ${n}`);
        await new Promise((r) => setTimeout(r, 2));
      }
    },
    get waiting() {
      return waiting.length;
    },
  };
  const inner: Db = {
    kind: db.kind,
    async query<T>(sql: string, params?: readonly unknown[]) {
      gate.executed++;
      const out = await db.query<T>(sql, params).then(
        (rows) => ({ rows }),
        (error: unknown) => ({ error }),
      );
      if (hold?.test(sql) && isSharedRead(sql)) await new Promise<void>((go) => waiting.push(go));
      if ('error' in out) throw out.error;
      return out.rows;
    },
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn),
    close: () => db.close(),
    ping: () => db.ping(),
  };
  return { gate, db: inner };
}
