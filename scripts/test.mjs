// `npm test`: every check and suite, in order, stopping at the first failure.
//   check (format, lint, types) → unit + API suites on PGlite → the API suites again on
//   PostgreSQL when DATABASE_URL is set → web build → end-to-end in Chromium.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);

const steps = [
  ['format, lint and types', 'npm', ['run', '--silent', 'check']],
  [
    'unit and API tests (PGlite)',
    bin('vitest'),
    ['run', '--project', 'core', '--project', 'server', '--project', 'web'],
  ],
];
if (process.env.DATABASE_URL) {
  steps.push([
    'API tests on PostgreSQL',
    bin('vitest'),
    ['run', '--project', 'server'],
    { TEST_DB: 'postgres' },
  ]);
} else {
  console.log('DATABASE_URL is not set: the API suites run on PGlite only.');
}
if (process.env.MQTT_URL) {
  steps.push(['MQTT suite on the external broker', bin('vitest'), ['run', '--project', 'mosquitto']]);
} else {
  console.log('MQTT_URL is not set: MQTT runs against the embedded broker only.');
}
if (process.env.REDIS_URL) {
  steps.push(['event bus on Redis', bin('vitest'), ['run', '--project', 'redis']]);
} else {
  console.log('REDIS_URL is not set: live push runs on the in-process bus only.');
}
steps.push(['web build', process.execPath, [path.join(root, 'scripts/build-web.mjs')]]);
steps.push(['end-to-end (Chromium)', process.execPath, [path.join(root, 'e2e/run.mjs')]]);

// Vitest runs also write a JSON report, so the closing line can count every test.
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'se-test-'));
process.on('exit', () => fs.rmSync(reports, { recursive: true, force: true }));
const totals = { passed: 0, failed: 0 };
function count(file) {
  if (!fs.existsSync(file)) return;
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
}

const t0 = Date.now();
let n = 0;
for (const [name, cmd, args, env] of steps) {
  const t = Date.now();
  console.log(`\n=== ${name}`);
  const report = path.join(reports, `${n++}.json`);
  const vitestArgs = ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const isVitest = cmd.endsWith('vitest') || args.some((a) => a.endsWith('e2e/run.mjs'));
  const r = spawnSync(cmd, isVitest ? [...args, ...vitestArgs] : args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  count(report);
  if (r.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${r.status ?? r.signal})`);
    console.log(`${totals.passed} passed, ${Math.max(1, totals.failed)} failed`);
    process.exit(1);
  }
  console.log(`✓ ${name} (${((Date.now() - t) / 1000).toFixed(0)} s)`);
}
console.log(`\nall checks passed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
