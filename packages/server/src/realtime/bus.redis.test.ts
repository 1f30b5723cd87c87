// Against a real Redis (REDIS_URL): npm test adds this project only when REDIS_URL is set.
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_REPORTS, RedisBus } from './bus.ts';

const url = process.env.REDIS_URL!;
const log = { warn: () => {} } as never;
const buses: RedisBus[] = [];
afterAll(() => Promise.all(buses.map((b) => b.close())));

/** Two server copies on the same Redis, both connected (closed after the tests). */
async function twoCopies() {
  const copies = [new RedisBus(url, log), new RedisBus(url, log)] as const;
  buses.push(...copies);
  await Promise.all(copies.map((c) => c.connect()));
  return copies;
}

describe('Redis event bus', () => {
  it('delivers an event to the other server copies once, and to its own listeners once', async () => {
    const [a, b] = await twoCopies();
    const gotA: unknown[] = [];
    const gotB = new Promise<unknown>((r) => b.on('alarms', r));
    a.on('alarms', (p) => gotA.push(p));
    a.emit('alarms', [7, 8]);
    expect(await gotB).toEqual([7, 8]);
    await new Promise((r) => setTimeout(r, 100));
    expect(gotA).toEqual([[7, 8]]);
  });

  it('keeps emitLocal on this copy: the other copy never hears it', async () => {
    const [a, b] = await twoCopies();
    const gotA: unknown[] = [];
    const gotB: unknown[] = [];
    a.on(LOCAL_REPORTS, (p) => gotA.push(p));
    b.on(LOCAL_REPORTS, (p) => gotB.push(p));
    // A marker sent the ordinary way afterwards: once b hears it, a local event would have too.
    const marker = new Promise((r) => b.on('alarms', r));
    a.emitLocal(LOCAL_REPORTS, [1]);
    a.emit('alarms', [9]);
    await marker;
    expect(gotA).toEqual([[1]]);
    expect(gotB).toEqual([]);
  });
});
