// The data-centre dashboard, two checks:
// - `burst`: 50 dashboards opening at once on one scope, with the shared answers switched off
//   (DATACENTER_CACHE_MS=0: every request computes the overview) and then on (one computation
//   per scope), on the same data; prints the burst's wall time and p99 of both and the ratio.
//   Usage: npm run bench:dashboard -- burst [gateways seed-seconds]   (defaults 300 20)
// - the leak check (default): opens /data-center in Chromium, keeps it idle for a while (the
//   baseline), then drives live pushes through the simulator (gateways and dispensers over
//   MQTT, alarms opening and closing over HTTP) and samples the page's JS heap after a forced
//   GC. Prints start/end heap of both phases and the ratio of growth.
//   Usage: npm run bench:dashboard [-- minutes devices rate]   (defaults 3 200 100)
//   Needs the web app built (npm run build, or WEB_DIST pointing at a build).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { DATACENTER_API } from '@se/core';
import { ConsoleApi, ensureDevices } from '../packages/server/src/sim/fleet.ts';
import { simulate } from '../packages/server/src/sim/simulator.ts';
import { BENCH_PASSWORD, root, startConsole } from './server.ts';

/** Gateways with toilets and dispensers named `<prefix>-n`, `count` devices in all. */
async function seedFleet(api: ConsoleApi, count: number) {
  const gateways = await ensureDevices(
    api,
    'gateway',
    'DASH-GW',
    Math.ceil(count / 2),
    (i) => `看板网关${i}`,
  );
  const dispensers = await ensureDevices(
    api,
    'jwb',
    'DASH-JWB',
    Math.floor(count / 2),
    (i) => `看板除臭机${i}`,
  );
  for (const [i, g] of gateways.entries()) {
    await api.call('POST', '/api/v1/toilet/add-toilet', {
      name: `看板公厕${i}`,
      gateway_id: g.id,
      pname: '浙江省',
      lng: 120 + (i % 20) * 0.02,
      lat: 30 + Math.floor(i / 20) * 0.02,
    });
  }
  return { gateways, dispensers };
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.99) - 1]!;

async function burst() {
  const [gatewayCount, seedSeconds] = [Number(process.argv[3] ?? 300), Number(process.argv[4] ?? 20)];
  const AT_ONCE = 50;
  let server = await startConsole({ env: { DATACENTER_CACHE_MS: '0' } });
  const seedApi = await new ConsoleApi(server.http).login('admin', BENCH_PASSWORD);
  const { gateways, dispensers } = await seedFleet(seedApi, gatewayCount * 2);
  const seeded = await simulate({
    url: server.mqtt,
    devices: [...gateways, ...dispensers],
    rate: 1000,
    durationMs: seedSeconds * 1000,
  });
  console.log(`seeded ${gateways.length} toilets, ${dispensers.length} dispensers, ${seeded.acked} reports`);

  /**
   * One dashboard alone (warms the database up and measures a computation), then, once no
   * shared answer is left, 50 at once (half on each data centre: the per-user limit is per URL).
   */
  const run = async (label: string, waitMs: number) => {
    const api = await new ConsoleApi(server.http).login('admin', BENCH_PASSWORD);
    const w = performance.now();
    await api.call('GET', DATACENTER_API.overview);
    const alone = performance.now() - w;
    await new Promise((r) => setTimeout(r, waitMs));
    const t0 = performance.now();
    const times = await Promise.all(
      Array.from({ length: AT_ONCE }, async (_, i) => {
        const s = performance.now();
        await api.call('GET', i % 2 ? DATACENTER_API.stOverview : DATACENTER_API.overview);
        return performance.now() - s;
      }),
    );
    const wall = performance.now() - t0;
    console.log(
      `${label}: one alone ${alone.toFixed(0)} ms; ${AT_ONCE} at once in ${wall.toFixed(0)} ms, ` +
        `p99 ${p99(times).toFixed(0)} ms`,
    );
    return wall;
  };
  const off = await run('shared answers off (DATACENTER_CACHE_MS=0)', 0);
  await server.stop(true);
  // Fresh 1 s, served stale up to 5 s: after 6 s the burst finds nothing shared and computes once.
  server = await startConsole({ dataDir: server.dataDir, env: { DATACENTER_CACHE_MS: '1000' } });
  const on = await run('shared answers on (DATACENTER_CACHE_MS=1000)', 6000);
  console.log(`burst of ${AT_ONCE}: off/on wall-time ratio ×${(off / on).toFixed(1)}`);
  await server.stop();
}

