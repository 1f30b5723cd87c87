// Lighthouse 12 over the console's pages (issue 19 "Fast"): the built web app served by the demo
// (its tenant, devices reporting over MQTT), each page in a fresh headless Chromium with
// simulated throttling. Mobile for the sign-in page and the public review page, desktop for
// the sign-in page and four console pages (signed in as admin: the token and the cached
// permission are put in localStorage before the run, as a returning user has them). The
// baseline, in the same run and the same Chromium, is a static page with one small script.
// Prints the performance and accessibility scores, TBT and LCP, the targets, and each
// performance score as a ratio to the baseline's.
// Usage: npm run build && npm run bench:lighthouse [-- runs]   (median of `runs`, default 1)
// LH_PAGES=<regex> runs only the cases whose "form path" matches (e.g. 'mobile|users').
// LH_REPORT_DIR=<dir> also writes each run's full Lighthouse JSON there (LCP element, long tasks,
// layout shifts, unused JS), to see where a page's time goes.
// LH_OTHER_DIST=<dir>[,<dir>…] also audits other builds of the web app (e.g. `main`'s, built into
// <dir>) against the same demo, each page's builds one after the other: an A/B in one sitting.
import http from 'node:http';
import net from 'node:net';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { AUTH_API, TOILET_API } from '../packages/core/src/index.ts';
import { startScript, root } from './server.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const runs = Math.max(1, Number(process.argv[2] ?? 1));
const only = process.env.LH_PAGES ? new RegExp(process.env.LH_PAGES) : null;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ADMIN_PASSWORD = 'bench-admin-123';

if (!fs.existsSync(path.join(root, 'packages/web/dist/index.html'))) {
  console.error('The web app is not built: run `npm run build` first.');
  process.exit(1);
}

type Form = 'mobile' | 'desktop';
interface Case {
  form: Form;
  path: string;
  signedIn: boolean;
  perfTarget: number;
  a11yTarget?: number;
}

// The baseline: a static page with a heading and one tiny script, on its own server.
const hello = http.createServer((req, res) => {
  if (req.url === '/hello.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end("document.querySelector('p').textContent = '你好';");
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<meta name="description" content="baseline"><title>hello</title></head>' +
      '<body><h1>hello</h1><p></p><script src="/hello.js"></script></body></html>',
  );
});
await new Promise<void>((r) => hello.listen(0, '127.0.0.1', r));
const helloBase = `http://127.0.0.1:${(hello.address() as { port: number }).port}`;

console.log('starting the demo console (seeding takes a while)…');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-bench-lh-'));
const demo = await startScript(
  path.join(root, 'packages/server/src/sim/demo.ts'),
  {
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    MQTT_URL: '',
    REDIS_URL: '',
  },
  /demo tenant:/,
);
const base = /console on (http:\/\/\S+?)(,|\s|$)/.exec(demo.out())![1]!.replace('localhost', '127.0.0.1');

/**
 * Another build of the web app on its own port: its files from LH_OTHER_DIST (index.html for
 * the app's routes), everything else (the API, the live socket) passed to the demo.
 */
