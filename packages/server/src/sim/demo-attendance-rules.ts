// The demo's attendance rules (issue 16 part B): shift schemes for the demo organisation
// (demo-attendance.ts makes it, its staff and a month of punches through the ingest
// pipeline). The office day shift is given to the root department, so every department
// inherits it and /ci-record shows a month of results; a night shift and a split shift are
// there to look at and assign. Idempotent: a scheme that exists is left alone.
import {
  ATTENDANCE_API,
  ATTENDANCE_RULES_API,
  type DepartmentRow,
  type Page,
  type SchemeRow,
} from '@se/core';
import type { ConsoleApi } from './fleet.ts';

const SCHEMES: {
  name: string;
  segments: { start: string; end: string }[];
  workdays: number[];
  root: boolean;
}[] = [
  { name: '标准白班', segments: [{ start: '09:00', end: '18:00' }], workdays: [1, 2, 3, 4, 5], root: true },
  {
    name: '保洁两头班',
    segments: [
      { start: '06:30', end: '11:00' },
      { start: '14:00', end: '18:30' },
    ],
    workdays: [1, 2, 3, 4, 5, 6],
    root: false,
  },
  {
    name: '夜班',
    segments: [{ start: '22:00', end: '06:00' }],
    workdays: [1, 2, 3, 4, 5, 6, 7],
    root: false,
  },
];

/** `api`: signed in as the organisation's attendance account. */
export async function demoAttendanceRules(api: ConsoleApi) {
  const have = await api.call<Page<SchemeRow>>('GET', ATTENDANCE_RULES_API.schemes, { page_size: 100 });
  const root = (await api.call<DepartmentRow[]>('GET', ATTENDANCE_API.departments)).find(
    (d) => d.parent_id === null,
  );
  for (const s of SCHEMES) {
    if (have.list.some((x) => x.name === s.name)) continue;
    const row = await api.call<SchemeRow>('POST', ATTENDANCE_RULES_API.addScheme, {
      name: s.name,
      segments: s.segments,
      workdays: s.workdays,
      late_grace: 5,
      early_grace: 5,
    });
    if (s.root && root) {
      await api.call('POST', ATTENDANCE_RULES_API.assignScheme, {
        scheme_id: row.id,
        department_ids: [root.id],
      });
    }
  }
}
