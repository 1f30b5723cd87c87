/**
 * The rule-formula language of SPEC §3: variables co2, pm25, voc, nh3, h2s (numbers) and
 * alarm, smk_alarm (booleans), a review's star_level (number) and its four flags badattitude,
 * inefficiency, poorsanitary, smelly (booleans; SPEC §3 Comment); operators plus, minus,
 * multiply, divide, gt, gte, lt, lte, te, and, or, not; parentheses, number literals and true/false.
 *
 * Precedence, tightest first: not; multiply divide; plus minus; gt gte lt lte te; and; or.
 * Binary operators associate to the left. Keywords and variables are case-insensitive and
 * printed in lower case.
 *
 * Evaluation (what a rule sees):
 * - A variable the device has not reported is unknown. Unknown propagates through arithmetic
 *   and comparisons; `and`/`or` follow three-valued logic (false and unknown = false, true or
 *   unknown = true); `not unknown` is unknown. A rule whose formula ends unknown does not fire.
 * - Arithmetic that leaves the finite numbers (division by zero, overflow) gives NaN, "not a
 *   number"; every comparison with NaN is false (so `not (x divide 0 gt 1)` is true).
 * - `te` on numbers is equality within a relative 1e-9 (0.1 plus 0.2 te 0.3 is true).
 */
import { COMMENT_FLAGS } from './api/comments.ts';

export const FORMULA_NUMBER_VARS = ['co2', 'pm25', 'voc', 'nh3', 'h2s', 'star_level'] as const;
/** The four flags a review may tick (SPEC §3 Comment; COMMENT_FLAGS has their labels). */
export const REVIEW_FLAGS = ['badattitude', 'inefficiency', 'poorsanitary', 'smelly'] as const;
export const FORMULA_BOOL_VARS = ['alarm', 'smk_alarm', ...REVIEW_FLAGS] as const;
export const FORMULA_VARS = [...FORMULA_NUMBER_VARS, ...FORMULA_BOOL_VARS] as const;
export type FormulaVar = (typeof FORMULA_VARS)[number];

/** Chinese labels of the variables, for the builder and for showing values. */
export const FORMULA_VAR_LABELS: Record<FormulaVar, string> = {
  co2: '二氧化碳 CO2',
  pm25: 'PM2.5',
  voc: 'VOC',
  nh3: '氨气 NH3',
  h2s: '硫化氢 H2S',
  alarm: '求助报警',
  smk_alarm: '烟雾报警',
  star_level: '评价星级',
  badattitude: `评价：${COMMENT_FLAGS.badattitude}`,
  inefficiency: `评价：${COMMENT_FLAGS.inefficiency}`,
  poorsanitary: `评价：${COMMENT_FLAGS.poorsanitary}`,
  smelly: `评价：${COMMENT_FLAGS.smelly}`,
};

export const ARITH_OPS = ['plus', 'minus', 'multiply', 'divide'] as const;
export const COMPARE_OPS = ['gt', 'gte', 'lt', 'lte', 'te'] as const;
export const LOGIC_OPS = ['and', 'or'] as const;
export type ArithOp = (typeof ARITH_OPS)[number];
export type CompareOp = (typeof COMPARE_OPS)[number];
export type LogicOp = (typeof LOGIC_OPS)[number];
export type BinaryOp = ArithOp | CompareOp | LogicOp;

export const FORMULA_OP_LABELS: Record<BinaryOp | 'not', string> = {
  plus: '加',
  minus: '减',
  multiply: '乘',
  divide: '除',
  gt: '大于',
  gte: '大于等于',
  lt: '小于',
  lte: '小于等于',
  te: '等于',
  and: '且',
  or: '或',
  not: '非',
};

/** Longest formula text accepted. */
export const FORMULA_MAX_LENGTH = 500;
/** Deepest nesting accepted (parentheses and `not` chains). */
export const FORMULA_MAX_DEPTH = 40;

export type FormulaType = 'number' | 'boolean';

