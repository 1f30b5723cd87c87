import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  DEVICE_KINDS,
  DEVICE_REPORT_API,
  PERMISSION,
  TOILET_API,
  type AuditEntry,
  type DeviceKind,
} from '@se/core';
import { buildApp, type BuiltApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDb, type Db } from '../db/index.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { findUser, insertUser } from '../modules/users/repo.ts';
import type { DbTemplate } from './global-setup.ts';

/**
 * Test servers: in-memory PGlite by default; with TEST_DB=postgres a fresh database on
 * DATABASE_URL's server per app, dropped when the app closes. Under vitest both start as a
 * copy of the run's migrated template (test/global-setup.ts); elsewhere (benchmarks) empty,
 * migrated by buildApp.
 */
export interface TestApp extends BuiltApp {
  close(): Promise<void>;
  /** POST with a form body (the client's default) or JSON; returns the parsed envelope. */
  post<T = unknown>(url: string, body?: Record<string, unknown> | string, opts?: ReqOpts): Promise<Env<T>>;
  get<T = unknown>(url: string, query?: Record<string, unknown>, opts?: ReqOpts): Promise<Env<T>>;
  /** Signs in through the API and returns the session token. */
  login(filter: string, password: string): Promise<string>;
  /**
   * Creates an account directly in the database (setup, not what a test is about) with the
   * password TEST_PASSWORD, below `parentId` (default: admin), and signs it in.
   */
  account(
    name: string,
    permissions: number,
    parentId?: number | null,
  ): Promise<{ id: number; token: string }>;
}

export const TEST_PASSWORD = 'password-123';

export interface Env<T> {
  code: number;
  message: string;
  data: T;
  res: LightMyRequestResponse;
}

interface ReqOpts {
  token?: string;
  json?: boolean;
  headers?: Record<string, string>;
  ip?: string;
}

export const ADMIN_PASSWORD = 'admin-pass-123';

export function usingPostgres() {
  return process.env.TEST_DB === 'postgres';
}

/** The run's migrated template, when the project has one (test/global-setup.ts). */
let template: Promise<DbTemplate> | null = null;
function dbTemplate() {
  template ??= (async (): Promise<DbTemplate> => {
    // Outside vitest (benchmarks use this harness) there is none.
    if (!process.env.VITEST) return {};
    const { inject } = await import('vitest');
    return inject('dbTemplate') ?? {};
  })();
  return template;
}

/** The migrated PGlite data directory to start an in-memory test database from, if any. */
let pgliteDump: Promise<Blob | undefined> | null = null;
function pgliteTemplate() {
  pgliteDump ??= dbTemplate().then(async ({ pglite }) =>
    pglite ? new Blob([await fs.readFile(pglite)]) : undefined,
  );
  return pgliteDump;
}

/**
 * A fresh PostgreSQL database on DATABASE_URL's server, and how to drop it: empty, or with
 * `migrated` a copy of the run's migrated template when there is one (else empty too).
 */
