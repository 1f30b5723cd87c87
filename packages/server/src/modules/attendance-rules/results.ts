import type { Queryable } from '../../db/index.ts';
import { DAY_MS, addDays, computeDay, dayOf, dayStart, type SchemeRule } from './compute.ts';
import * as repo from './repo.ts';

/**
 * Daily results are computed on demand and kept: before a records or summary read, every
 * (employee, day) of the range that has no result yet, or whose result was marked stale (a
 * punch arrived for it, a scheme or the calendar changed), is computed in one pass and
 * written in one statement. Days after today (UTC+8) are never computed; a provisional
 * result (its shift's windows still open at `now`) is computed again once they close.
 */
export async function ensureResults(
  q: Queryable,
  org: number,
  from: string,
  to: string,
  opts: { employees?: number[]; now?: number } = {},
): Promise<number> {
  const now = opts.now ?? Date.now();
  const today = dayOf(now);
  const last = to < today ? to : today;
  if (from > last) return 0;
  // A read for some employees only does not cover the day for everyone.
  const uncovered = await repo.uncoveredDays(q, org, from, last);
  const pending = await repo.pendingDays(q, org, {
    days: uncovered,
    from,
    to: last,
    employees: opts.employees,
    now,
  });
  if (!pending.length) {
    if (!opts.employees) await repo.cover(q, org, uncovered);
    return 0;
  }
  const ids = [...new Set(pending.map((p) => p.employee_id))];
  const [employees, departments, schemes] = await Promise.all([
    repo.employeesRules(q, org, ids),
    repo.departmentsRules(q, org),
    repo.schemeRules(q, org),
  ]);
  const days = pending.map((p) => p.day).sort();
  const first = days[0]!;
  const end = days[days.length - 1]!;
  const calendar = await repo.calendarMap(q, org, first, end);
  // Punches from the first day's 00:00 to two days after the last (a shift past midnight).
  const punches = await repo.punchesOf(q, ids, dayStart(first), dayStart(end) + 2 * DAY_MS);
  const byEmployee = new Map<number, { id: number; at: number }[]>();
  for (const p of punches) {
    const l = byEmployee.get(p.employee_id) ?? [];
    l.push(p);
    byEmployee.set(p.employee_id, l);
  }
  const schemeOf = schemeResolver(departments, schemes);
  const emp = new Map(employees.map((e) => [e.id, e]));
  const rows: repo.ComputedRow[] = [];
  for (const p of pending) {
    const e = emp.get(p.employee_id);
    if (!e) continue;
    const rule = schemeOf(e);
    const own = byEmployee.get(e.id) ?? [];
    const t0 = dayStart(p.day);
    const near = own.filter((x) => x.at >= t0 && x.at < t0 + 2 * DAY_MS);
    rows.push({
      employee_id: e.id,
      day: p.day,
      department_id: e.department_id,
      scheme_id: rule?.id ?? null,
      result: computeDay(p.day, rule, calendar, near, now),
    });
  }
  await repo.upsertResults(q, org, rows);
  if (!opts.employees) await repo.cover(q, org, uncovered);
  return rows.length;
}

/** The scheme of an employee: their own, else the nearest department up the tree with one. */
export function schemeResolver(
  departments: { id: number; parent_id: number | null; scheme_id: number | null }[],
  schemes: SchemeRule[],
) {
  const byId = new Map(schemes.map((s) => [s.id, s]));
  const dep = new Map(departments.map((d) => [d.id, d]));
  const memo = new Map<number, SchemeRule | null>();
  const ofDepartment = (id: number): SchemeRule | null => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    let found: SchemeRule | null = null;
    const seen = new Set<number>();
    for (let d = dep.get(id); d && !seen.has(d.id); d = d.parent_id ? dep.get(d.parent_id) : undefined) {
      seen.add(d.id);
      const s = d.scheme_id ? byId.get(d.scheme_id) : undefined;
      if (s) {
        found = s;
        break;
      }
    }
    memo.set(id, found);
    return found;
  };
  return (e: { department_id: number; scheme_id: number | null }) =>
    (e.scheme_id ? byId.get(e.scheme_id) : undefined) ?? ofDepartment(e.department_id);
}

/** The range a month covers: its first and last day. */
export function monthRange(month: string): { start: string; end: string } {
  const start = `${month}-01`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return { start, end: addDays(next, -1) };
}
