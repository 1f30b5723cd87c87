// The embedded PGlite in its own thread (db/index.ts starts it), so that a long run of
// queries never holds the server's event loop (HTTP, MQTT acks, /ws pushes).
// Plain JavaScript: the worker runs without the TypeScript loader of the main thread.
//
// Protocol over the parent port:
//   in:  { id, sql, params, prepare?, generic?, followUp? } run one statement (`prepare`:
//                          kept as a named statement, `generic`: on its generic plan, see
//                          run(); `followUp`: ahead of the others, see the queue below);
//                          { id, sql: null } closes the database;
//        { id, ping: true }    answered at once (between statements): the thread is alive
//   out: { id, rows } | { id, error: { message, ...fields } }; id 0 answers the opening
// The main thread decides what may run when (a transaction has the database to itself);
// this side runs statements in the order they arrive.
import fs from 'node:fs/promises';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
/** @type {{ dataDir: string | null, loadDataDir?: Blob, modules: object, prepared: { on: boolean, max: number, generic: boolean } }} */
const { dataDir, loadDataDir, modules, prepared: PREPARED } = workerData;

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
    // In memory: empty from initdb, or a copy of a dumped data directory (tests' migrated
    // template, db/index.ts OpenOptions.loadDataDir).
    db = await PGlite.create(loadDataDir ? { ...options, loadDataDir } : options);
  }
} catch (err) {
  port.postMessage({ id: 0, error: plain(err) });
}

/**
 * Statements kept prepared, by text: their name and parameter types. A statement asked with
 * `prepare` (db/index.ts QueryOptions: a fixed shape whose plan does not depend on its
 * values) is parsed once, then bound and run by name, so the database may keep its generic
 * plan, as on PostgreSQL's named statements; planning cost a drawer more than running it.
 * PGlite's own query() always sends an unnamed statement, so this speaks the extended
 * protocol itself, in the same messages query() sends. Whether to, and past how many texts
 * not, is db/index.ts's PREPARED, given in workerData.
 */
const prepared = new Map();
const { serialize } = protocol;
const quiet = { syncToFs: false };

async function runPrepared(sql, params) {
  let st = prepared.get(sql);
  const messages = [];
  try {
    if (!st) {
      const name = `se_${prepared.size + 1}`;
      await db.execProtocol(serialize.parse({ name, text: sql }), quiet);
      const described = await db.execProtocol(serialize.describe({ type: 'S', name }), quiet);
      const types = described.messages.find((m) => m.name === 'parameterDescription')?.dataTypeIDs ?? [];
      st = { name, types };
      prepared.set(sql, st);
    }
    const values = (params ?? []).map((v, i) => {
      if (v === null || v === undefined) return null;
      const write = db.serializers[st.types[i]];
      return write ? write(v) : v.toString();
    });
    for (const msg of [
      serialize.bind({ statement: st.name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
    ]) {
      messages.push(...(await db.execProtocol(msg, quiet)).messages);
    }
  } finally {
    messages.push(...(await db.execProtocol(serialize.sync())).messages);
  }
  return parse.parseResults(messages, db.parsers)[0];
}

/**
 * The plan_cache_mode this connection has now: 'generic' (force_generic_plan) around
 * prepared statements asked to run their generic plan (db/index.ts QueryOptions.generic; on
 * PostgreSQL a pool of their own), 'auto' around the others sent with values, null when not
 * known (a rollback undoes a SET made in its transaction). The setting holds for every
 * statement, those planned with their values on purpose too, hence the switch back.
 */
let planMode = 'auto';

async function planWith(mode) {
  if (!PREPARED.generic || planMode === mode) return;
  try {
    await db.execProtocol(
      serialize.query(`SET plan_cache_mode = ${mode === 'generic' ? 'force_generic_plan' : 'auto'}`),
      quiet,
    );
    planMode = mode;
  } catch {
    planMode = null; // an aborted transaction: the statement itself reports it
  }
}

async function run(sql, params, prepare, generic) {
  const named = prepare && PREPARED.on && (prepared.has(sql) || prepared.size < PREPARED.max);
  // Without values there is no custom plan to make: no switch (BEGIN, COMMIT, VACUUM…).
  if (named && generic) await planWith('generic');
  else if (params?.length) await planWith('auto');
  if (named) return runPrepared(sql, params);
  try {
    return await db.query(sql, params);
  } finally {
    if (/^\s*ROLLBACK\b/i.test(sql)) planMode = null;
  }
}

// Statements wait here and run one per turn of this thread's event loop, so a ping that
// arrives meanwhile is answered between two statements instead of after the whole queue.
// A follow-up (db/index.ts QueryOptions.followUp: the next statement of a request already
// answered once) waits only behind other follow-ups. The main thread sends a transaction's
// statements only once it has the database to itself (db/index.ts Turns), so no plain
// statement can overtake into one.
const queue = [];
const followUps = [];
let running = false;

async function next() {
  const { id, sql, params, prepare, generic } = followUps.shift() ?? queue.shift();
  if (sql === null) {
    await db.close().catch(() => {});
    port.postMessage({ id });
    port.close();
    return;
  }
  try {
    const r = await run(sql, params, prepare, generic);
    answer({ id, rows: r.rows });
  } catch (err) {
    answer({ id, error: plain(err) });
  }
  if (queue.length || followUps.length) setImmediate(next);
  else running = false;
}

if (db) {
  port.on('message', (m) => {
    if (m.ping) return port.postMessage({ id: m.id, rows: [] });
    (m.followUp ? followUps : queue).push(m);
    if (!running) {
      running = true;
      setImmediate(next);
    }
  });
  port.postMessage({ id: 0 });
}
