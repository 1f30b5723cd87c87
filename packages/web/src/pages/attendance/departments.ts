import type { DepartmentRow } from '@se/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { listDepartments } from '../../api/attendance.ts';
import { loadOrThrow } from '../../components/feedback.ts';

export const DEPARTMENTS_KEY = ['attendance', 'departments'] as const;

/** The organisation's whole department tree (one call), shared by every attendance tab. */
export function useDepartments() {
  return useQuery({ queryKey: DEPARTMENTS_KEY, queryFn: () => loadOrThrow(listDepartments) });
}

export function useRefreshDepartments() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: ['attendance'] });
}

export interface DepartmentNode {
  key: number;
  value: number;
  title: string;
  row: DepartmentRow;
  children: DepartmentNode[];
}

/** Nests the flat rows by parent_id (siblings by sort, then id, as the server orders them). */
export function nest(rows: readonly DepartmentRow[]): DepartmentNode[] {
  const nodes = new Map<number, DepartmentNode>();
  for (const r of rows) nodes.set(r.id, { key: r.id, value: r.id, title: r.name, row: r, children: [] });
  const roots: DepartmentNode[] = [];
  for (const r of rows) {
    const n = nodes.get(r.id)!;
    const parent = r.parent_id === null ? undefined : nodes.get(r.parent_id);
    (parent ? parent.children : roots).push(n);
  }
  return roots;
}

/** The ids of a department and everything below it (where it may not move). */
export const subtreeIds = (rows: readonly DepartmentRow[], id: number): Set<number> => {
  const self = rows.find((r) => r.id === id);
  if (!self) return new Set();
  return new Set(rows.filter((r) => r.path.startsWith(self.path)).map((r) => r.id));
};

/** '运营部 / 保洁组': a department's names from below the root. */
export function pathName(rows: readonly DepartmentRow[], id: number): string {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const self = byId.get(id);
  if (!self) return '';
  return self.path
    .split('/')
    .filter(Boolean)
    .map((p) => byId.get(Number(p))?.name ?? '')
    .join(' / ');
}
