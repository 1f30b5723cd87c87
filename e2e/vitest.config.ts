import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two files (two browsers) at a time against the one server: every file signs in and
    // makes its own objects, and each waits on the server and the browser more than it
    // computes, so two share the two cores well (457 s one at a time, 192 s two at a time).
    fileParallelism: true,
    maxWorkers: 2,
  },
});
