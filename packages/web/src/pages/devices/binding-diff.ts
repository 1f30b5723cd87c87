/**
 * The binding dialog's bookkeeping. Each row arrives with is_bind; ticking changes only
 * the wanted state. Saving sends what differs from the server's state as one call with
 * add_ids and remove_ids together (SPEC §4), so a row ticked and unticked again sends
 * nothing, and rows on pages never opened are left alone.
 */

/** Wanted states of the rows the user touched, by id. */
export type Picks = ReadonlyMap<number, boolean>;

export interface BindingDiff {
  add_ids: number[];
  remove_ids: number[];
}

/** The picks after ticking (checked) or unticking a row whose server state is `bound`. */
export function pick(picks: Picks, id: number, bound: boolean, checked: boolean): Picks {
  const next = new Map(picks);
  // Back to what the server has: nothing to send for this row.
  if (checked === bound) next.delete(id);
  else next.set(id, checked);
  return next;
}

/** The picks after a page's ticks became `keys` (a table selection's change). */
export const pickPage = (
  picks: Picks,
  rows: { id: number; is_bind: boolean }[],
  keys: readonly unknown[],
): Picks => rows.reduce((acc, row) => pick(acc, row.id, row.is_bind, keys.includes(row.id)), picks);

/** Whether a row shows ticked: the user's pick, else the server's state. */
export const isPicked = (picks: Picks, row: { id: number; is_bind: boolean }): boolean =>
  picks.get(row.id) ?? row.is_bind;

/** What one save sends. */
export function bindingDiff(picks: Picks): BindingDiff {
  const add_ids: number[] = [];
  const remove_ids: number[] = [];
  for (const [id, wanted] of picks) (wanted ? add_ids : remove_ids).push(id);
  const asc = (a: number, b: number) => a - b;
  return { add_ids: add_ids.sort(asc), remove_ids: remove_ids.sort(asc) };
}

export const changeCount = (picks: Picks): number => picks.size;
