// `npm start` (and `npm run demo`): builds the web app when its build is missing or older than its sources, then
// runs the server (migrations, API, web app, MQTT broker) in this process.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'packages/web/dist/index.html');

function newestMtime(p) {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of fs.readdirSync(p, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) max = Math.max(max, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return max;
}

const sources = [
  'packages/web/src',
  'packages/web/index.html',
  'packages/web/public',
  'packages/web/vite.config.ts',
  'packages/core/src',
];
const builtAt = newestMtime(builtIndex);
const changedAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
if (!builtAt || changedAt > builtAt) {
  console.log('building the web app…');
  execFileSync(process.execPath, [path.join(root, 'scripts/build-web.mjs')], { stdio: 'inherit' });
}

const { register } = await import('tsx/esm/api');
register();
// `npm run demo` starts the same server with a demo tenant and simulated devices.
await import(
  process.argv.includes('--demo') ? '../packages/server/src/sim/demo.ts' : '../packages/server/src/main.ts'
);