export type FormulaNode =
  | { type: 'num'; value: number; pos: number; end: number }
  | { type: 'bool'; value: boolean; pos: number; end: number }
  | { type: 'var'; name: FormulaVar; pos: number; end: number }
  | { type: 'not'; arg: FormulaNode; pos: number; end: number }
  | { type: 'bin'; op: BinaryOp; left: FormulaNode; right: FormulaNode; pos: number; end: number };

/** A rejected formula: where (0-based `pos` to `end`) and why, in Chinese. */
export class FormulaError extends Error {
  constructor(
    readonly reason: string,
    readonly pos: number,
    readonly end: number = pos + 1,
  ) {
    super(`第 ${pos + 1} 个字符：${reason}`);
    this.name = 'FormulaError';
  }
}

const PRECEDENCE: Record<BinaryOp, number> = {
  or: 1,
  and: 2,
  gt: 3,
  gte: 3,
  lt: 3,
  lte: 3,
  te: 3,
  plus: 4,
  minus: 4,
  multiply: 5,
  divide: 5,
};
const NOT_PRECEDENCE = 6;

const KEYWORDS = new Set<string>([...ARITH_OPS, ...COMPARE_OPS, ...LOGIC_OPS, 'not', 'true', 'false']);
const VARS = new Set<string>(FORMULA_VARS);

type Token =
  | { kind: 'num'; value: number; text: string; pos: number; end: number }
  | { kind: 'word'; text: string; pos: number; end: number }
  | { kind: '(' | ')'; text: string; pos: number; end: number }
  | { kind: 'eof'; text: string; pos: number; end: number };

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const WORD = /^[A-Za-z_][A-Za-z0-9_.]*/;

/** Symbols people type out of habit, and the word the language uses instead. */
const SYMBOL_HINTS: Record<string, string> = {
  '-': '减法请写作 minus',
  '+': '加法请写作 plus',
  '*': '乘法请写作 multiply',
  '/': '除法请写作 divide',
  '>': '比较请写作 gt 或 gte',
  '<': '比较请写作 lt 或 lte',
  '=': '相等请写作 te',
  '&': '并且请写作 and',
  '|': '或者请写作 or',
  '!': '取反请写作 not',
};

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      out.push({ kind: c, text: c, pos: i, end: i + 1 });
      i++;
      continue;
    }
    const rest = src.slice(i);
    const n = NUMBER.exec(rest);
    // A minus sign is part of a literal only where an operand may start (after an operator or
    // '(' or at the start); `minus` is the subtraction operator.
    if (n && (c !== '-' || out.length === 0 || !endsOperand(out[out.length - 1]!))) {
      const text = n[0];
      const value = Number(text);
      if (!Number.isFinite(value)) throw new FormulaError(`数值 ${text} 超出范围`, i, i + text.length);
      out.push({ kind: 'num', value: value === 0 ? 0 : value, text, pos: i, end: i + text.length });
      i += text.length;
      continue;
    }
    const w = WORD.exec(rest);
    if (w) {
      out.push({ kind: 'word', text: w[0].toLowerCase(), pos: i, end: i + w[0].length });
      i += w[0].length;
      continue;
    }
    const hint = SYMBOL_HINTS[c];
    if (hint) throw new FormulaError(`无法识别的字符“${c}”：${hint}`, i, i + 1);
    const ch = String.fromCodePoint(src.codePointAt(i)!);
    throw new FormulaError(`无法识别的字符“${ch}”`, i, i + ch.length);
  }
  out.push({ kind: 'eof', text: '', pos: src.length, end: src.length });
  return out;
}

function endsOperand(t: Token) {
  if (t.kind === 'num' || t.kind === ')') return true;
  return t.kind === 'word' && (!KEYWORDS.has(t.text) || t.text === 'true' || t.text === 'false');
}

