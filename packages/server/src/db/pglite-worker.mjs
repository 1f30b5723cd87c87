// The embedded PGlite in its own thread (db/index.ts starts it), so that a long run of
// queries never holds the server's event loop (HTTP, MQTT acks, /ws pushes).
// Plain JavaScript: the worker runs without the TypeScript loader of the main thread.
//
// Protocol over the parent port:
//   in:  { id, sql, params }   run one statement; { id, sql: null } closes the database
//   out: { id, rows } | { id, error: { message, ...fields } }; id 0 answers the opening
// The main thread decides what may run when (a transaction has the database to itself);
// this side runs statements in the order they arrive.
import fs from 'node:fs/promises';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
/** @type {{ dataDir: string | null, modules: object }} */
const { dataDir, modules } = workerData;

/** An error as plain data: the message and every primitive field (code, constraint, detail…). */
function plain(err) {
  const out = { message: String(err?.message ?? err) };
  if (err && typeof err === 'object') {
    for (const [k, v] of Object.entries(err)) {
      if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
    }
  }
  return out;
}

function answer(msg) {
  try {
    port.postMessage(msg);
  } catch (err) {
    port.postMessage({ id: msg.id, error: plain(err) });
  }
}

// int8 and numeric come back as JS numbers, as in db/index.ts for PostgreSQL.
const options = {
  extensions: { pg_trgm },
  parsers: { 20: (v) => Number(v), 1700: (v) => Number(v) },
  ...modules,
};

let db;
try {
  if (dataDir) {
    await fs.mkdir(dataDir, { recursive: true });
    db = await PGlite.create(path.join(dataDir, 'pg'), options);
  } else {
    db = await PGlite.create(options);
  }
} catch (err) {
  port.postMessage({ id: 0, error: plain(err) });
}

if (db) {
  port.on('message', async ({ id, sql, params }) => {
    if (sql === null) {
      await db.close().catch(() => {});
      port.postMessage({ id });
      port.close();
      return;
    }
    try {
      const r = await db.query(sql, params);
      answer({ id, rows: r.rows });
    } catch (err) {
      answer({ id, error: plain(err) });
    }
  });
  port.postMessage({ id: 0 });
}
