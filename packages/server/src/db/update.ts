import type { Queryable } from './index.ts';

/** A table whose rows services patch: which columns a patch may set and how. */
export interface Patchable<C extends string> {
  table: string;
  /** The columns a patch may set; other keys of a patch are ignored. */
  columns: readonly C[];
  /** The column that names the row (`id`). */
  key?: string;
  /** Set to now() by every write (`updated_at`); null for none. */
  touch?: string | null;
  /** SQL for a column's new value given its placeholder (a cast, a value computed in SQL). */
  expr?: Partial<Record<C, (param: string) => string>>;
}

/**
 * The one dynamic UPDATE: sets the columns of `v` that are defined (undefined = not
 * changing) on the row whose key is `id`, and the touch column. No statement when `v` sets
 * nothing, unless `touchAlone` asks for the touch column to be written anyway. Answers the
 * number of rows written.
 */
export async function updateRow<C extends string>(
  q: Queryable,
  t: Patchable<C>,
  id: unknown,
  v: Partial<Record<C, unknown>>,
  touchAlone = false,
): Promise<number> {
  const cols = t.columns.filter((c) => v[c] !== undefined);
  if (cols.length === 0 && !touchAlone) return 0;
  const set = cols.map((c, i) => `"${c}" = ${t.expr?.[c]?.(`$${i + 2}`) ?? `$${i + 2}`}`);
  const touch = t.touch === undefined ? 'updated_at' : t.touch;
  if (touch) set.push(`${touch} = now()`);
  if (set.length === 0) return 0;
  const rows = await q.query(
    `UPDATE ${t.table} SET ${set.join(', ')} WHERE ${t.key ?? 'id'} = $1 RETURNING 1 AS n`,
    [id, ...cols.map((c) => v[c])],
  );
  return rows.length;
}

/** The one plain INSERT: a row with `v`'s columns and values; answers its id. */
export async function insertRow(q: Queryable, table: string, v: Record<string, unknown>): Promise<number> {
  const cols = Object.keys(v);
  const rows = await q.query<{ id: number }>(
    `INSERT INTO ${table} (${cols.map((c) => `"${c}"`).join(', ')})
     VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    cols.map((c) => v[c]),
  );
  return rows[0]!.id;
}
