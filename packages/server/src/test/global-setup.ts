import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDb, type Db } from '../db/index.ts';
import { migrate } from '../db/migrate.ts';

/**
 * The migrated database every test app starts from (harness.ts testApp), built once per run:
 * initdb and the migrations cost an embedded database 3–8 s, more than most suites' tests.
 * PGlite: a dump of a migrated data directory in a file (`pglite`), loaded into each new
 * in-memory database. PostgreSQL (TEST_DB=postgres): a migrated database (`postgres`, its
 * name) each suite's database is created from as a copy. The migrations themselves run here,
 * through migrate() as the server runs them, on every run (ingest/pipeline.test.ts migrates
 * an empty database of its own too).
 */
export interface DbTemplate {
  pglite?: string;
  postgres?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: DbTemplate;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DB === 'postgres') {
    const { name, drop } = await postgresTemplate();
    project.provide('dbTemplate', { postgres: name });
    return drop;
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'se-template-'));
  const file = path.join(dir, 'pgdata.tar');
  await fs.writeFile(file, await pgliteTemplate());
  project.provide('dbTemplate', { pglite: file });
  return () => fs.rm(dir, { recursive: true, force: true });
}

/** A migrated in-memory PGlite's data directory, as PGlite's `loadDataDir` takes it. */
async function pgliteTemplate() {
  const pglite = await PGlite.create({ extensions: { pg_trgm } });
  try {
    const q = async (sql: string, params?: readonly unknown[]) =>
      (await pglite.query<never>(sql, params as unknown[])).rows;
    const db: Db = {
      kind: 'pglite',
      query: q,
      transaction: (fn) =>
        pglite.transaction((tx) =>
          fn({ query: async (sql, params) => (await tx.query<never>(sql, params as unknown[])).rows }),
        ),
      close: () => pglite.close(),
      ping: () => q('SELECT 1').then(() => {}),
    };
    await migrate(db);
    // Everything written out to the data files: a copy starts without replaying the WAL.
    await pglite.query('CHECKPOINT');
    return Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
  } finally {
    await pglite.close();
  }
}

/** A migrated database on DATABASE_URL's server, closed to connections, and how to drop it. */
async function postgresTemplate() {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  const name = `se_template_${crypto.randomBytes(5).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const drop = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    const u = new URL(base);
    u.pathname = `/${name}`;
    const db = await openDb({ databaseUrl: u.toString(), dataDir: null, coalesce: false });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    // CREATE DATABASE … TEMPLATE refuses a source anyone is connected to: nobody may be.
    await admin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  } catch (err) {
    await drop();
    throw err;
  }
  return { name, drop };
}
