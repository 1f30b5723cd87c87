import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import websocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import { CODE } from '@se/core';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDb, type Db } from './db/index.ts';
import { migrate } from './db/migrate.ts';
import { analyze, vacuumListTables } from './db/maintenance.ts';
import { errorEnvelopes } from './http/errors.ts';
import { docsRoutes } from './http/openapi.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { securityHeaders } from './http/security.ts';
import { Mailer } from './mail/mailer.ts';
import { startBroker } from './mqtt/broker.ts';
import { connectExternal } from './mqtt/external.ts';
import { CommandDelivery } from './ingest/commands.ts';
import { DeviceDirectory } from './ingest/directory.ts';
import { IngestPipeline } from './ingest/pipeline.ts';
import { ingestRoutes } from './ingest/routes.ts';
import { ensurePartitions } from './jobs/partitions.ts';
import { startJobs } from './jobs/scheduler.ts';
import { EventBus, LOCAL_REPORTS, RedisBus } from './realtime/bus.ts';
import { realtime } from './realtime/hub.ts';
import { liveRoutes } from './modules/live/routes.ts';
import { RuleEngine } from './modules/rules/engine.ts';
import { ruleRoutes } from './modules/rules/routes.ts';
import { messageRoutes } from './modules/messages/routes.ts';
import { notifyRoutes } from './modules/notify/routes.ts';
import { startNotifications } from './modules/notify/runtime.ts';
import { datacenterRoutes } from './modules/datacenter/routes.ts';
import { meterRoutes } from './modules/meters/routes.ts';
import { industryRoutes } from './modules/industry/routes.ts';
import { campusRoutes } from './modules/campus/routes.ts';
import { orgRoutes } from './modules/org/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { ensureAdmin } from './modules/auth/service.ts';
import { SessionStore } from './modules/auth/sessions.ts';
import { developRoutes } from './modules/develop/routes.ts';
import { downloadRoutes } from './modules/downloads/routes.ts';
import { runnerOf } from './modules/downloads/runner.ts';
import { deviceRoutes } from './modules/devices/routes.ts';
import { jwbRoutes } from './modules/jwb/routes.ts';
import { dockingRoutes } from './modules/docking/routes.ts';
import { siteRoutes, VERSION } from './modules/site/routes.ts';
import { toiletRoutes } from './modules/toilets/routes.ts';
import { commentRoutes } from './modules/comments/routes.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { attendanceRoutes } from './modules/attendance/routes.ts';
import { maintenanceRoutes } from './modules/maintenance/routes.ts';
import { expressRoutes } from './modules/express/routes.ts';
import { planRoutes } from './modules/maintenance/plan-routes.ts';
import { attendanceRuleRoutes } from './modules/attendance-rules/routes.ts';
import { mediaPlayerRoutes } from './modules/media-players/routes.ts';
import { displayRoutes } from './modules/display/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { removeScratchDirs } from './scratch.ts';

/**
 * Request ids (x-request-id, and the log's reqId): a random prefix per process and a counter,
 * unique across restarts and copies without a random draw per request (crypto.randomBytes for
 * each one was 7% of a by-id request's CPU).
 */
function requestIds() {
  const prefix = crypto.randomBytes(4).toString('hex');
  let n = 0;
  return () => `${prefix}-${(++n).toString(36)}`;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Set on the first start when the admin password was generated: print it once. */
  adminPassword?: string;
}

export interface BuildOptions {
  /** An already open database (tests share one); otherwise opened from config. */
  db?: Db;
  /** Log output; tests pass false. */
  logger?: boolean;
  /** Background jobs (offline sweep); tests run them by hand. */
  jobs?: boolean;
  /**
   * An in-memory PGlite starts as this dumped data directory instead of an empty one (tests:
   * a copy already migrated, so migrate() finds nothing to do). Never set by the server.
   */
  pgliteTemplate?: Blob;
}

