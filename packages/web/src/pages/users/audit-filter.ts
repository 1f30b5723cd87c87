import type { AuditFilter } from '../../api/users.ts';
import { rangeQuery, type Range } from '../../components/list/index.ts';

/** The audit tab's filter inputs as typed (ids as digit strings, empty when blank). */
export interface AuditFilters {
  targetId: string;
  actorId: string;
  range: Range;
}

export const NO_AUDIT_FILTERS: AuditFilters = { targetId: '', actorId: '', range: null };

/** The query a set of filters stands for; blank inputs are left out rather than sent empty. */
export function auditQuery(f: AuditFilters): Omit<AuditFilter, 'page' | 'page_size'> {
  return {
    target_user_id: f.targetId ? Number(f.targetId) : undefined,
    actor_id: f.actorId ? Number(f.actorId) : undefined,
    ...rangeQuery(f.range),
  };
}
