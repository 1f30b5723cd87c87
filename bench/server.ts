// Starting processes for the benchmarks: the console on a scratch PGlite directory with
// ephemeral ports and no external services, or any script that prints its address.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const BENCH_PASSWORD = 'bench-password';

/** Runs a TypeScript file and resolves once its output matches `pattern`. */
export function startScript(
  file: string,
  env: Record<string, string>,
  pattern: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray; out: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
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
  opts: { dataDir?: string; env?: Record<string, string> } = {},
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