const describe = (t: Token) => (t.kind === 'eof' ? '公式结尾' : `“${t.text}”`);

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private toks: Token[]) {}

  private peek() {
    return this.toks[this.i]!;
  }
  private next() {
    return this.toks[this.i++]!;
  }
  private binaryOp(levels: readonly BinaryOp[]): BinaryOp | null {
    const t = this.peek();
    return t.kind === 'word' && (levels as readonly string[]).includes(t.text) ? (t.text as BinaryOp) : null;
  }

  parse(): FormulaNode {
    const node = this.level(1);
    const t = this.peek();
    if (t.kind === ')') throw new FormulaError('括号不匹配：多了一个右括号', t.pos, t.end);
    if (t.kind !== 'eof') {
      const hint =
        t.kind === 'word' && !KEYWORDS.has(t.text) && !VARS.has(t.text)
          ? `未知变量 ${t.text}`
          : `此处需要运算符，得到${describe(t)}`;
      throw new FormulaError(hint, t.pos, t.end);
    }
    return node;
  }

  private static LEVELS: Record<number, readonly BinaryOp[]> = {
    1: ['or'],
    2: ['and'],
    3: COMPARE_OPS,
    4: ['plus', 'minus'],
    5: ['multiply', 'divide'],
  };

  private level(p: number): FormulaNode {
    if (p === NOT_PRECEDENCE) return this.unary();
    let left = this.level(p + 1);
    for (let op = this.binaryOp(Parser.LEVELS[p]!); op; op = this.binaryOp(Parser.LEVELS[p]!)) {
      this.next();
      const right = this.level(p + 1);
      left = { type: 'bin', op, left, right, pos: left.pos, end: right.end };
    }
    return left;
  }

  private enter(t: Token) {
    if (++this.depth > FORMULA_MAX_DEPTH)
      throw new FormulaError(`嵌套超过 ${FORMULA_MAX_DEPTH} 层`, t.pos, t.end);
  }

  private unary(): FormulaNode {
    const t = this.peek();
    if (t.kind === 'word' && t.text === 'not') {
      this.next();
      this.enter(t);
      const arg = this.unary();
      this.depth--;
      return { type: 'not', arg, pos: t.pos, end: arg.end };
    }
    return this.primary();
  }

  private primary(): FormulaNode {
    const t = this.next();
    switch (t.kind) {
      case 'num':
        return { type: 'num', value: t.value, pos: t.pos, end: t.end };
      case '(': {
        this.enter(t);
        const inner = this.level(1);
        this.depth--;
        const close = this.peek();
        if (close.kind !== ')') {
          if (close.kind === 'eof') throw new FormulaError('括号不匹配：缺少右括号', t.pos, t.end);
          throw new FormulaError(`此处需要运算符或右括号，得到${describe(close)}`, close.pos, close.end);
        }
        this.next();
        return { ...inner, pos: t.pos, end: close.end } as FormulaNode;
      }
      case ')':
        throw new FormulaError('括号不匹配：右括号前缺少内容', t.pos, t.end);
      case 'eof':
        throw new FormulaError('公式不完整：结尾缺少数值或变量', t.pos, t.end);
      case 'word':
        if (t.text === 'true' || t.text === 'false')
          return { type: 'bool', value: t.text === 'true', pos: t.pos, end: t.end };
        if (VARS.has(t.text)) return { type: 'var', name: t.text as FormulaVar, pos: t.pos, end: t.end };
        if (KEYWORDS.has(t.text)) throw new FormulaError(`运算符 ${t.text} 前缺少数值或变量`, t.pos, t.end);
        throw new FormulaError(`未知变量 ${t.text}`, t.pos, t.end);
    }
  }
}

/** Parses formula text into an AST; throws FormulaError (position + reason). */
export function parseFormula(src: string): FormulaNode {
  if (typeof src !== 'string' || src.trim() === '') throw new FormulaError('公式不能为空', 0, 0);
  if (src.length > FORMULA_MAX_LENGTH)
    throw new FormulaError(`公式不能超过 ${FORMULA_MAX_LENGTH} 个字符`, FORMULA_MAX_LENGTH, src.length);
  return new Parser(tokenize(src)).parse();
}