async function serveOtherDist(dist: string): Promise<string> {
  const demoUrl = new URL(base);
  const types: Record<string, string> = {
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.html': 'text/html; charset=utf-8',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.json': 'application/json',
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (!url.pathname.startsWith('/api/')) {
      const file = path.join(dist, path.normalize(url.pathname));
      const found = file.startsWith(dist) && fs.statSync(file, { throwIfNoEntry: false })?.isFile();
      const send = found ? file : path.join(dist, 'index.html');
      const headers: Record<string, string> = {
        'content-type': types[path.extname(send)] ?? 'application/octet-stream',
      };
      // The build's precompressed copies, as the console's server sends them.
      const brotli = /\bbr\b/.test(String(req.headers['accept-encoding'])) && fs.existsSync(`${send}.br`);
      if (brotli) headers['content-encoding'] = 'br';
      res.writeHead(200, headers);
      fs.createReadStream(brotli ? `${send}.br` : send).pipe(res);
      return;
    }
    const up = http.request(
      { host: demoUrl.hostname, port: demoUrl.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('upgrade', (req, socket, head) => {
    const up = net.connect(Number(demoUrl.port), demoUrl.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      up.write(head);
      up.pipe(socket).pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  others.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}
const others: http.Server[] = [];
const otherBuilds: { name: string; base: string }[] = [];
for (const dir of (process.env.LH_OTHER_DIST ?? '').split(',').filter(Boolean)) {
  otherBuilds.push({ name: path.basename(dir), base: await serveOtherDist(path.resolve(dir)) });
}

async function call<T>(method: 'GET' | 'POST', url: string, body?: object, token = ''): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'x-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const env = (await res.json()) as { code: number; message: string; data: T };
  if (env.code !== 200) throw new Error(`${url}: ${env.code} ${env.message}`);
  return env.data;
}

const token = (
  await call<{ auth_token: string }>('POST', AUTH_API.login, {
    filter: 'admin',
    password: ADMIN_PASSWORD,
  })
).auth_token;
const me = await call<{ permission: number; userID: number; backendManager?: boolean }>(
  'GET',
  AUTH_API.getPermission,
  undefined,
  token,
);
const toilets = await call<{ list: { id: number }[] }>('GET', TOILET_API.list, undefined, token);
const publicId = (
  await call<{ public_id: string }>('GET', `${TOILET_API.get}?id=${toilets.list[0]!.id}`, undefined, token)
).public_id;

const CASES: Case[] = [
  { form: 'mobile', path: '/login', signedIn: false, perfTarget: 90, a11yTarget: 95 },
  {
    form: 'mobile',
    path: `/add-comment?toilet_id=${publicId}`,
    signedIn: false,
    perfTarget: 90,
    a11yTarget: 95,
  },
  { form: 'desktop', path: '/login', signedIn: false, perfTarget: 90, a11yTarget: 95 },
  { form: 'desktop', path: '/smart-toilet', signedIn: true, perfTarget: 90 },
  { form: 'desktop', path: '/equipments', signedIn: true, perfTarget: 90 },
  { form: 'desktop', path: '/data-center', signedIn: true, perfTarget: 90 },
  { form: 'desktop', path: '/users', signedIn: true, perfTarget: 90 },
];

interface Score {
  perf: number;
  a11y: number;
  tbt: number;
  lcp: number;
  failed: string[];
  a11yNodes: string[];
  /** The scripts that kept the main thread busiest (bootup-time), for where TBT comes from. */
  scripts: string;
  /** Lighthouse's measure of this machine's speed at the time (higher is faster). */
  benchmarkIndex: number;
}

/** One Lighthouse run of `url` in a fresh Chromium (empty cache), signed in if asked. */
async function audit(url: string, form: Form, signedIn: boolean): Promise<Score> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    if (signedIn) {
      // A returning user: the stored token and the permission the console cached last time.
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const page = await browser.contexts()[0]!.newPage();
      await page.goto(`${new URL(url).origin}/agreement`);
      await page.evaluate(
        ([t, u]) => {
          localStorage.setItem('token', t!);
          localStorage.setItem('user_name', 'admin');
          localStorage.setItem('od_session_user', u!);
        },
        [
          token,
          JSON.stringify({
            permission: me.permission,
            userID: me.userID,
            backendManager: !!me.backendManager,
          }),
        ],
      );
      await page.close();
      // Only the HTTP cache goes: the session stays, the pages load cold.
      const cdp = await browser.contexts()[0]!.newCDPSession(await browser.contexts()[0]!.newPage());
      await cdp.send('Network.clearBrowserCache');
      await browser.close().catch(() => {});
    }
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      disableStorageReset: signedIn,
    };
    const result = (await lighthouse(url, flags, form === 'desktop' ? desktopConfig : undefined)) as
      RunnerResult | undefined;
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
    if (process.env.LH_REPORT_DIR) {
      fs.mkdirSync(process.env.LH_REPORT_DIR, { recursive: true });
      const name = `${form}${new URL(url).pathname.replace(/\W+/g, '-')}-${Date.now()}.json`;
      fs.writeFileSync(path.join(process.env.LH_REPORT_DIR, name), JSON.stringify(lhr));
    }
    const failed = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
      .filter(
        (a) =>
          a.scoreDisplayMode === 'binary' ||
          a.scoreDisplayMode === 'metricSavings' ||
          a.scoreDisplayMode === 'numeric',
      )
      .map((a) => a.id);
    // Which elements fail the accessibility audits, so the report says what to fix.
    const a11yNodes: string[] = [];
    for (const ref of lhr.categories.accessibility?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || a.score !== 0) continue;
      const items = (
        a.details as { items?: { node?: { snippet?: string; selector?: string } }[] } | undefined
      )?.items;
      for (const item of (items ?? []).slice(0, 4)) {
        a11yNodes.push(`${a.id}: ${item.node?.selector ?? ''} ${item.node?.snippet?.slice(0, 100) ?? ''}`);
      }
    }
    const boot = (
      lhr.audits['bootup-time']?.details as { items?: { url: string; scripting: number }[] } | undefined
    )?.items;
    const scripts = (boot ?? [])
      .slice(0, 4)
      .map((i) => `${i.url.replace(/.*\//, '')} ${Math.round(i.scripting)} ms`)
      .join(', ');
    return {
      a11yNodes,
      scripts,
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      perf: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      a11y: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      tbt: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
      lcp: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
      failed,
    };
  } finally {
    await chrome.kill();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(url: string, form: Form, signedIn: boolean): Promise<Score> {
  const all: Score[] = [];
  for (let i = 0; i < runs; i++) {
    // Lighthouse sometimes fails to record a trace (NO_NAVSTART on a busy machine): that run
    // again, up to three times, so one flake does not end an A/B of many runs.
    for (let attempt = 1; ; attempt++) {
      try {
        all.push(await audit(url, form, signedIn));
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        console.log(`${form.padEnd(8)}${new URL(url).pathname.padEnd(16)}${(error as Error).message}; again`);
      }
    }
  }
  const pick = all.find((s) => s.perf === median(all.map((x) => x.perf)))!;
  return { ...pick, a11y: median(all.map((s) => s.a11y)) };
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);
let misses = 0;
try {
  const baseline: Record<Form, Score> = {
    mobile: await measure(`${helloBase}/`, 'mobile', false),
    desktop: await measure(`${helloBase}/`, 'desktop', false),
  };
  console.log(
    `\nLighthouse 12, simulated throttling, median of ${runs}; ratio = score / baseline score;` +
      ' cpu = Lighthouse benchmarkIndex of the machine during that run (higher is faster)',
  );
  const row = (form: string, label: string, s: Score, ratio: number, tail = '') =>
    console.log(
      [form.padEnd(8), label.padEnd(16), pad(s.perf, 6), pad(ratio.toFixed(2), 7), pad(s.tbt, 8)]
        .concat([pad(s.lcp, 8), pad(s.a11y, 6), pad(s.benchmarkIndex, 6), tail])
        .join(''),
    );
  console.log(
    ['form', 'page', 'perf', 'ratio', 'TBT ms', 'LCP ms', 'a11y', 'cpu']
      .map((h, i) => pad(h, [8, 16, 6, 7, 8, 8, 6, 6][i]!))
      .join('') + 'target',
  );
  for (const form of ['mobile', 'desktop'] as const) row(form, 'baseline', baseline[form], 1);
  for (const c of CASES) {
    const label = c.path.replace(/\?.*/, '');
    if (only && !only.test(`${c.form} ${label}`)) continue;
    const s = await measure(`${base}${c.path}`, c.form, c.signedIn);
    const ok = s.perf >= c.perfTarget && (c.a11yTarget === undefined || s.a11y >= c.a11yTarget);
    if (!ok) misses++;
    const target = `perf ≥ ${c.perfTarget}${c.a11yTarget ? `, a11y ≥ ${c.a11yTarget}` : ''}`;
    row(c.form, label, s, s.perf / baseline[c.form].perf, `${target} ${ok ? 'ok' : 'MISSED'}`);
    for (const other of otherBuilds) {
      const o = await measure(`${other.base}${c.path}`, c.form, c.signedIn);
      row(c.form, `  ${other.name}`, o, o.perf / baseline[c.form].perf);
    }
    if (s.failed.length) console.log(`${' '.repeat(24)}below 0.9: ${s.failed.join(', ')}`);
    if (s.scripts) console.log(`${' '.repeat(24)}scripting: ${s.scripts}`);
    for (const n of s.a11yNodes) console.log(`${' '.repeat(24)}${n}`);
  }
} finally {
  demo.child.kill('SIGTERM');
  await new Promise((r) => demo.child.once('exit', r));
  hello.close();
  for (const o of others) o.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(misses ? `\n${misses} page(s) below target` : '\nall pages on target');
