// Starting processes for the benchmarks: the console on a scratch PGlite directory with
// ephemeral ports and no external services, or any script that prints its address.
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PERMISSION } from '../packages/core/src/index.ts';
import { ConsoleApi } from '../packages/server/src/sim/fleet.ts';

export const root = path.resolve(import.meta.dirname, '..');
export const BENCH_PASSWORD = 'bench-password';

/** Runs a TypeScript file and resolves once its output matches `pattern`. */
export function startScript(
  file: string,
  env: Record<string, string>,
  pattern: RegExp,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; match: RegExpExecArray; out: () => string }> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', file], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c) => {
      out += c;
      const m = pattern.exec(out);
      if (m) resolve({ child, match: m, out: () => out });
    });
    child.on('exit', (code) => reject(new Error(`${path.basename(file)} exited ${code}: ${out}`)));
  });
}

export interface BenchServer {
  child: ChildProcess;
  http: string;
  mqtt: string;
  dataDir: string;
  /** SIGTERM, wait, and (unless kept) delete the data directory. */
  stop(keepData?: boolean): Promise<void>;
}

/** The console (embedded PGlite and broker) on `dataDir` (a new scratch directory by default). */
export async function startConsole(
  opts: { dataDir?: string; env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<BenchServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'se-bench-'));
  const { child, out } = await startScript(
    path.join(root, 'packages/server/src/main.ts'),
    {
      PORT: '0',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: BENCH_PASSWORD,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      MQTT_URL: '',
      REDIS_URL: '',
      ...opts.env,
    },
    /MQTT on port (\d+)/,
    opts.nodeArgs,
  );
  const http = /console on (http:\/\/\S+?)(,|\s|$)/.exec(out())![1]!;
  const mqtt = `mqtt://127.0.0.1:${/MQTT on port (\d+)/.exec(out())![1]}`;
  return {
    child,
    http,
    mqtt,
    dataDir,
    async stop(keepData = false) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Posts a file to a console route while /api/health is polled every 20 ms from this process:
 * the answer, its time, the longest health round trip meanwhile (how long the console was
 * held) and whatever `tick` returns at its highest (e.g. the console's RSS).
 */
export async function postWhilePolling(
  server: BenchServer,
  url: string,
  token: string,
  body: Buffer,
  type: string,
  tick: () => number = () => 0,
) {
  let peak = tick();
  let slowest = 0;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const t = performance.now();
      await (await fetch(`${server.http}/api/health`)).arrayBuffer();
      slowest = Math.max(slowest, performance.now() - t);
      peak = Math.max(peak, tick());
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const s = performance.now();
  const res = await fetch(`${server.http}${url}`, {
    method: 'POST',
    headers: { 'x-token': token, 'content-type': type },
    body: new Uint8Array(body),
  });
  const env = (await res.json()) as { code: number; message: string; data: unknown };
  const ms = performance.now() - s;
  polling = false;
  await poll;
  return { ...env, ms, slowest, peak };
}

/**
 * The two accounts the list benches measure as: a dealer made by admin and a customer made
 * by that dealer (`<prefix>_dealer`, `<prefix>_customer`), signed in on the console at `http`.
 */
export async function dealerAndCustomer(http: string, prefix: string) {
  const admin = await new ConsoleApi(http).login('admin', BENCH_PASSWORD);
  const dealerId = (
    await admin.call<{ id: number }>('POST', '/api/v1/user/add-user', {
      user_name: `${prefix}_dealer`,
      password: 'dealer-pass-1',
      permissions: PERMISSION.dealer | PERMISSION.user | PERMISSION.visitor,
    })
  ).id;
  const dealer = await new ConsoleApi(http).login(`${prefix}_dealer`, 'dealer-pass-1');
  const customerId = (
    await dealer.call<{ id: number }>('POST', '/api/v1/user/add-user', {
      user_name: `${prefix}_customer`,
      password: 'customer-pass-1',
      permissions: PERMISSION.user | PERMISSION.visitor,
    })
  ).id;
  return { admin, dealer, dealerId, customerId };
}

/** Seconds of each load run's requests sent first and not counted (loadRun); BENCH_WARMUP. */
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 1);

/**
 * `connections` clients asking `url` for `seconds` (each request a different path from `vary`,
 * when given); the latencies of a list bench's case. An answer refused in its envelope (HTTP
 * 200, another code) is fast and no list: counted as refused. Requests past autocannon's 10 s
 * timeout, or still waiting when the run ends, have no latency: counted apart as unanswered,
 * and a run with no answer at all shows its whole duration as p99.
 *
 * Measured after WARMUP_SECONDS of the same requests, not counted: what the goal names is the
 * latency of a console that has been serving (its code compiled by V8, its pool's connections
 * open, a chart's closed buckets and a deep page's anchors found once), not of the first
 * second after a start. BENCH_WARMUP=0 counts from the first request.
 */
export async function loadRun(
  url: string,
  token: string,
  o: { connections: number; seconds: number; vary?: (n: number) => string; pid?: number },
) {
  let n = 0;
  let refused = 0;
  let refusal = '';
  const { vary, connections, seconds } = o;
  const run = (duration: number, counted: boolean) =>
    autocannon({
      url,
      connections,
      duration,
      headers: { 'x-token': token },
      requests: [
        {
          ...(vary
            ? {
                setupRequest: (req: autocannon.Request) => {
                  req.path = vary(n++);
                  return req;
                },
              }
            : {}),
          onResponse: (_status: number, body: string) => {
            if (counted && !body.startsWith('{"code":200,')) {
              refused++;
              refusal ||= body.slice(0, 200);
            }
          },
        },
      ],
    });
  if (WARMUP_SECONDS > 0) await run(WARMUP_SECONDS, false);
  const cpu = o.pid === undefined ? null : cpuMeter(o.pid);
  const r = await run(seconds, true);
  if (r.non2xx) throw new Error(`${url}: ${r.non2xx} answers not 200`);
  const unanswered = r.errors + (r.requests.total ? 0 : connections);
  const p99 = r.requests.total ? r.latency.p99 : seconds * 1000;
  const rps = Math.round(r.requests.average);
  return { rps, p50: r.latency.p50, p99, unanswered, refused, refusal, cpu: cpu?.(r.requests.total) };
}

/**
 * CPU time per request, in ms, from now until the answer is called with the requests made:
 * the console's process (`pid`: HTTP, and PGlite's worker thread), PostgreSQL's processes on
 * this machine (none with PGlite) and this process (the load generator). On this 2-core
 * machine they share two CPUs, so their sum bounds the throughput (2,000 ms of CPU a second)
 * and, by Little's law, the latency at a given concurrency (connections / throughput).
 */
export function cpuMeter(pid: number) {
  const HZ = 100; // USER_HZ, the unit of /proc/<pid>/stat's utime and stime
  // With `reaped`, also the CPU of children that ended and were waited for (cutime, cstime):
  // a PostgreSQL backend that exits mid-case (a pool's idle timeout) moves its time there, into
  // the postmaster's, instead of taking it out of the sum.
  const ticks = (p: number, reaped = false) => {
    try {
      const f = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);
    } catch {
      return 0; // a process that ended in between
    }
  };
  const postgres = () => {
    let sum = 0;
    for (const d of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        if (fs.readFileSync(`/proc/${d}/comm`, 'utf8').startsWith('postgres')) sum += ticks(Number(d), true);
      } catch {
        // gone
      }
    }
    return sum;
  };
  const at = () => [ticks(pid), postgres(), ticks(process.pid)] as const;
  const start = at();
  return (requests: number) => {
    const end = at();
    const ms = (i: number) => (((end[i]! - start[i]!) / HZ) * 1000) / Math.max(1, requests);
    return { console: ms(0), db: ms(1), load: ms(2) };
  };
}

