import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMULA_BOOL_VARS, FORMULA_NUMBER_VARS, checkFormula, parseFormula, printFormula } from '@se/core';
import { emptyRow, rowError, rowsToText, textToRows, type BuilderRow } from './formula-builder.ts';

const numberRow = fc.record({
  join: fc.constantFrom<'and' | 'or'>('and', 'or'),
  not: fc.boolean(),
  variable: fc.constantFrom(...FORMULA_NUMBER_VARS),
  op: fc.constantFrom('gt', 'gte', 'lt', 'lte', 'te' as const),
  value: fc
    .oneof(fc.integer({ min: -100, max: 10_000 }), fc.double({ min: -1e4, max: 1e4, noNaN: true }))
    .map((n) => String(n === 0 ? 0 : n)),
});
const boolRow = fc.record({
  join: fc.constantFrom<'and' | 'or'>('and', 'or'),
  not: fc.boolean(),
  variable: fc.constantFrom(...FORMULA_BOOL_VARS),
  op: fc.constant('te' as const),
  value: fc.constantFrom('true', 'false'),
});
const rows = fc.array(fc.oneof(numberRow, boolRow), { minLength: 1, maxLength: 8 });
// The first row's join means nothing; the builder reads it back as 'and'.
// A flag row's 非 is folded into its value ("not alarm" is alarm = false).
const normal = (r: BuilderRow[]) =>
  r.map((x, i) => {
    const y = i === 0 ? { ...x, join: 'and' as const } : x;
    if (x.op !== 'te' || !(FORMULA_BOOL_VARS as readonly string[]).includes(x.variable)) return y;
    return { ...y, not: false, value: (x.value === 'true') !== x.not ? 'true' : 'false' };
  });

describe('formula builder', () => {
  it('builder → text → parse → builder round-trips, and the text is a valid canonical rule', () => {
    fc.assert(
      fc.property(rows, (r) => {
        const text = rowsToText(r)!;
        expect(text).not.toBeNull();
        expect(() => checkFormula(text)).not.toThrow();
        expect(printFormula(parseFormula(text))).toBe(text);
        expect(textToRows(text)).toEqual(normal(r));
      }),
      { numRuns: 500 },
    );
  });

  it('writes the issue example from three rows, 且 binding tighter than 或', () => {
    const text = rowsToText([
      { join: 'and', not: false, variable: 'nh3', op: 'gt', value: '1.5' },
      { join: 'and', not: false, variable: 'alarm', op: 'te', value: 'false' },
      { join: 'or', not: true, variable: 'h2s', op: 'lte', value: '0.05' },
    ]);
    expect(text).toBe('nh3 gt 1.5 and not alarm or not (h2s lte 0.05)');
  });

  it('reads back hand-written text of the same shape, and refuses shapes it cannot show', () => {
    expect(textToRows('NH3 gt 1.50 and not alarm')).toEqual([
      { join: 'and', not: false, variable: 'nh3', op: 'gt', value: '1.5' },
      { join: 'and', not: false, variable: 'alarm', op: 'te', value: 'false' },
    ]);
    expect(textToRows('nh3 plus h2s gt 1')).toBeNull();
    expect(textToRows('alarm and (smk_alarm or alarm)')).toBeNull();
    expect(textToRows('1 lt nh3')).toBeNull();
    expect(textToRows('nh3 gt')).toBeNull();
  });

  it('holds back text while a row has no valid number', () => {
    expect(rowError(emptyRow())).toBe('请输入数值');
    expect(rowError({ ...emptyRow(), value: '1,5' })).toBe('数值格式不正确');
    expect(rowsToText([emptyRow()])).toBeNull();
    expect(rowsToText([])).toBeNull();
  });
});
