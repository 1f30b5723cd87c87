import { describe, expect, it } from 'vitest';
import { bindingDiff, changeCount, isPicked, pick, pickPage, type Picks } from './binding-diff.ts';

const none: Picks = new Map();
const rows = [
  { id: 1, is_bind: true },
  { id: 2, is_bind: false },
  { id: 3, is_bind: false },
  { id: 4, is_bind: true },
];

describe('binding dialog diff', () => {
  it('sends nothing before anything is ticked', () => {
    expect(bindingDiff(none)).toEqual({ add_ids: [], remove_ids: [] });
    expect(rows.map((r) => isPicked(none, r))).toEqual([true, false, false, true]);
  });

  it('adds newly ticked rows and removes unticked bound rows in the same save', () => {
    let p = pick(none, 3, false, true);
    p = pick(p, 1, true, false);
    p = pick(p, 2, false, true);
    expect(bindingDiff(p)).toEqual({ add_ids: [2, 3], remove_ids: [1] });
    expect(isPicked(p, rows[0]!)).toBe(false);
    expect(isPicked(p, rows[2]!)).toBe(true);
    expect(changeCount(p)).toBe(3);
  });

  it('forgets a row ticked and unticked again', () => {
    let p = pick(none, 2, false, true);
    p = pick(p, 2, false, false);
    p = pick(p, 4, true, false);
    p = pick(p, 4, true, true);
    expect(bindingDiff(p)).toEqual({ add_ids: [], remove_ids: [] });
    expect(changeCount(p)).toBe(0);
  });

  it('ticks a whole page, sending only the rows not bound yet', () => {
    expect(bindingDiff(pickPage(none, rows, [1, 2, 3, 4]))).toEqual({ add_ids: [2, 3], remove_ids: [] });
    expect(bindingDiff(pickPage(none, rows, []))).toEqual({ add_ids: [], remove_ids: [1, 4] });
  });

  it('keeps picks made on other pages', () => {
    const page1 = pick(none, 2, false, true);
    const page2 = pickPage(page1, [{ id: 10, is_bind: true }], []);
    expect(bindingDiff(page2)).toEqual({ add_ids: [2], remove_ids: [10] });
  });
});