/**
 * One case's line of a list bench (bench:lists, bench:maintenance): its throughput, p50 and
 * p99, the p99 as a ratio to `base`'s, and `ok`/`over` against `goalMs` (`ref` rows are shown
 * for comparison and judged by nobody). Answers the line and whether the case met the goal.
 */
export function caseLine(
  who: string,
  label: string,
  r: Awaited<ReturnType<typeof loadRun>>,
  base: { p99: number },
  goalMs: number,
  ref = false,
) {
  const ok = r.p99 < goalMs && !r.unanswered && !r.refused;
  const ratio = (r.p99 / Math.max(1, base.p99)).toFixed(1).padStart(5);
  const errors =
    (r.unanswered ? `  ${r.unanswered} unanswered` : '') +
    (r.refused ? `  ${r.refused} refused: ${r.refusal}` : '');
  const cpu = r.cpu
    ? `  ${[r.cpu.console, r.cpu.db, r.cpu.load].map((v) => v.toFixed(2).padStart(5)).join(' ')}`
    : '';
  const line = `${who.padEnd(9)}${label.padEnd(24)}${String(r.rps).padStart(7)}${String(r.p50).padStart(7)}${String(r.p99).padStart(7)}  ${ratio}  ${(ref ? 'ref' : ok ? 'ok' : 'over').padEnd(4)}${cpu}${errors}`;
  return { ok, line };
}

/**
 * BENCH_BEFORE_ENV='NAME=value …': the settings of a second console on the same PostgreSQL
 * database (e.g. SE_PG_PREPARE=0) that a list bench runs every case on, beside the console as
 * it is, for before vs after in one run; null when not asked for.
 */
export function beforeEnv(databaseUrl: string): Record<string, string> | null {
  const text = process.env.BENCH_BEFORE_ENV ?? '';
  const vars = Object.fromEntries(
    text
      .split(' ')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  if (!Object.keys(vars).length) return null;
  // PGlite's directory is one process's: two consoles cannot share it.
  if (!databaseUrl) throw new Error('BENCH_BEFORE_ENV needs DATABASE_URL');
  return vars;
}

type Run = Awaited<ReturnType<typeof loadRun>>;

/**
 * The two consoles' runs of one case, the "before" one first on every other call so that
 * neither always meets the cache the other warmed; prints both and the throughput ratio.
 */
export function beforeAndAfter() {
  let pairs = 0;
  const header = () =>
    console.log(
      `${'who'.padEnd(9)}${'case'.padEnd(34)}${'req/s'.padStart(7)}${'p50'.padStart(7)}${'p99'.padStart(7)}`,
    );
  const pair = async (who: string, label: string, before: () => Promise<Run>, after: () => Promise<Run>) => {
    const beforeFirst = pairs++ % 2 === 0;
    const a = beforeFirst ? await before() : await after();
    const b = beforeFirst ? await after() : await before();
    const [was, now] = beforeFirst ? [a, b] : [b, a];
    const row = (tag: string, r: Run) =>
      `${who.padEnd(9)}${`${label} ${tag}`.padEnd(34)}${String(r.rps).padStart(7)}${String(r.p50).padStart(7)}${String(r.p99).padStart(7)}`;
    console.log(row('before', was));
    console.log(`${row('after', now)}  req/s ×${(now.rps / Math.max(1, was.rps)).toFixed(2)}`);
  };
  return { header, pair };
}