export async function scratchDatabase(
  opts: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  const name = `se_test_${crypto.randomBytes(5).toString('hex')}`;
  const from = opts.migrated ? (await dbTemplate()).postgres : undefined;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${from ? ` TEMPLATE ${from}` : ''}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * `wrapDb` puts something between the app and its database (tests of the database layer):
 * it is given the opened database without read sharing and answers the Db the app uses.
 */
export async function testApp(
  overrides: Partial<Config> = {},
  opts: { wrapDb?: (db: Db) => Db } = {},
): Promise<TestApp> {
  let dropDb: (() => Promise<void>) | null = null;
  let databaseUrl: string | undefined;
  if (usingPostgres()) {
    const scratch = await scratchDatabase({ migrated: true });
    databaseUrl = scratch.url;
    dropDb = scratch.drop;
  }
  const config: Config = {
    ...loadConfig({ ADMIN_PASSWORD, LOG_LEVEL: 'silent' }),
    dataDir: null,
    databaseUrl,
    mqttPort: null,
    webDist: null,
    // The production cost (2^17) is asserted in password.test.ts; suites use a cheaper one.
    scryptLogN: 14,
    ...overrides,
  };
  const loadDataDir = databaseUrl ? undefined : await pgliteTemplate();
  const own = opts.wrapDb
    ? opts.wrapDb(await openDb({ databaseUrl, dataDir: null, coalesce: false, loadDataDir }))
    : undefined;
  const built = await buildApp(config, { logger: false, jobs: false, db: own, pgliteTemplate: loadDataDir });
  const { app } = built;

  const send = async (method: 'GET' | 'POST', url: string, payload: unknown, opts: ReqOpts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers['x-token'] = opts.token;
    let body: string | undefined;
    if (method === 'POST' && payload !== undefined) {
      if (typeof payload === 'string') {
        body = payload;
        headers['content-type'] ??= 'application/x-www-form-urlencoded';
      } else if (opts.json) {
        body = JSON.stringify(payload);
        headers['content-type'] = 'application/json';
      } else {
        body = new URLSearchParams(
          Object.entries(payload as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
        ).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
    }
    const query =
      method === 'GET' && payload
        ? Object.fromEntries(
            Object.entries(payload as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
          )
        : undefined;
    // Each request comes from its own loopback address unless a test pins one: per-IP limits
    // then only bite the tests that are about them.
    const ip = opts.ip ?? `127.${rnd()}.${rnd()}.${rnd()}`;
    const res = await app.inject({ method, url, headers, payload: body, query, remoteAddress: ip });
    const parsed = res.json() as Env<unknown>;
    return { ...parsed, res };
  };

  let hash: string | undefined;
  const t: TestApp = {
    ...built,
    async close() {
      await app.close();
      await own?.close();
      await dropDb?.();
    },
    post: (url, body, opts) => send('POST', url, body, opts) as never,
    get: (url, query, opts) => send('GET', url, query, opts) as never,
    async account(name, permissions, parentId = 1) {
      hash ??= await hashPassword(TEST_PASSWORD, 10);
      const id = await insertUser(built.ctx.db, {
        user_name: name,
        email: null,
        password_hash: hash,
        permissions,
        parent_id: parentId,
      });
      return { id, token: await t.login(name, TEST_PASSWORD) };
    },
    async login(filter, password) {
      const r = await t.post<{ auth_token: string }>('/api/v1/auth/login', { filter, password });
      if (r.code !== 200) throw new Error(`login ${filter} failed: ${r.code} ${r.message}`);
      return r.data.auth_token;
    },
  };
  return t;
}

/**
 * A test app with admin signed in: the start of most API suites
 * (`beforeAll(async () => ({ t, admin } = await adminApp()))`).
 */
export async function adminApp(overrides: Partial<Config> = {}) {
  const t = await testApp(overrides);
  return { t, admin: await t.login('admin', ADMIN_PASSWORD) };
}

/** A signed-in account as `TestApp.account` gives it. */
export interface Account {
  id: number;
  token: string;
}

/** The rights of a dealer (manages accounts and devices) and of a customer below one. */
export const DEALER_RIGHTS = PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor;
export const CUSTOMER_RIGHTS = PERMISSION.user | PERMISSION.visitor;

/**
 * The accounts most access tests need, named `<prefix>_…`: a dealer below admin, another
 * dealer who must see none of its things, and a customer of the first dealer; `extra` bits
 * for all three (the attendance and media roles, whose device kinds need them).
 */
export async function dealers(t: TestApp, prefix: string, extra = 0) {
  const dealer = await t.account(`${prefix}_dealer`, DEALER_RIGHTS | extra, 1);
  const other = await t.account(`${prefix}_other`, DEALER_RIGHTS | extra, 1);
  const customer = await t.account(`${prefix}_customer`, CUSTOMER_RIGHTS | extra, dealer.id);
  return { dealer, other, customer };
}

/** An account's scope (its user path, as services pass to repositories), for repository-level tests. */
export async function scopeOfAccount(t: TestApp, id: number) {
  const u = await findUser(t.ctx.db, id);
  if (!u) throw new Error(`no account ${id}`);
  return u.path;
}

/** A device kind's API path: `list`, `bind`, or `<what>-<one>` (add, get, update…). */
export function kindUrl(kind: DeviceKind, what: string) {
  const k = DEVICE_KINDS[kind];
  if (what === 'list') return `${k.base}/${k.plural}`;
  return what === 'bind' ? k.bind : `${k.base}/${what}-${k.one}`;
}

/** A device as a test registered it: what it is and what it reports with. */
export interface TestDevice {
  id: number;
  ser_num: string;
  token: string;
}

/** Registers a device of `kind` as the account with `token` (setup: fails unless it is added). */
export async function addDevice(
  t: TestApp,
  kind: DeviceKind,
  ser_num: string,
  token: string,
  extra: Record<string, unknown> = {},
) {
  const r = await t.post<TestDevice>(kindUrl(kind, 'add'), { ser_num, ...extra }, { token });
  if (r.code !== 200) throw new Error(`add ${kind} ${ser_num}: ${r.code} ${r.message}`);
  return r.data;
}

/** Registers a toilet as the account with `token` and gives its id (setup: fails unless added). */
export async function addToilet(t: TestApp, token: string, body: Record<string, unknown>) {
  const r = await t.post<{ id: number }>(TOILET_API.add, body, { token });
  if (r.code !== 200) throw new Error(`add toilet ${String(body.name)}: ${r.code} ${r.message}`);
  return r.data.id;
}

/** POSTs a JSON body (or raw text) to the device report endpoint with a device's token. */
/** POSTs `body` as the raw request body (an image upload) to `url`; answers the raw response. */
export function postRaw(t: { app: FastifyInstance }, token: string, url: string, body: Buffer) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'x-token': token, 'content-type': 'application/octet-stream' },
    payload: body,
  });
}

