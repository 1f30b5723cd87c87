import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

export type Row = Record<string, unknown>;

/** The SQL surface repositories use: the same on PGlite and PostgreSQL. */
export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction with exclusive use of its connection; rolls back on throw. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Returns the first row or undefined. */
export async function first<T>(
  q: Queryable,
  sql: string,
  params?: readonly unknown[],
): Promise<T | undefined> {
  const rows = await q.query<T>(sql, params);
  return rows[0];
}

// int8 and numeric come back as JS numbers: ids and counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

function openPostgres(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  return {
    kind: 'postgres',
    async query<T>(sql: string, params?: readonly unknown[]) {
      const r = await pool.query(sql, params as unknown[]);
      return r.rows as T[];
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Queryable = {
          async query<R>(sql: string, params?: readonly unknown[]) {
            return (await client.query(sql, params as unknown[])).rows as R[];
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
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string | null): Promise<Db> {
  let db: PGlite;
  if (dataDir) {
    const dir = path.join(dataDir, 'pg');
    await fs.mkdir(dataDir, { recursive: true });
    db = await PGlite.create(dir, { extensions: { pg_trgm } });
  } else {
    db = await PGlite.create({ extensions: { pg_trgm } });
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
  };
}

/** PostgreSQL when a URL is given, else PGlite in `dataDir/pg` (or in memory for null). */
export function openDb(opts: { databaseUrl?: string; dataDir: string | null }): Promise<Db> {
  return opts.databaseUrl ? Promise.resolve(openPostgres(opts.databaseUrl)) : openPglite(opts.dataDir);
}
