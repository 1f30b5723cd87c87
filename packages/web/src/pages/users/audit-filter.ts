import type { Dayjs } from 'dayjs';
import type { AuditFilter } from '../../api/users.ts';

/** SPEC §5 date-time form; the server reads it as UTC+8. */
export const SERVER_TIME = 'YYYY-MM-DD HH:mm:ss';

export type Range = [Dayjs | null, Dayjs | null] | null;

/** The audit tab's filter inputs as typed (ids as digit strings, empty when blank). */
export interface AuditFilters {
  targetId: string;
  actorId: string;
  range: Range;
}

export const NO_AUDIT_FILTERS: AuditFilters = { targetId: '', actorId: '', range: null };

/** The query a set of filters stands for; blank inputs are left out rather than sent empty. */
export function auditQuery(f: AuditFilters): Omit<AuditFilter, 'page' | 'page_size'> {
  const [start, end] = f.range ?? [null, null];
  return {
    target_user_id: f.targetId ? Number(f.targetId) : undefined,
    actor_id: f.actorId ? Number(f.actorId) : undefined,
    start: start ? start.format(SERVER_TIME) : undefined,
    end: end ? end.format(SERVER_TIME) : undefined,
  };
}
