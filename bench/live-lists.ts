// What a live list costs the browser (issue 19 "Fast"): the console on a scratch database,
// `devices` gateways registered and reporting over real MQTT at `rate` messages a second,
// and /gateways open in Chromium (100 rows a page) with its CPU throttled 4×. The main
// thread's busy time (Chromium's TaskDuration metric) is measured over `seconds` in three
// phases of the same run: the page open with no reports (the baseline), the page visible
// while the devices report, and the page hidden (document.visibilityState emulated as
// 'hidden', as a background tab) while they keep reporting. Prints busy ms per 10 s, the
// websocket frames received, and each phase's ratio to the baseline.
// Usage: npm run build && npm run bench:live-lists [-- devices rate seconds]  (defaults 100 20 10)
import { chromium } from 'playwright-core';
import { AUTH_API } from '../packages/core/src/index.ts';
import { ConsoleApi, ensureDevices } from '../packages/server/src/sim/fleet.ts';
import { simulate } from '../packages/server/src/sim/simulator.ts';
import { BENCH_PASSWORD, startConsole } from './server.ts';

const [devices, rate, seconds] = [
  Number(process.argv[2] ?? 100),
  Number(process.argv[3] ?? 20),
  Number(process.argv[4] ?? 10),
];
const CPU_SLOWDOWN = 4;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
/** LIVE_PROFILE=1: the functions that took the most self time while the page was visible. */
function printProfile(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/.*\//, '')}:${f.lineNumber}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${ms.toFixed(0).padStart(7)} ms  ${name}`);
  }
}

const server = await startConsole();
const abort = new AbortController();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-timer-throttling'],
});
try {
  const api = await new ConsoleApi(server.http).login('admin', BENCH_PASSWORD);
  const fleet = await ensureDevices(api, 'gateway', 'LIVE-GW', devices, (i) => `基准网关${i + 1}`);
  const token = (
    await (
      await fetch(`${server.http}${AUTH_API.login}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filter: 'admin', password: BENCH_PASSWORD }),
      })
    ).json()
  ).data.auth_token as string;

  const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'zh-CN' });
  await context.addInitScript(
    ([t]) => {
      localStorage.setItem('token', t!);
      localStorage.setItem('user_name', 'admin');
    },
    [token],
  );
  const page = await context.newPage();
  let frames = 0;
  page.on('websocket', (ws) => ws.on('framereceived', () => frames++));
  await page.goto(`${server.http}/gateways?size=100`);
  // Long pages may be virtual (only the rows in view exist): the pager's total says all came.
  await page.locator('.ant-table-row').first().waitFor({ timeout: 60_000 });
  await page.getByText(`共 ${devices} 条`).waitFor({ timeout: 60_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });

  const taskSeconds = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'TaskDuration')!.value;
  };
  /** Main-thread busy ms per 10 s over `seconds`, and the websocket frames meanwhile. */
  const phase = async () => {
    await page.waitForTimeout(1000);
    const [t0, f0] = [await taskSeconds(), frames];
    await page.waitForTimeout(seconds * 1000);
    const busy = (((await taskSeconds()) - t0) * 1000 * 10) / seconds;
    return { busy, frames: frames - f0 };
  };

  const idle = await phase();
  void simulate({
    url: server.mqtt,
    devices: fleet,
    rate,
    durationMs: 3_600_000,
    signal: abort.signal,
  }).catch(() => {});
  // The devices connect and the first reports arrive.
  await page.waitForTimeout(3000);
  if (process.env.LIVE_PROFILE) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
  const visible = await phase();
  if (process.env.LIVE_PROFILE) printProfile((await cdp.send('Profiler.stop')).profile);
  // A string, not a function: tsx would wrap the getters' arrows in a helper the page lacks.
  await page.evaluate(`
    Object.defineProperty(document, 'visibilityState', { configurable: true, get() { return 'hidden'; } });
    Object.defineProperty(document, 'hidden', { configurable: true, get() { return true; } });
    document.dispatchEvent(new Event('visibilitychange'));
  `);
  // The console pauses a page hidden for 5 s.
  await page.waitForTimeout(5000);
  const hidden = await phase();

  console.log(
    `\n/gateways, 100 rows a page, ${devices} gateways reporting ${rate}/s, CPU ${CPU_SLOWDOWN}× slower, ${seconds} s a phase`,
  );
  console.log(`${'phase'.padEnd(26)}${'busy ms / 10 s'.padEnd(16)}${'ws frames'.padEnd(11)}ratio`);
  for (const [name, p] of [
    ['baseline (no reports)', idle],
    ['visible, reporting', visible],
    ['hidden, reporting', hidden],
  ] as const) {
    console.log(
      `${name.padEnd(26)}${p.busy.toFixed(0).padEnd(16)}${String(p.frames).padEnd(11)}${(p.busy / idle.busy).toFixed(2)}`,
    );
  }
} finally {
  abort.abort();
  await browser.close();
  await server.stop();
}
// The simulator's MQTT clients end with the abort; nothing else keeps the process.
process.exit(0);