async function leakCheck() {
  const [minutes, devices, rate] = [
    Number(process.argv[2] ?? 3),
    Number(process.argv[3] ?? 200),
    Number(process.argv[4] ?? 100),
  ];
  const webDist = process.env.WEB_DIST ?? path.join(root, 'packages/web/dist');
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    console.error(`No web build in ${webDist}: run \`npm run build\` or set WEB_DIST.`);
    process.exit(1);
  }

  const server = await startConsole({ env: { WEB_DIST: webDist } });
  const api = await new ConsoleApi(server.http).login('admin', BENCH_PASSWORD);
  const { gateways, dispensers } = await seedFleet(api, devices);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-timer-throttling'],
  });
  const page = await browser.newPage({ baseURL: server.http, viewport: { width: 1600, height: 1000 } });
  await page.goto('/login?redirect=%2Fdata-center');
  await page.getByPlaceholder(/用户名|账号/).fill('admin');
  await page.getByPlaceholder('密码').fill(BENCH_PASSWORD);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL(/\/data-center$/);
  await page.getByRole('img', { name: '厕所分布地图' }).waitFor({ timeout: 30_000 });
  const cdp = await page.context().newCDPSession(page);

  /** JS heap in use after a full GC, MB. */
  async function heapMb() {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return usedSize / 1024 / 1024;
  }
  const domNodes = async () => ((await cdp.send('Memory.getDOMCounters')) as { nodes: number }).nodes;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function phase(name: string, ms: number, during?: () => Promise<unknown>) {
    const start = await heapMb();
    const nodes0 = await domNodes();
    const samples: number[] = [start];
    const sampler = (async () => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        await sleep(Math.min(30_000, end - Date.now()));
        samples.push(await heapMb());
      }
    })();
    await Promise.all([sampler, during?.()]);
    const end = await heapMb();
    const nodes1 = await domNodes();
    console.log(
      `${name}: heap ${start.toFixed(2)} → ${end.toFixed(2)} MB (×${(end / start).toFixed(3)}), ` +
        `DOM nodes ${nodes0} → ${nodes1}; samples ${samples.map((s) => s.toFixed(1)).join(' ')}`,
    );
    return { start, end };
  }

  // Let the first fetches, charts and the map settle before measuring.
  await sleep(10_000);
  const baselineMs = Math.max(60_000, (minutes * 60_000) / 3);
  const idle = await phase(`idle ${Math.round(baselineMs / 1000)} s`, baselineMs);

  let alarmsToggled = 0;
  const driveAlarms = async (until: number) => {
    const g = gateways[0]!;
    for (let i = 0; Date.now() < until; i++) {
      await fetch(`${server.http}/api/v1/device/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-token': g.token },
        body: JSON.stringify({
          ser_num: g.ser_num,
          id: `a${i}`,
          ts: Date.now(),
          type: 'report',
          data: { nh3: i % 2 ? 0.05 : 2.5 },
        }),
      });
      alarmsToggled++;
      await sleep(2000);
    }
  };
  const pushMs = minutes * 60_000;
  let sent = 0;
  const busy = await phase(`pushes ${minutes} min (${devices} devices at ${rate}/s)`, pushMs, () =>
    Promise.all([
      simulate({ url: server.mqtt, devices: [...gateways, ...dispensers], rate, durationMs: pushMs }).then(
        (s) => (sent = s.acked),
      ),
      driveAlarms(Date.now() + pushMs),
    ]),
  );
  const growth = (p: { start: number; end: number }) => p.end - p.start;
  console.log(
    `reports stored ${sent}, alarm flips ${alarmsToggled}; heap growth under pushes ${growth(busy).toFixed(2)} MB ` +
      `vs idle ${growth(idle).toFixed(2)} MB; end/start ratio under pushes ×${(busy.end / busy.start).toFixed(3)} ` +
      `vs idle ×${(idle.end / idle.start).toFixed(3)}`,
  );
  await browser.close();
  await server.stop();
}

if (process.argv[2] === 'burst') await burst();
else await leakCheck();
