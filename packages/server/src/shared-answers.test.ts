import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SharedAnswers } from './shared-answers.ts';

// The clock is set by hand: what is asserted is which answer a caller gets at which age.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(1_000_000);
});
afterEach(() => vi.useRealTimers());

/** A computation whose answers are 1, 2, 3… and that finishes when told to. */
function counter() {
  let n = 0;
  const waiting: (() => void)[] = [];
  return {
    compute: () => new Promise<number>((resolve) => waiting.push(() => resolve(++n))),
    finishAll: async () => {
      for (const f of waiting.splice(0)) f();
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('SharedAnswers', () => {
  it('does not serve an answer older than notBefore, but shares one started since', async () => {
    const s = new SharedAnswers<number>(3000, 15_000);
    const c = counter();
    const first = s.get('k', c.compute);
    await c.finishAll();
    expect(await first).toBe(1);

    // A push arrived after that answer was computed: fresh by age, yet too old for this caller.
    vi.setSystemTime(1_001_000);
    const after = [s.get('k', c.compute, 1_000_500), s.get('k', c.compute, 1_000_800)];
    // A caller without notBefore still gets the shared answer while the new one computes.
    expect(await s.get('k', c.compute)).toBe(1);
    await c.finishAll();
    expect(await Promise.all(after)).toEqual([2, 2]);
    expect(s.computed).toBe(2);
    // The new answer (started at 1_001_000) serves notBefore up to its start.
    expect(await s.get('k', c.compute, 1_001_000)).toBe(2);
    expect(s.computed).toBe(2);
  });

  it('serves a fresh answer, a stale one while refreshing in the background, and waits for an expired one', async () => {
    const s = new SharedAnswers<number>(1000, 5000);
    const c = counter();
    const first = [s.get('k', c.compute), s.get('k', c.compute), s.get('k', c.compute)];
    await c.finishAll();
    expect(await Promise.all(first)).toEqual([1, 1, 1]);
    expect(s.computed).toBe(1);

    vi.setSystemTime(1_000_500);
    expect(await s.get('k', c.compute)).toBe(1);
    expect(s.computed).toBe(1);

    // Stale: the old answer at once, one refresh for any number of callers.
    vi.setSystemTime(1_002_000);
    expect(await s.get('k', c.compute)).toBe(1);
    expect(await s.get('k', c.compute)).toBe(1);
    expect(s.computed).toBe(2);
    await c.finishAll();
    expect(await s.get('k', c.compute)).toBe(2);

    // Expired: the caller waits for the new answer.
    vi.setSystemTime(1_010_000);
    const late = s.get('k', c.compute);
    await c.finishAll();
    expect(await late).toBe(3);
    expect(s.computed).toBe(3);
  });

  it('keeps keys apart and lets a failed computation be retried', async () => {
    const s = new SharedAnswers<string>(1000, 5000);
    expect(await s.get('a', async () => 'A')).toBe('A');
    expect(await s.get('b', async () => 'B')).toBe('B');
    await expect(s.get('c', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await s.get('c', async () => 'C')).toBe('C');
    expect(await s.get('a', async () => 'other')).toBe('A');
  });

  it('reports a failed background refresh and keeps serving the older answer', async () => {
    const errors: unknown[] = [];
    const s = new SharedAnswers<string>(1000, 5000, (e) => errors.push(e));
    await s.get('k', async () => 'old');
    vi.setSystemTime(1_002_000);
    expect(await s.get('k', () => Promise.reject(new Error('refresh failed')))).toBe('old');
    await new Promise((r) => setImmediate(r));
    expect(errors).toHaveLength(1);
    expect(await s.get('k', async () => 'new')).toBe('old');
    await new Promise((r) => setImmediate(r));
    expect(await s.get('k', async () => 'newer')).toBe('new');
  });

  it('computes every call when switched off', async () => {
    const s = new SharedAnswers<number>(0, 0);
    let n = 0;
    await Promise.all([s.get('k', async () => ++n), s.get('k', async () => ++n)]);
    expect(n).toBe(2);
    expect(s.computed).toBe(2);
  });
});
