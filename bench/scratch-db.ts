// A database for one bench run: embedded PGlite in memory by default, a scratch PostgreSQL
// database when DATABASE_URL is set (created here, dropped by `drop()` unless KEEP is set).
import crypto from 'node:crypto';
import pg from 'pg';
import { openDb, type Db } from '../packages/server/src/db/index.ts';

export interface ScratchDb {
  db: Db;
  /** Closes the database and drops the scratch one (kept, and named, with KEEP=1). */
  drop(): Promise<void>;
}

export async function scratchDb(prefix: string): Promise<ScratchDb> {
  const base = process.env.DATABASE_URL || '';
  if (!base) {
    const db = await openDb({ dataDir: null });
    return { db, drop: () => db.close() };
  }
  const name = `se_bench_${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: u.toString(), dataDir: null });
  return {
    db,
    drop: async () => {
      await db.close();
      if (process.env.KEEP) console.log(`kept ${name}`);
      else await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
