import { closePatrolAlarms, insertPunches } from '../../modules/attendance/repo.ts';
import type { IngestHandler, IngestOut, StoredReport } from '../handler.ts';
import type { Queryable } from '../../db/index.ts';

/**
 * Clock-in terminals (issue 16): each report is one punch, stored in att_punches in the
 * batch's transaction (so the PUBACK follows the commit). A punch nobody's number, card or
 * face id matches is kept with employee_id NULL for an admin to resolve. A punch at a
 * terminal placed in a toilet is that toilet's patrol: it closes an open patrol alarm.
 */
export const attendancePunches: IngestHandler = {
  name: 'attendance-punches',
  kinds: ['attendance'],
  store: storePunches,
};

/** A punch time given in seconds or milliseconds (below 1e12: seconds), else the message's. */
const punchTime = (s: StoredReport) => {
  const v = s.data.punched_at;
  if (typeof v !== 'number') return s.ts;
  return v < 1e12 ? v * 1000 : v;
};

async function storePunches(tx: Queryable, stored: StoredReport[], out: IngestOut) {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const rows = await insertPunches(tx, {
    deviceIds: stored.map((s) => s.device_id),
    employeeNos: stored.map((s) => str(s.data.employee_no)),
    badges: stored.map((s) => str(s.data.badge)),
    methods: stored.map((s) => str(s.data.method) || 'card'),
    punchedAt: stored.map((s) => new Date(punchTime(s)).toISOString()),
    photos: stored.map((s) => str(s.data.photo) || null),
  });
  const toilets = [...new Set(rows.map((r) => r.toilet_id).filter((t): t is number => t !== null))];
  if (toilets.length) {
    const closed = await closePatrolAlarms(tx, toilets);
    out.alarmIds.push(...closed.map((r) => r.id));
  }
}
