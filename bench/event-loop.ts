// Does the embedded database hold the server's event loop? The console runs in this process
// on one PGlite directory twice: BEFORE with PGlite on the server's own thread
// (PGLITE_IN_PROCESS=true), AFTER with PGlite in its worker thread (the default). Each time
// data-centre overviews run back to back while a telemetry export job runs, and meanwhile
// - the event-loop delay of this process is sampled (perf_hooks monitorEventLoopDelay),
// - a separate process polls /api/health (one DB round trip) and /api/v1/site (none) every 10 ms.
// Prints p50/p99/max of each, the overview and export times, and BEFORE / AFTER ratios.
// Usage: npm run bench:event-loop [-- gateways export-devices export-days]  (defaults 10000 20 7)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DATACENTER_API, PERMISSION, SITE_API } from '../packages/core/src/index.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig, type Config } from '../packages/server/src/config.ts';
import { runnerOf } from '../packages/server/src/modules/downloads/runner.ts';
import { create } from '../packages/server/src/modules/downloads/service.ts';
import { ConsoleApi } from '../packages/server/src/sim/fleet.ts';

const gateways = Number(process.argv[2] ?? 10_000);
const exportDevices = Number(process.argv[3] ?? 20);
const exportDays = Number(process.argv[4] ?? 7);
const PASSWORD = 'bench-password';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-bench-loop-'));
const config = (pgliteInProcess: boolean): Config => ({
  ...loadConfig({ ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
  pgliteInProcess,
  // Every overview computed: the shared answers would turn most of the load into cache hits.
  datacenterCacheMs: 0,
  host: '127.0.0.1',
  port: 0,
  mqttPort: null,
  webDist: null,
});

// Seed once, through the in-process engine (nothing to measure yet): gateways with a latest
// report, a toilet on each, today's hourly visitor rollups, 30 days of reviews, and the
// minute-by-minute telemetry the export reads.
const s0 = Date.now();
{
  const { app, ctx } = await buildApp(config(true), { logger: false, jobs: false });
  const db = ctx.db;
  await db.query(
    `INSERT INTO devices (kind, ser_num, "desc", token, time, latest)
     SELECT 'gateway', 'LOOP-GW-' || g, '基准网关' || g, 'tk' || g, now() - (g % 900) * interval '1 second',
            jsonb_build_object('male_occupy', g % 6, 'female_occupy', g % 8, 'nh3', (g % 97) / 50.0,
                               'h2s', (g % 13) / 200.0, 'co2', 450 + g % 900, 'pm25', 30 + g % 50)
       FROM generate_series(1, $1) g`,
    [gateways],
  );
  await db.query(
    `INSERT INTO toilets (name, gateway_id, pname, lat, lng)
     SELECT '基准公厕' || d.id, d.id, '浙江省', 30 + (d.id % 100) * 0.01, 120 + (d.id / 100) * 0.01
       FROM devices d WHERE d.ser_num LIKE 'LOOP-GW-%'`,
  );
  await db.query(
    `INSERT INTO telemetry_hourly (device_id, hour, sums, counts)
     SELECT d.id, date_trunc('hour', now()) - h * interval '1 hour',
            jsonb_build_object('male_times', d.id % 5, 'female_times', d.id % 7, 'others_times', 1), '{}'
       FROM devices d CROSS JOIN generate_series(0, 7) h WHERE d.ser_num LIKE 'LOOP-GW-%'`,
  );
  await db.query(
    `INSERT INTO comments (toilet_id, star_level, content, smelly, created_at)
     SELECT t.id, 1 + (t.id + k) % 5, '评价' || k, k % 4 = 0, now() - (k % 30) * interval '1 day'
       FROM toilets t CROSS JOIN generate_series(1, 5) k`,
  );
  const exportIds = (
    await db.query<{ id: number }>(
      `INSERT INTO devices (kind, ser_num, "desc", token)
       SELECT 'gateway', 'LOOP-EX-' || g, '导出网关' || g, 'tx' || g FROM generate_series(1, $1) g RETURNING id`,
      [exportDevices],
    )
  ).map((r) => r.id);
  for (const id of exportIds) {
    await db.query(
      `INSERT INTO telemetry (device_id, ts, msg_id, data)
       SELECT $1, timestamptz '2026-01-01 00:00:00+08' + g * interval '1 minute', 'm' || g,
              jsonb_build_object('nh3', (g % 97) / 50.0, 'co2', 450 + g % 900, 'male_occupy', g % 6)
         FROM generate_series(0, $2 - 1) g`,
      [id, exportDays * 1440],
    );
  }
  await db.query('ANALYZE');
  await app.close();
}
console.log(
  `seeded ${gateways} gateways and toilets, ${(gateways * 5).toLocaleString()} reviews, ` +
    `${(exportDevices * exportDays * 1440).toLocaleString()} telemetry rows for the export ` +
    `in ${((Date.now() - s0) / 1000).toFixed(1)} s`,
);

/** Polls both URLs from another process (its own event loop) until told to stop. */
function poller(base: string) {
  const code = `
    const urls = { health: process.env.BASE + '/api/health', site: process.env.BASE + '${SITE_API.info}' };
    const ms = { health: [], site: [] };
    let on = true;
    process.on('message', () => (on = false));
    (async () => {
      while (on) {
        for (const k of ['health', 'site']) {
          const t = performance.now();
          try {
            await (await fetch(urls[k])).arrayBuffer();
            ms[k].push(performance.now() - t);
          } catch {
            on = false;
          }
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      process.send(ms, () => process.exit(0));
    })();`;
  const child = spawn(process.execPath, ['-e', code], {
    env: { ...process.env, BASE: base },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return async () => {
    const got = new Promise<{ health: number[]; site: number[] }>((r) => child.once('message', r as never));
    child.send('stop');
    return got;
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

async function phase(pgliteInProcess: boolean) {
  const { app, ctx } = await buildApp(config(pgliteInProcess), { logger: false, jobs: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const api = await new ConsoleApi(base).login('admin', PASSWORD);
  // Overviews run back to back here: lift the per-user limit (30 a minute) for this run.
  ctx.limiter.hit = () => true;
  const runner = runnerOf(ctx);
  await runner.start({ pollMs: 200 });
  await api.call('GET', DATACENTER_API.overview); // warm caches and plans
  const admin = (await ctx.db.query<{ id: number }>(`SELECT id FROM users WHERE user_name = 'admin'`))[0]!.id;
  const exportIds = (
    await ctx.db.query<{ id: number }>(`SELECT id FROM devices WHERE ser_num LIKE 'LOOP-EX-%' ORDER BY id`)
  ).map((r) => r.id);

  const stop = poller(base);
  await new Promise((r) => setTimeout(r, 300));
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const t0 = performance.now();
  await create(
    ctx,
    { id: admin, userName: 'admin', permission: PERMISSION.develop, sessionId: 0 },
    {
      name: 'telemetry',
      params: {
        ids: exportIds,
        start: '2026-01-01 00:00:00',
        end: `2026-01-${String(1 + exportDays).padStart(2, '0')} 00:00:00`,
      },
    },
  );
  let exporting = true;
  let exportMs = 0;
  const exported = runner.idle(600_000).then(() => {
    exporting = false;
    exportMs = performance.now() - t0;
  });
  const overviewMs: number[] = [];
  while (exporting || overviewMs.length < 5) {
    const s = performance.now();
    await api.call('GET', DATACENTER_API.overview);
    overviewMs.push(performance.now() - s);
  }
  await exported;
  loop.disable();
  const polled = await stop();
  await app.close();
  return {
    loop: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
    health: { p50: pct(polled.health, 50), p99: pct(polled.health, 99), max: Math.max(...polled.health) },
    site: { p50: pct(polled.site, 50), p99: pct(polled.site, 99), max: Math.max(...polled.site) },
    polls: polled.health.length,
    overviews: overviewMs.length,
    overviewP50: pct(overviewMs, 50),
    exportMs,
  };
}

const before = await phase(true);
const after = await phase(false);
fs.rmSync(dataDir, { recursive: true, force: true });

const f = (n: number) => n.toFixed(1).padStart(7);
const trio = (x: { p50: number; p99: number; max: number }) => `${f(x.p50)} ${f(x.p99)} ${f(x.max)}`;
console.log(
  `\n${'ms (p50 p99 max)'.padEnd(30)} ${'event-loop delay'.padEnd(24)} ${'/api/health'.padEnd(24)} /api/v1/site (no DB)`,
);
for (const [name, r] of [
  ['BEFORE: PGlite on the loop', before],
  ['AFTER: PGlite in a worker', after],
] as const) {
  console.log(
    `${name.padEnd(30)} ${trio(r.loop)}  ${trio(r.health)}  ${trio(r.site)}   ` +
      `(${r.overviews} overviews, p50 ${r.overviewP50.toFixed(0)} ms; export ${(r.exportMs / 1000).toFixed(1)} s; ${r.polls} polls)`,
  );
}
const ratio = (a: number, b: number) => (a / b).toFixed(1);
console.log(
  `BEFORE / AFTER p99: event-loop delay ${ratio(before.loop.p99, after.loop.p99)}×, ` +
    `health ${ratio(before.health.p99, after.health.p99)}×, site ${ratio(before.site.p99, after.site.p99)}×` +
    `; goal health p99 < 50 ms: ${after.health.p99 < 50 ? 'met' : 'NOT met'} (${after.health.p99.toFixed(1)} ms)`,
);
