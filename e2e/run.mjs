// Starts the real server (built web app, fresh PGlite data dir, ephemeral ports), runs the
// Playwright suites in e2e/ against it in Debian's Chromium, then stops the server.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.error(
    `Chromium not found at ${chromium}: install it (apt-get install chromium fonts-noto-cjk) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}
if (!fs.existsSync(path.join(root, 'packages/web/dist/index.html'))) {
  console.error('The web app is not built: run `npm run build` first.');
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-e2e-'));
const adminPassword = 'e2e-admin-pass';
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: adminPassword,
    DATABASE_URL: '',
    MQTT_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    // Every e2e file signs in several times from 127.0.0.1: more than 60 in 10 minutes.
    LOGIN_LIMIT_PER_IP: '1000',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});

let mqttPort;
const baseUrl = await new Promise((resolve, reject) => {
  let out = '';
  const timer = setTimeout(() => reject(new Error(`server did not start in 180 s:\n${out}`)), 180_000);
  server.stdout.on('data', (chunk) => {
    out += chunk;
    process.stdout.write(chunk);
    const m = /console on (http:\/\/\S+?)(,|\s|$)/.exec(out);
    mqttPort ??= /MQTT on port (\d+)/.exec(out)?.[1];
    // The line after it names the broker's port (tests that drive simulated devices use it).
    if (m && /ready in/.test(out)) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
  server.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
}).catch((err) => {
  console.error(err.message);
  process.exit(1);
});
server.stdout.on('data', (c) => process.stdout.write(c));

const r = spawnSync(
  path.join(root, 'node_modules/.bin/vitest'),
  ['run', '--config', path.join(root, 'e2e/vitest.config.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      E2E_BASE_URL: baseUrl,
      E2E_MQTT_PORT: mqttPort ?? '',
      E2E_ADMIN_PASSWORD: adminPassword,
      CHROMIUM_PATH: chromium,
    },
  },
);

server.kill('SIGTERM');
await new Promise((res) => server.once('exit', res));
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(r.status ?? 1);
