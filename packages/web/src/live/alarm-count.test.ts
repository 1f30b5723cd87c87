import { describe, expect, it } from 'vitest';
import { AlarmTracker } from './alarm-count.ts';

/** A push: the badge count before it (open, active; null: none fetched), the alarm's id and status. */
type Step = [open: number | null, active: number, id: number, status: string];

interface Case {
  name: string;
  /** Statuses learnt from a list or an acknowledgement, before the pushes. */
  remember?: [id: number, status: string][];
  /** The pushes, in order: the last one answers `expected`. */
  steps: Step[];
  /** Compared whole with `whole`, else only the keys given. */
  expected: Record<string, unknown>;
  whole?: boolean;
}

const CASES: Case[] = [
  {
    name: 'adds a new open alarm to both counts and calls it new',
    steps: [[2, 3, 1, 'open']],
    expected: { count: { open: 3, active: 4 }, exact: true, isNew: true },
    whole: true,
  },
  {
    name: 'moves an acknowledged alarm out of open but keeps it active',
    steps: [
      [0, 0, 1, 'open'],
      [1, 1, 1, 'acked'],
    ],
    expected: { count: { open: 0, active: 1 }, exact: true, isNew: false },
    whole: true,
  },
  {
    name: 'takes an acknowledged alarm that closes off the active count',
    steps: [
      [0, 0, 1, 'open'],
      [1, 1, 1, 'acked'],
      [0, 1, 1, 'closed'],
    ],
    expected: { count: { open: 0, active: 0 } },
  },
  {
    name: 'takes an open alarm that closes off both counts',
    steps: [
      [0, 0, 2, 'open'],
      [1, 1, 2, 'closed'],
    ],
    expected: { count: { open: 0, active: 0 } },
  },
  {
    name: 'changes nothing when the same status is pushed again',
    steps: [
      [0, 0, 1, 'open'],
      [1, 1, 1, 'open'],
    ],
    expected: { count: { open: 1, active: 1 }, exact: true, isNew: false },
    whole: true,
  },
  {
    name: 'assumes an unseen acknowledged alarm was open (it was counted by the last fetch)',
    steps: [[2, 2, 5, 'acked']],
    expected: { count: { open: 1, active: 2 } },
  },
  {
    name: 'asks for a fresh count when an unseen alarm closes (open or acknowledged is unknown)',
    steps: [[1, 3, 5, 'closed']],
    expected: { exact: false, count: { open: 1, active: 2 } },
  },
  {
    name: 'takes a status remembered from a list or an acknowledgement: our own 确认 changes nothing',
    remember: [[7, 'acked']],
    steps: [[0, 1, 7, 'acked']],
    expected: { count: { open: 0, active: 1 } },
  },
  {
    name: 'takes a status remembered from a list or an acknowledgement: its close is exact',
    remember: [[7, 'acked']],
    steps: [
      [0, 1, 7, 'acked'],
      [0, 1, 7, 'closed'],
    ],
    expected: { count: { open: 0, active: 0 }, exact: true },
  },
  {
    name: 'never goes below zero, and says so',
    remember: [[1, 'open']],
    steps: [[0, 0, 1, 'closed']],
    expected: { count: { open: 0, active: 0 }, exact: false, isNew: false },
    whole: true,
  },
  {
    name: 'reports the change even before a count was fetched',
    steps: [[null, 0, 1, 'open']],
    expected: { count: undefined, exact: false, isNew: true },
    whole: true,
  },
  {
    name: 'ignores an unknown status',
    steps: [[1, 1, 1, 'weird']],
    expected: { count: { open: 1, active: 1 }, isNew: false },
  },
];

describe('alarm badge count', () => {
  it.each(CASES)('$name', (c) => {
    const t = new AlarmTracker();
    t.remember((c.remember ?? []).map(([id, status]) => ({ id, status })));
    const changes = c.steps.map(([open, active, id, status]) =>
      t.update(open === null ? undefined : { open, active }, { id, status }),
    );
    const last = changes.at(-1);
    if (c.whole) expect(last).toEqual(c.expected);
    else expect(last).toMatchObject(c.expected);
  });
});
