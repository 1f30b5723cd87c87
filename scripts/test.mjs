// `npm test`: every check and suite, in order, stopping at the first failure.
//   check (format, lint, types) → unit + API suites on PGlite → the API suites again on
//   PostgreSQL when DATABASE_URL is set → web build → end-to-end in Chromium.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);

const steps = [
  ['format, lint and types', 'npm', ['run', '--silent', 'check']],
  ['unit and API tests (PGlite)', bin('vitest'), ['run']],
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
steps.push(['web build', process.execPath, [path.join(root, 'scripts/build-web.mjs')]]);
steps.push(['end-to-end (Chromium)', process.execPath, [path.join(root, 'e2e/run.mjs')]]);

const t0 = Date.now();
for (const [name, cmd, args, env] of steps) {
  const t = Date.now();
  console.log(`\n=== ${name}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
  console.log(`✓ ${name} (${((Date.now() - t) / 1000).toFixed(0)} s)`);
}
console.log(`\nall checks passed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
