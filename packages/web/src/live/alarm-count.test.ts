import { describe, expect, it } from 'vitest';
import { AlarmTracker } from './alarm-count.ts';

const alarm = (id: number, status: string) => ({ id, status });

describe('alarm badge count', () => {
  it('adds a new open alarm to both counts and calls it new', () => {
    const t = new AlarmTracker();
    expect(t.update({ open: 2, active: 3 }, alarm(1, 'open'))).toEqual({
      count: { open: 3, active: 4 },
      exact: true,
      isNew: true,
    });
  });

  it('moves an acknowledged alarm out of open but keeps it active', () => {
    const t = new AlarmTracker();
    t.update({ open: 0, active: 0 }, alarm(1, 'open'));
    expect(t.update({ open: 1, active: 1 }, alarm(1, 'acked'))).toEqual({
      count: { open: 0, active: 1 },
      exact: true,
      isNew: false,
    });
  });

  it('takes a closed alarm off the active count', () => {
    const t = new AlarmTracker();
    t.update({ open: 0, active: 0 }, alarm(1, 'open'));
    t.update({ open: 1, active: 1 }, alarm(1, 'acked'));
    expect(t.update({ open: 0, active: 1 }, alarm(1, 'closed')).count).toEqual({ open: 0, active: 0 });
    t.update({ open: 0, active: 0 }, alarm(2, 'open'));
    expect(t.update({ open: 1, active: 1 }, alarm(2, 'closed')).count).toEqual({ open: 0, active: 0 });
  });

  it('changes nothing when the same status is pushed again', () => {
    const t = new AlarmTracker();
    t.update({ open: 0, active: 0 }, alarm(1, 'open'));
    expect(t.update({ open: 1, active: 1 }, alarm(1, 'open'))).toEqual({
      count: { open: 1, active: 1 },
      exact: true,
      isNew: false,
    });
  });

  it('assumes an unseen acknowledged alarm was open (it was counted by the last fetch)', () => {
    const t = new AlarmTracker();
    expect(t.update({ open: 2, active: 2 }, alarm(5, 'acked')).count).toEqual({ open: 1, active: 2 });
  });

  it('asks for a fresh count when an unseen alarm closes (open or acknowledged is unknown)', () => {
    const t = new AlarmTracker();
    const change = t.update({ open: 1, active: 3 }, alarm(5, 'closed'));
    expect(change.exact).toBe(false);
    expect(change.count).toEqual({ open: 1, active: 2 });
  });

  it('uses statuses remembered from a list or an acknowledgement', () => {
    const t = new AlarmTracker();
    t.remember([alarm(7, 'acked')]);
    // The push of our own 确认 then changes nothing.
    expect(t.update({ open: 0, active: 1 }, alarm(7, 'acked')).count).toEqual({ open: 0, active: 1 });
    expect(t.update({ open: 0, active: 1 }, alarm(7, 'closed'))).toMatchObject({
      count: { open: 0, active: 0 },
      exact: true,
    });
  });

  it('never goes below zero, and says so', () => {
    const t = new AlarmTracker();
    t.remember([alarm(1, 'open')]);
    expect(t.update({ open: 0, active: 0 }, alarm(1, 'closed'))).toEqual({
      count: { open: 0, active: 0 },
      exact: false,
      isNew: false,
    });
  });

  it('reports the change even before a count was fetched', () => {
    const t = new AlarmTracker();
    expect(t.update(undefined, alarm(1, 'open'))).toEqual({ count: undefined, exact: false, isNew: true });
  });

  it('ignores an unknown status', () => {
    const t = new AlarmTracker();
    expect(t.update({ open: 1, active: 1 }, alarm(1, 'weird'))).toMatchObject({
      count: { open: 1, active: 1 },
      isNew: false,
    });
  });
});
