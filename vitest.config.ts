import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * React work that a jsdom test file left scheduled (a toast's or an animation's timer firing
 * after the file ended) runs in the same worker after vitest has taken that file's window
 * away, and throws "window is not defined" from React's scheduler: the file's tests have all
 * finished by then, so it says nothing about them, yet it failed whole runs on this 2-core
 * machine, attributed to whichever file was running then. Only that error is let pass; every other
 * unhandled error still fails the run.
 */
function afterTeardown(error: { name?: string; message?: string; stack?: string }) {
  return (
    error.name === 'ReferenceError' &&
    /^(window|document) is not defined$/.test(error.message ?? '') &&
    /node_modules\/(react-dom|scheduler)\//.test(error.stack ?? '')
  );
}

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one worker on this 2-core machine,
    // so every file ran after the other while the API suites waited on PostgreSQL, on the
    // disk and on imports. One worker more than the cores keeps both busy: measured here, the
    // API suites on PostgreSQL took 149 s instead of 489 s, and core, server and web on PGlite
    // 390 s instead of about 1,100 s.
    maxWorkers: os.availableParallelism() + 1,
    onUnhandledError: (error) => !afterTeardown(error),
    projects: [
      {
        test: {
          name: 'core',
          include: ['packages/core/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          exclude: ['packages/server/src/**/*.mosquitto.test.ts', 'packages/server/src/**/*.redis.test.ts'],
          environment: 'node',
          // One migrated database per run; every test app starts as a copy of it.
          globalSetup: ['packages/server/src/test/global-setup.ts'],
          // A worker keeps the modules it has loaded from one file to the next: every file
          // builds its own app on its own database (harness.ts testApp) and closes it, so
          // none needs the server's modules loaded afresh. Loading them for each of 78 files
          // was 151 s of a run's import time: measured here, the suites on PGlite took 124 s
          // instead of 237 s, and on PostgreSQL 92 s. A file that mocks a module loads what
          // uses it after vi.resetModules() (auth/login-throttle.test.ts).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Against an external broker: npm test runs it when MQTT_URL is set.
        test: {
          name: 'mosquitto',
          include: ['packages/server/src/**/*.mosquitto.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Against Redis: npm test runs it when REDIS_URL is set.
        test: {
          name: 'redis',
          include: ['packages/server/src/**/*.redis.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['packages/web/src/test-setup.ts'],
          // A worker keeps its window from one file to the next; the setup file gives each
          // file its own modules (they hold screens' state: toasts, the session, mocks), empty
          // storage and an empty body. A new jsdom window and vitest's per-file module runner
          // for each of 78 files cost more than the tests: measured here, 106 s instead of 269 s.
          isolate: false,
          // An antd screen rendered in jsdom takes 1–3 s; on a busy 2-core machine several
          // times that. A slow machine is not a failure; a hung screen still is.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
