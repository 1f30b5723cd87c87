import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
          // An antd screen rendered in jsdom takes 1–3 s; on a busy 2-core machine several
          // times that. A slow machine is not a failure; a hung screen still is.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