const TYPE_LABEL: Record<FormulaType, string> = { number: '数值', boolean: '布尔值' };

function want(node: FormulaNode, want: FormulaType, context: string): void {
  const got = typeOf(node);
  if (got !== want)
    throw new FormulaError(`${context}需要${TYPE_LABEL[want]}，得到${TYPE_LABEL[got]}`, node.pos, node.end);
}

/** The type of an expression; throws FormulaError where numbers and booleans are mixed. */
export function typeOf(node: FormulaNode): FormulaType {
  switch (node.type) {
    case 'num':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'var':
      return (FORMULA_BOOL_VARS as readonly string[]).includes(node.name) ? 'boolean' : 'number';
    case 'not':
      want(node.arg, 'boolean', 'not ');
      return 'boolean';
    case 'bin': {
      const op = node.op;
      if ((ARITH_OPS as readonly string[]).includes(op)) {
        want(node.left, 'number', `${op} `);
        want(node.right, 'number', `${op} `);
        return 'number';
      }
      if ((LOGIC_OPS as readonly string[]).includes(op)) {
        want(node.left, 'boolean', `${op} `);
        want(node.right, 'boolean', `${op} `);
        return 'boolean';
      }
      if (op === 'te') {
        const l = typeOf(node.left);
        const r = typeOf(node.right);
        if (l !== r)
          throw new FormulaError(
            `te 两边类型必须相同：左边是${TYPE_LABEL[l]}，右边是${TYPE_LABEL[r]}`,
            node.right.pos,
            node.right.end,
          );
        return 'boolean';
      }
      want(node.left, 'number', `${op} `);
      want(node.right, 'number', `${op} `);
      return 'boolean';
    }
  }
}

/** Parses and type-checks a rule formula: its result must be true/false. */
export function checkFormula(src: string): FormulaNode {
  const ast = parseFormula(src);
  if (typeOf(ast) !== 'boolean')
    throw new FormulaError(
      '公式的结果需要布尔值（真/假），得到数值：请加上 gt、lt、te 等比较',
      ast.pos,
      ast.end,
    );
  return ast;
}

/** The variables a formula reads, in first-use order. */
export function formulaVars(node: FormulaNode): FormulaVar[] {
  const out = new Set<FormulaVar>();
  const walk = (n: FormulaNode) => {
    if (n.type === 'var') out.add(n.name);
    else if (n.type === 'not') walk(n.arg);
    else if (n.type === 'bin') {
      walk(n.left);
      walk(n.right);
    }
  };
  walk(node);
  return [...out];
}

const precOf = (n: FormulaNode) =>
  n.type === 'bin' ? PRECEDENCE[n.op] : n.type === 'not' ? NOT_PRECEDENCE : Infinity;

/** Prints an AST as canonical text: lower case, single spaces, only the parentheses needed. */
export function printFormula(node: FormulaNode): string {
  switch (node.type) {
    case 'num':
      return String(node.value);
    case 'bool':
      return String(node.value);
    case 'var':
      return node.name;
    case 'not': {
      const a = printFormula(node.arg);
      return `not ${precOf(node.arg) < NOT_PRECEDENCE ? `(${a})` : a}`;
    }
    case 'bin': {
      const p = PRECEDENCE[node.op];
      const l = printFormula(node.left);
      const r = printFormula(node.right);
      // Left-associative: a right operand of the same level needs its parentheses.
      const left = precOf(node.left) < p ? `(${l})` : l;
      const right = precOf(node.right) <= p ? `(${r})` : r;
      return `${left} ${node.op} ${right}`;
    }
  }
}

/** Re-prints formula text canonically (throws FormulaError if it does not parse). */
export function normalizeFormula(src: string): string {
  return printFormula(parseFormula(src));
}

/** What a formula reads: numbers for the gases, booleans (or 0/1) for the alarm flags. */
export type FormulaReadings = Partial<Record<string, unknown>>;
/** A value of an expression; undefined = unknown (a variable was not reported). */
export type FormulaValue = number | boolean | undefined;