/**
 * Builds the whole server: database (migrated), admin account, routes, web app and the
 * MQTT broker. Does not listen on HTTP: main.ts does, tests use inject().
 */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: opts.logger === false ? false : { level: config.logLevel },
    // One log line per request costs more than the request itself; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    genReqId: requestIds(),
    routerOptions: { maxParamLength: 200 },
  });
  const db =
    opts.db ??
    (await openDb({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      pgliteInProcess: config.pgliteInProcess,
      loadDataDir: config.dataDir ? undefined : opts.pgliteTemplate,
    }));
  try {
    await migrate(db);
  } catch (err) {
    if (!opts.db) await db.close();
    throw err;
  }
  const ctx: AppContext = {
    config,
    db,
    log: app.log,
    sessions: new SessionStore(db),
    mailer: new Mailer(db, app.log, config.smtpUrl, config.mailFrom),
    limiter: new RateLimiter(),
    broker: null,
    directory: new DeviceDirectory(db),
    pipeline: new IngestPipeline(db, app.log),
    commands: new CommandDelivery(db, () => ctx.broker, app.log),
    events: config.redisUrl ? new RedisBus(config.redisUrl, app.log) : new EventBus(),
  };
  if (ctx.events instanceof RedisBus) {
    try {
      await ctx.events.connect();
    } catch (err) {
      if (!opts.db) await db.close();
      throw new Error(`REDIS_URL: cannot connect to ${config.redisUrl}: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
  // Formula rules see this copy's commits only (the bus also carries other copies' reports).
  const rules = new RuleEngine(ctx).start();
  ctx.pipeline.onCommitted = ({ stored, alarmIds, comments }) => {
    if (stored.length) ctx.events.emit('reports', stored);
    if (stored.length) ctx.events.emitLocal(LOCAL_REPORTS, stored);
    if (stored.length) rules.enqueue(stored);
    if (alarmIds.length) ctx.events.emit('alarms', alarmIds);
    if (comments.length) ctx.events.emit('comments', comments);
  };
  await ensurePartitions(db, new Date(), (m) => app.log.warn(m));
  // Statistics for the planner and index-only lists from the first query on (PGlite has no
  // autovacuum).
  if (db.kind === 'pglite' && opts.jobs !== false) {
    await vacuumListTables(db);
    await analyze(db);
  }
  const admin = await ensureAdmin(ctx);

  await app.register(formbody);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // Uploaded files (device import) arrive as the raw bytes. The 1 MB body cap stays for
  // every route but those declaring `upload` (http/route.ts), which set their own.
  app.addContentTypeParser(
    [
      'text/csv',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-excel',
      'application/octet-stream',
    ],
    { parseAs: 'buffer' },
    (_req, body, done) => done(null, body),
  );
  securityHeaders(app, config.mapTileUrl);
  errorEnvelopes(app);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  authRoutes(app, ctx);
  userRoutes(app, ctx);
  dockingRoutes(app, ctx);
  deviceRoutes(app, ctx);
  toiletRoutes(app, ctx);
  commentRoutes(app, ctx);
  mediaRoutes(app, ctx);
  attendanceRoutes(app, ctx);
  maintenanceRoutes(app, ctx);
  expressRoutes(app, ctx);
  planRoutes(app, ctx);
  attendanceRuleRoutes(app, ctx);
  mediaPlayerRoutes(app, ctx);
  displayRoutes(app, ctx);
  jwbRoutes(app, ctx);
  siteRoutes(app, ctx);
  developRoutes(app, ctx);
  ingestRoutes(app, ctx);
  liveRoutes(app, ctx);
  ruleRoutes(app, ctx);
  notifyRoutes(app, ctx);
  messageRoutes(app, ctx);
  downloadRoutes(app, ctx);
  datacenterRoutes(app, ctx);
  meterRoutes(app, ctx);
  industryRoutes(app, ctx);
  campusRoutes(app, ctx);
  orgRoutes(app, ctx);
  realtime(app, ctx, ctx.events);
  docsRoutes(app, VERSION);

  serveWeb(app, config.webDist);

  // Devices sign in from memory, not one query each (a reconnect storm after a restart).
  if (config.mqttUrl || config.mqttPort !== null) {
    ctx.directory
      .warm()
      .catch((err: Error) => app.log.warn({ err: err.message }, 'device directory not warmed'));
  }
  if (config.mqttUrl) {
    try {
      ctx.broker = await connectExternal(
        config.mqttUrl,
        { clientId: config.mqttClientId, shareGroup: config.mqttShareGroup },
        app.log,
        {
          async message(serNum, payload) {
            const device = await ctx.directory.bySerNum(serNum);
            // The broker authenticated it; an unknown serial number (deleted device) is dropped.
            if (device) await ctx.pipeline.submitRaw(device, payload);
          },
        },
      );
    } catch (err) {
      if (!opts.db) await db.close();
      throw new Error(`MQTT_URL: cannot connect to ${config.mqttUrl}: ${(err as Error).message}`, {
        cause: err,
      });
    }
  } else if (config.mqttPort !== null) {
    try {
      ctx.broker = await startBroker(
        config.mqttPort,
        config.host,
        app.log,
        {
          authenticate: (user, password) => ctx.directory.authenticate(user, password),
          publish: async (device, payload) => {
            await ctx.pipeline.submitRaw(device, payload);
          },
          listening: (device) => ctx.commands.listens(device.id),
        },
        {
          maxConnectionsPerIp: config.mqttMaxConnectionsPerIp,
          maxPendingPerIp: config.mqttMaxPendingPerIp,
          connectTimeoutMs: config.mqttConnectTimeoutMs,
        },
      );
    } catch (err) {
      if (!opts.db) await db.close();
      throw err;
    }
  }

  const jobs = opts.jobs === false ? null : startJobs(ctx);
  // Alarms → inboxes and docking pushes always; the delivery worker and push flush run by
  // themselves only with jobs (tests drive them).
  const notifier = startNotifications(ctx, { auto: opts.jobs !== false });
  // Export jobs of the download centre run in the background of this process.
  if (opts.jobs !== false) await runnerOf(ctx).start();

  app.addHook('onClose', async () => {
    jobs?.stop();
    await notifier.stop();
    await runnerOf(ctx).close();
    await ctx.broker?.close();
    await ctx.pipeline.close();
    await rules.stop();
    await ctx.events.close();
    ctx.mailer.close();
    if (!opts.db) await db.close();
    removeScratchDirs(ctx.config);
  });
  return { app, ctx, adminPassword: admin.password };
}

/** The built React app with history-mode fallback; /api paths never fall back. */
function serveWeb(app: FastifyInstance, dist: string | null) {
  const index = dist ? path.join(dist, 'index.html') : null;
  const hasWeb = index !== null && fs.existsSync(index);
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: dist!,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, file) {
        // Hashed assets never change; index.html must be revalidated to pick up new builds.
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    app.get('/assets/*', (req, reply) => reply.sendFile(req.url.slice(1).split('?')[0]!));
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0]!;
    if (url.startsWith('/api/') || url === '/api' || req.method !== 'GET' || !hasWeb) {
      return reply.code(200).send({ code: CODE.notFound, message: '接口不存在', data: null });
    }
    if (/\.[a-z0-9]+$/i.test(url) && url !== '/') {
      const file = path.join(dist!, path.normalize(url));
      if (file.startsWith(dist!) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        return reply.sendFile(path.relative(dist!, file));
      }
      return reply.code(404).type('text/plain').send('Not Found');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
