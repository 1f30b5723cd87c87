// Bootstrap of the upload worker threads (worker-pool.ts). Plain JavaScript, because a
// worker starts without the parent's TypeScript loader (tsx under `npm start`, Vite under
// vitest): it registers tsx itself, then imports the task module named by the pool.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const tasks = await import(workerData.module);

parentPort.on('message', async ({ id, fn, args }) => {
  try {
    if (typeof tasks[fn] !== 'function') throw new Error(`no task ${fn}`);
    parentPort.postMessage({ id, result: await tasks[fn](...args) });
  } catch (err) {
    parentPort.postMessage({
      id,
      error: { name: err?.name ?? 'Error', message: String(err?.message ?? err) },
    });
  }
});
parentPort.postMessage({ ready: true });