export function postReport(t: { app: FastifyInstance }, token: string, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: DEVICE_REPORT_API,
    headers: { 'content-type': 'application/json', 'x-device-token': token },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

let reportSeq = 0;

/**
 * One `report` message from device `d` with a fresh message id, as the device sends it over
 * HTTP; fails the test unless the server answers 200, and gives the ingest counts.
 */
export async function sendReport(
  t: { app: FastifyInstance },
  d: { ser_num: string; token: string },
  data: Record<string, unknown>,
  ts = Date.now(),
) {
  const res = await postReport(t, d.token, {
    ser_num: d.ser_num,
    id: `rep${++reportSeq}`,
    ts,
    type: 'report',
    data,
  });
  const env = res.json() as Env<{ accepted: number; duplicates: number }>;
  if (env.code !== 200) throw new Error(`report from ${d.ser_num} refused: ${res.body}`);
  return env.data;
}

/** The audit log entries about account `userId`, as admin reads them. */
export async function auditOf(t: TestApp, userId: number) {
  const admin = await t.login('admin', ADMIN_PASSWORD);
  const log = await t.get<{ list: AuditEntry[] }>(
    '/api/v1/user/audit-logs',
    { target_user_id: userId },
    { token: admin },
  );
  return log.data.list;
}

/** Reads the newest captcha mailed to `email` from the outbox, as a developer would. */
export async function captchaFor(t: TestApp, email: string): Promise<string> {
  const rows = await t.ctx.db.query<{ body: string }>(
    `SELECT body FROM outbox WHERE to_addr = $1 ORDER BY id DESC LIMIT 1`,
    [email],
  );
  const m = /验证码：(\d{6})/.exec(rows[0]?.body ?? '');
  if (!m) throw new Error(`no captcha mailed to ${email}`);
  return m[1]!;
}

const rnd = () => crypto.randomInt(1, 255);

/** The mails sent to `address`, oldest first, as the outbox holds them. */
export function mailsTo(t: TestApp, address: string) {
  return t.ctx.db.query<{ subject: string; body: string }>(
    `SELECT subject, body FROM outbox WHERE to_addr = $1 ORDER BY id`,
    [address],
  );
}

/** Sets a confirmed e-mail directly, as an account that signed up with it has. */
export async function giveEmail(t: TestApp, userId: number, email: string) {
  await t.ctx.db.query(`UPDATE users SET email = $2 WHERE id = $1`, [userId, email]);
  await t.ctx.db.query(`INSERT INTO login_identifiers (identifier, user_id, kind) VALUES ($1, $2, 'email')`, [
    email,
    userId,
  ]);
}

/**
 * Signs the account in three ways (a session, the od_token, a mini-program binding) and
 * answers a check of what a later use of each gives: each code, 200 while it still works.
 */
export async function allWaysIn(t: TestApp, name: string, password: string, appId: string) {
  const session = await t.login(name, password);
  const od = await t.post<{ od_token: string }>('/api/v1/user/reset-od-token', undefined, {
    token: session,
  });
  const bound = await t.post<{ open_token: string }>(
    '/api/v1/mini-program/bind-open-token',
    { app_id: appId },
    { token: session },
  );
  if (od.code !== 200 || bound.code !== 200) throw new Error(`ways in for ${name}: ${od.code} ${bound.code}`);
  const open = { open_token: bound.data.open_token, app_id: appId };
  const check = async () => ({
    session: (await t.get('/api/v1/auth/get-permission', undefined, { token: session })).code,
    od: (await t.post('/api/v1/auth/login-with-token', { token: od.data.od_token })).code,
    open: (await t.post('/api/v1/mini-program/login-with-open-token', open)).code,
  });
  return { session, check };
}
