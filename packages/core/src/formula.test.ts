import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FORMULA_BOOL_VARS,
  FORMULA_NUMBER_VARS,
  FormulaError,
  checkFormula,
  compileFormula,
  evaluateFormula,
  formulaVars,
  normalizeFormula,
  numbersEqual,
  parseFormula,
  printFormula,
  tryCheckFormula,
  typeOf,
  type FormulaNode,
  type FormulaVar,
} from './formula.ts';

/** An AST without positions, for structural comparison. */
function strip(n: FormulaNode): unknown {
  switch (n.type) {
    case 'num':
    case 'bool':
      return { type: n.type, value: n.value };
    case 'var':
      return { type: 'var', name: n.name };
    case 'not':
      return { type: 'not', arg: strip(n.arg) };
    case 'bin':
      return { type: 'bin', op: n.op, left: strip(n.left), right: strip(n.right) };
  }
}

const at = { pos: 0, end: 0 };
const num = (value: number): FormulaNode => ({ type: 'num', value, ...at });

// Well-typed random ASTs: numeric and boolean expressions built from each other.
const literal = fc
  .oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
    fc.constantFrom(0, 1, 0.5, 1.5, 1e21, 1e-7),
  )
  .map((v) => num(v === 0 ? 0 : v));

const { numExpr, boolExpr } = fc.letrec<{ numExpr: FormulaNode; boolExpr: FormulaNode }>((tie) => ({
  numExpr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal,
    fc.constantFrom(...FORMULA_NUMBER_VARS).map((name): FormulaNode => ({ type: 'var', name, ...at })),
    fc
      .tuple(fc.constantFrom('plus', 'minus', 'multiply', 'divide' as const), tie('numExpr'), tie('numExpr'))
      .map(([op, left, right]): FormulaNode => ({ type: 'bin', op, left, right, ...at })),
  ),
  boolExpr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.boolean().map((value): FormulaNode => ({ type: 'bool', value, ...at })),
    fc.constantFrom(...FORMULA_BOOL_VARS).map((name): FormulaNode => ({ type: 'var', name, ...at })),
    tie('boolExpr').map((arg): FormulaNode => ({ type: 'not', arg, ...at })),
    fc
      .tuple(fc.constantFrom('gt', 'gte', 'lt', 'lte', 'te' as const), tie('numExpr'), tie('numExpr'))
      .map(([op, left, right]): FormulaNode => ({ type: 'bin', op, left, right, ...at })),
    fc
      .tuple(fc.constantFrom('and', 'or', 'te' as const), tie('boolExpr'), tie('boolExpr'))
      .map(([op, left, right]): FormulaNode => ({ type: 'bin', op, left, right, ...at })),
  ),
}));

const fullReadings = fc.record({
  co2: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e5 }),
  pm25: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e5 }),
  voc: fc.constantFrom(0, 1, 2.5, 5, 10),
  nh3: fc.constantFrom(0, 0.1, 1.5, 2, 0.2),
  h2s: fc.constantFrom(0, 0.02, 0.05),
  alarm: fc.boolean(),
  smk_alarm: fc.constantFrom(0, 1),
  star_level: fc.constantFrom(1, 2, 3, 4, 5),
  badattitude: fc.boolean(),
  inefficiency: fc.boolean(),
  poorsanitary: fc.boolean(),
  smelly: fc.boolean(),
});

/**
 * The reference: the AST turned into a JavaScript expression, evaluated by the JS engine with
 * the documented rules (non-finite arithmetic → NaN, te on numbers within 1e-9).
 */
function jsOf(n: FormulaNode): string {
  switch (n.type) {
    case 'num':
      return `(${n.value})`;
    case 'bool':
      return String(n.value);
    case 'var':
      return `R.${n.name}`;
    case 'not':
      return `(!${jsOf(n.arg)})`;
    case 'bin': {
      const l = jsOf(n.left);
      const r = jsOf(n.right);
      const js = { plus: '+', minus: '-', multiply: '*', divide: '/' } as const;
      if (n.op in js) return `F(${l} ${js[n.op as keyof typeof js]} ${r})`;
      const cmp = { gt: '>', gte: '>=', lt: '<', lte: '<=', and: '&&', or: '||' } as const;
      if (n.op in cmp) return `(${l} ${cmp[n.op as keyof typeof cmp]} ${r})`;
      return `EQ(${l}, ${r})`;
    }
  }
}
function reference(n: FormulaNode, readings: Record<string, number | boolean>) {
  const R = { ...readings, smk_alarm: readings.smk_alarm === 1 || readings.smk_alarm === true };
  const F = (x: number) => (Number.isFinite(x) ? x : NaN);
  const EQ = (a: number | boolean, b: number | boolean) =>
    typeof a === 'number' && typeof b === 'number' ? numbersEqual(a, b) : a === b;
  return new Function('R', 'F', 'EQ', `return ${jsOf(n)};`)(R, F, EQ) as boolean;
}