/**
 * Readings as the formula sees them: gas fields and star levels as finite numbers, alarm and
 * review flags as booleans. A review (a report with a star level) is whole: a flag it does
 * not carry is not ticked, rather than left over from the review before.
 */
export function formulaInputs(data: FormulaReadings): Partial<Record<FormulaVar, number | boolean>> {
  const out: Partial<Record<FormulaVar, number | boolean>> = {};
  if (typeof data.star_level === 'number') for (const k of REVIEW_FLAGS) out[k] = false;
  for (const k of FORMULA_NUMBER_VARS) {
    const v = data[k];
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  for (const k of FORMULA_BOOL_VARS) {
    const v = data[k];
    if (typeof v === 'boolean') out[k] = v;
    else if (v === 0 || v === 1) out[k] = v === 1;
  }
  return out;
}

const finite = (n: number) => (Number.isFinite(n) ? n : NaN);

/** Numbers equal within a relative 1e-9; NaN equals nothing. */
export function numbersEqual(a: number, b: number) {
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Evaluates a type-checked AST (see the file comment for unknowns and NaN). Never throws
 * for any readings.
 */
export function evaluateFormula(node: FormulaNode, readings: FormulaReadings): FormulaValue {
  const inputs = formulaInputs(readings);
  const ev = (n: FormulaNode): FormulaValue => {
    switch (n.type) {
      case 'num':
      case 'bool':
        return n.value;
      case 'var':
        return inputs[n.name];
      case 'not': {
        const a = ev(n.arg);
        return a === undefined ? undefined : !a;
      }
      case 'bin': {
        if (n.op === 'and' || n.op === 'or') {
          const l = ev(n.left) as boolean | undefined;
          const r = ev(n.right) as boolean | undefined;
          if (n.op === 'and')
            return l === false || r === false ? false : l === undefined || r === undefined ? undefined : true;
          return l === true || r === true ? true : l === undefined || r === undefined ? undefined : false;
        }
        const l = ev(n.left);
        const r = ev(n.right);
        if (l === undefined || r === undefined) return undefined;
        if (typeof l === 'boolean' || typeof r === 'boolean') return n.op === 'te' ? l === r : undefined;
        switch (n.op) {
          case 'plus':
            return finite(l + r);
          case 'minus':
            return finite(l - r);
          case 'multiply':
            return finite(l * r);
          case 'divide':
            return finite(l / r);
          case 'gt':
            return l > r;
          case 'gte':
            return l >= r;
          case 'lt':
            return l < r;
          case 'lte':
            return l <= r;
          case 'te':
            return numbersEqual(l, r);
        }
      }
    }
  };
  return ev(node);
}

/** A compiled rule formula: true (fire), false, or undefined (a variable is unknown). */
export interface CompiledFormula {
  text: string;
  vars: FormulaVar[];
  test(readings: FormulaReadings): boolean | undefined;
}

/** Checks and compiles a rule formula once, for evaluation against many reports. */
export function compileFormula(src: string): CompiledFormula {
  const ast = checkFormula(src);
  return {
    text: printFormula(ast),
    vars: formulaVars(ast),
    test: (readings) => evaluateFormula(ast, readings) as boolean | undefined,
  };
}

/** The result of checking formula text, as the API and the editor show it. */
export type FormulaCheck =
  | { ok: true; formula: string; vars: FormulaVar[] }
  | { ok: false; pos: number; end: number; reason: string; message: string };

/** Checks formula text without throwing: canonical text, or where and why it is wrong. */
export function tryCheckFormula(src: string): FormulaCheck {
  try {
    const ast = checkFormula(src);
    return { ok: true, formula: printFormula(ast), vars: formulaVars(ast) };
  } catch (e) {
    if (e instanceof FormulaError)
      return { ok: false, pos: e.pos, end: e.end, reason: e.reason, message: e.message };
    throw e;
  }
}
