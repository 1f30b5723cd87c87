import {
  COMPARE_OPS,
  FORMULA_BOOL_VARS,
  FORMULA_NUMBER_VARS,
  parseFormula,
  printFormula,
  type CompareOp,
  type FormulaNode,
  type FormulaVar,
} from '@se/core';

/**
 * The visual builder's model: rows of "variable operator value", each optionally negated
 * (非), joined to the row before by 且 (and) or 或 (or). `and` binds tighter than `or`, as in
 * the text: a 且 b 或 c means (a and b) or c. The builder writes canonical formula text and
 * reads back any text of that shape.
 */
export interface BuilderRow {
  /** How this row joins the one before it (ignored on the first row). */
  join: 'and' | 'or';
  not: boolean;
  variable: FormulaVar;
  /** Number variables: a comparison. Boolean variables: always 'te' (and `not` folded into `value`). */
  op: CompareOp;
  /** Number variables: the number as typed. Boolean variables: 'true' or 'false'. */
  value: string;
}

const BOOL = new Set<string>(FORMULA_BOOL_VARS);
export const isBoolVar = (v: FormulaVar) => BOOL.has(v);

export const emptyRow = (join: 'and' | 'or' = 'and'): BuilderRow => ({
  join,
  not: false,
  variable: 'nh3',
  op: 'gt',
  value: '',
});

const at = { pos: 0, end: 0 };

/** Why a row cannot become text yet (an empty or non-numeric value), or null. */
export function rowError(row: BuilderRow): string | null {
  if (isBoolVar(row.variable)) return null;
  const t = row.value.trim();
  if (t === '') return '请输入数值';
  if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t) || !Number.isFinite(Number(t)))
    return '数值格式不正确';
  return null;
}

function rowNode(row: BuilderRow): FormulaNode {
  const v: FormulaNode = { type: 'var', name: row.variable, ...at };
  // A flag row is "alarm" or "not alarm": 非 on it just flips the value.
  if (isBoolVar(row.variable))
    return (row.value === 'false') !== row.not ? { type: 'not', arg: v, ...at } : v;
  const n = Number(row.value.trim());
  const node: FormulaNode = {
    type: 'bin',
    op: row.op,
    left: v,
    right: { type: 'num', value: n === 0 ? 0 : n, ...at },
    ...at,
  };
  return row.not ? { type: 'not', arg: node, ...at } : node;
}

/** Canonical formula text of the rows; null while a row is incomplete or there are none. */
export function rowsToText(rows: BuilderRow[]): string | null {
  if (!rows.length || rows.some((r) => rowError(r))) return null;
  // Or-groups of and-chains, each chain left-associative like the parser builds it.
  let result: FormulaNode | null = null;
  let group: FormulaNode | null = null;
  rows.forEach((row, i) => {
    const node = rowNode(row);
    if (i > 0 && row.join === 'or') {
      result = result ? { type: 'bin', op: 'or', left: result, right: group!, ...at } : group;
      group = node;
    } else group = group ? { type: 'bin', op: 'and', left: group, right: node, ...at } : node;
  });
  const tree: FormulaNode = result ? { type: 'bin', op: 'or', left: result, right: group!, ...at } : group!;
  return printFormula(tree);
}

function chain(node: FormulaNode, op: 'and' | 'or'): FormulaNode[] {
  if (node.type === 'bin' && node.op === op) return [...chain(node.left, op), node.right];
  return [node];
}

function nodeRow(node: FormulaNode, join: 'and' | 'or'): BuilderRow | null {
  if (node.type === 'var' && BOOL.has(node.name))
    return { join, not: false, variable: node.name, op: 'te', value: 'true' };
  if (node.type === 'not' && node.arg.type === 'var' && BOOL.has(node.arg.name))
    return { join, not: false, variable: node.arg.name, op: 'te', value: 'false' };
  let not = false;
  let n = node;
  if (n.type === 'not') {
    not = true;
    n = n.arg;
  }
  if (
    n.type === 'bin' &&
    (COMPARE_OPS as readonly string[]).includes(n.op) &&
    n.left.type === 'var' &&
    (FORMULA_NUMBER_VARS as readonly string[]).includes(n.left.name) &&
    n.right.type === 'num'
  )
    return { join, not, variable: n.left.name, op: n.op as CompareOp, value: String(n.right.value) };
  return null;
}

/**
 * Builder rows for formula text, or null when the text does not parse or has a shape the
 * builder cannot show (arithmetic, a right-nested group…): then only the text editor edits it.
 */
export function textToRows(text: string): BuilderRow[] | null {
  let ast: FormulaNode;
  try {
    ast = parseFormula(text);
  } catch {
    return null;
  }
  const rows: BuilderRow[] = [];
  const groups = chain(ast, 'or');
  for (const [gi, g] of groups.entries()) {
    for (const [ci, c] of chain(g, 'and').entries()) {
      const row = nodeRow(c, ci === 0 && gi > 0 ? 'or' : 'and');
      if (!row) return null;
      rows.push(row);
    }
  }
  return rows;
}