describe('formula language: properties', () => {
  it('print(parse(x)) round-trips: the printed text parses back to the same AST', () => {
    fc.assert(
      fc.property(fc.oneof(numExpr, boolExpr), (ast) => {
        const text = printFormula(ast);
        const back = parseFormula(text);
        expect(strip(back)).toEqual(strip(ast));
        expect(printFormula(back)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('gives multiply/divide precedence over plus/minus, comparisons over and, and over or', () => {
    const same = (a: string, b: string) => expect(strip(parseFormula(a))).toEqual(strip(parseFormula(b)));
    fc.assert(
      fc.property(
        fc.constantFrom('plus', 'minus'),
        fc.constantFrom('multiply', 'divide'),
        fc.constantFrom(...FORMULA_NUMBER_VARS),
        fc.constantFrom(...FORMULA_NUMBER_VARS),
        fc.constantFrom(...FORMULA_NUMBER_VARS),
        (low, high, a, b, c) => {
          same(`${a} ${low} ${b} ${high} ${c}`, `${a} ${low} (${b} ${high} ${c})`);
          same(`${a} ${high} ${b} ${low} ${c}`, `(${a} ${high} ${b}) ${low} ${c}`);
          // Left-associative at one level.
          same(`${a} ${low} ${b} ${low} ${c}`, `(${a} ${low} ${b}) ${low} ${c}`);
          same(`${a} ${high} ${b} ${high} ${c}`, `(${a} ${high} ${b}) ${high} ${c}`);
        },
      ),
    );
    same('nh3 gt 1 and alarm or smk_alarm', '((nh3 gt 1) and alarm) or smk_alarm');
    same('alarm or smk_alarm and nh3 gt 1', 'alarm or (smk_alarm and (nh3 gt 1))');
    same('not alarm and smk_alarm', '(not alarm) and smk_alarm');
    same('nh3 plus 1 gt h2s multiply 2', '(nh3 plus 1) gt (h2s multiply 2)');
    expect(printFormula(parseFormula('(nh3 plus (h2s multiply 2))'))).toBe('nh3 plus h2s multiply 2');
    expect(printFormula(parseFormula('nh3 minus (h2s minus voc) gt 0'))).toBe(
      'nh3 minus (h2s minus voc) gt 0',
    );
  });

  it('evaluates like a reference JavaScript evaluation on random formulas and readings', () => {
    fc.assert(
      fc.property(boolExpr, fullReadings, (ast, readings) => {
        expect(typeOf(ast)).toBe('boolean');
        expect(evaluateFormula(ast, readings)).toBe(reference(ast, readings));
      }),
      { numRuns: 1000 },
    );
  });

  it('with an unreported variable, a known result is the result for every value of it', () => {
    fc.assert(
      fc.property(
        boolExpr,
        fullReadings,
        fc.constantFrom<FormulaVar>('nh3', 'co2', 'alarm'),
        (ast, full, missing) => {
          const partial: Record<string, unknown> = { ...full };
          delete partial[missing];
          const r = evaluateFormula(ast, partial);
          if (r === undefined) return;
          const values = missing === 'alarm' ? [true, false] : [0, 1.5, 1e6];
          for (const v of values) expect(evaluateFormula(ast, { ...full, [missing]: v })).toBe(r);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws anything but a FormulaError for random text', () => {
    const words = [
      'nh3',
      'alarm',
      'gt',
      'and',
      'or',
      'not',
      'plus',
      'divide',
      '(',
      ')',
      '1.5',
      '-2',
      'te',
      'x',
      ' ',
    ];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 80 }),
          fc.string({ unit: 'binary', maxLength: 60 }),
          fc.array(fc.constantFrom(...words), { maxLength: 30 }).map((w) => w.join(' ')),
        ),
        (text) => {
          try {
            const ast = checkFormula(text);
            expect(typeOf(ast)).toBe('boolean');
            expect(() => evaluateFormula(ast, {})).not.toThrow();
          } catch (e) {
            expect(e).toBeInstanceOf(FormulaError);
            const fe = e as FormulaError;
            expect(fe.pos).toBeGreaterThanOrEqual(0);
            expect(fe.pos).toBeLessThanOrEqual(text.length);
            expect(fe.message).toMatch(/^第 \d+ 个字符：/);
          }
        },
      ),
      { numRuns: 1000 },
    );
  }, 30_000);
});

describe('formula language: examples', () => {
  const fails = (text: string) => {
    const r = tryCheckFormula(text);
    if (r.ok) throw new Error(`expected ${text} to be rejected`);
    return r;
  };

  it('accepts the issue example and prints it canonically', () => {
    expect(normalizeFormula('NH3  GT 1.5 AND NOT alarm')).toBe('nh3 gt 1.5 and not alarm');
    const f = compileFormula('nh3 gt 1.5 and not alarm');
    expect(f.vars).toEqual(['nh3', 'alarm']);
    expect(f.test({ nh3: 2, alarm: 0 })).toBe(true);
    expect(f.test({ nh3: 2, alarm: 1 })).toBe(false);
    expect(f.test({ nh3: 1.5, alarm: false })).toBe(false);
  });

  it('says where and why a formula is wrong', () => {
    expect(fails('nh3 gt 1.5 and nh4 lt 2').message).toBe('第 16 个字符：未知变量 nh4');
    expect(fails('nh3 gt 1.5 and nh4 lt 2')).toMatchObject({ pos: 15, end: 18 });
    expect(fails('(nh3 gt 1 and alarm').message).toBe('第 1 个字符：括号不匹配：缺少右括号');
    expect(fails('nh3 gt 1)').message).toBe('第 9 个字符：括号不匹配：多了一个右括号');
    expect(fails('alarm and nh3').message).toBe('第 11 个字符：and 需要布尔值，得到数值');
    expect(fails('alarm plus 1 gt 0').message).toBe('第 1 个字符：plus 需要数值，得到布尔值');
    expect(fails('not nh3').message).toBe('第 5 个字符：not 需要布尔值，得到数值');
    expect(fails('alarm te 1').reason).toBe('te 两边类型必须相同：左边是布尔值，右边是数值');
    expect(fails('nh3 plus 1').reason).toMatch(/^公式的结果需要布尔值/);
    expect(fails('nh3 > 1').message).toBe('第 5 个字符：无法识别的字符“>”：比较请写作 gt 或 gte');
    expect(fails('nh3 gt').message).toBe('第 7 个字符：公式不完整：结尾缺少数值或变量');
    expect(fails('nh3 gt gt 1').reason).toBe('运算符 gt 前缺少数值或变量');
    expect(fails('nh3 1').reason).toBe('此处需要运算符，得到“1”');
    expect(fails('  ').reason).toBe('公式不能为空');
    expect(fails('alarm or '.repeat(60) + 'alarm').reason).toMatch(/不能超过 500 个字符/);
    expect(fails('('.repeat(45) + 'alarm' + ')'.repeat(45)).reason).toMatch(/嵌套超过/);
  });

  it('reads negative literals only where an operand starts', () => {
    expect(normalizeFormula('co2 minus -5 gt -1')).toBe('co2 minus -5 gt -1');
    expect(fails('co2 -5 gt 1').reason).toBe('无法识别的字符“-”：减法请写作 minus');
  });

  it('makes division by zero not a number: every comparison with it is false', () => {
    const ast = checkFormula('nh3 divide h2s gt 1');
    expect(evaluateFormula(ast, { nh3: 1, h2s: 0 })).toBe(false);
    expect(evaluateFormula(checkFormula('nh3 divide h2s lte 1'), { nh3: 1, h2s: 0 })).toBe(false);
    expect(evaluateFormula(checkFormula('nh3 divide h2s te nh3 divide h2s'), { nh3: 0, h2s: 0 })).toBe(false);
    expect(evaluateFormula(checkFormula('not (nh3 divide 0 gt 1)'), { nh3: 5 })).toBe(true);
  });

  it('treats an unreported variable as unknown: the rule does not fire', () => {
    const f = compileFormula('nh3 gt 1.5 and not alarm');
    expect(f.test({ nh3: 2 })).toBeUndefined();
    expect(f.test({ nh3: 1 })).toBe(false);
    expect(compileFormula('alarm or nh3 gt 1').test({ alarm: 1 })).toBe(true);
    expect(compileFormula('nh3 gt 1').test({ nh3: 'high' })).toBeUndefined();
    expect(compileFormula('nh3 gt 1').test({})).toBeUndefined();
  });

  it('compares numbers for equality within a relative 1e-9', () => {
    expect(compileFormula('0.1 plus 0.2 te 0.3').test({})).toBe(true);
    expect(compileFormula('nh3 te 0.3').test({ nh3: 0.30001 })).toBe(false);
    expect(compileFormula('alarm te smk_alarm').test({ alarm: 1, smk_alarm: true })).toBe(true);
  });

  it('lists the variables a formula reads', () => {
    expect(
      formulaVars(parseFormula('co2 plus pm25 gt voc and (h2s lt 1 or smk_alarm) and co2 gt 1')),
    ).toEqual(['co2', 'pm25', 'voc', 'h2s', 'smk_alarm']);
  });
});
