import { describe, expect, it } from 'vitest';
import { inTurn } from './use-echarts.ts';

describe('chart work in turns', () => {
  it('runs queued steps in order, each in a task of its own', async () => {
    const log: string[] = [];
    const done = new Promise<void>((resolve) => {
      for (const name of ['a', 'b', 'c']) {
        inTurn(() => {
          log.push(name);
          // A microtask queued by a step runs before the next step: the steps are separate tasks.
          void Promise.resolve().then(() => log.push(`${name} settled`));
          if (name === 'c') setTimeout(resolve, 0);
        });
      }
    });
    expect(log).toEqual([]);
    await done;
    expect(log).toEqual(['a', 'a settled', 'b', 'b settled', 'c', 'c settled']);
  });

  it('takes steps queued by a step after the ones already waiting', async () => {
    const log: string[] = [];
    await new Promise<void>((resolve) => {
      inTurn(() => {
        log.push('first');
        inTurn(() => {
          log.push('queued by first');
          resolve();
        });
      });
      inTurn(() => log.push('second'));
    });
    expect(log).toEqual(['first', 'second', 'queued by first']);
  });
});
