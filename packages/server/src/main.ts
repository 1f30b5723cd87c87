import { loadConfig, ConfigError } from './config.ts';
import { buildApp } from './app.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const t0 = performance.now();
  let built;
  try {
    built = await buildApp(config);
  } catch (err) {
    console.error(`Cannot start: ${(err as Error).message}`);
    process.exit(1);
  }
  const { app, ctx, adminPassword } = built;
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'EADDRINUSE'
        ? `port ${config.port} is already in use; set PORT to a free port`
        : `cannot listen on ${config.host}:${config.port}: ${e.message}; check PORT and HOST`;
    console.error(`Cannot start: PORT: ${why}`);
    await app.close().catch(() => {});
    process.exit(1);
  }
  const port = (app.server.address() as { port: number }).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  const where = config.pgliteInProcess ? 'on the main thread' : 'in a worker thread';
  const db = ctx.db.kind === 'pglite' ? `PGlite in ${config.dataDir}, ${where}` : 'PostgreSQL';
  const mqtt = ctx.broker ? `, MQTT on port ${ctx.broker.port}` : '';
  const pw = adminPassword ? `, admin password: ${adminPassword}` : '';
  console.log(`console on http://${host}:${port}${pw}`);
  console.log(`(${db}${mqtt}; ready in ${secs}s)`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    // Fastify stops accepting, lets in-flight requests finish, then runs onClose (broker, DB).
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

void main();
