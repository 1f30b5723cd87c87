// Attendance results (issue 16 part B): one organisation of 5,000 employees in 50
// departments with a month (31 days) of punches, as the records and summary calls read it.
//   - the whole organisation's monthly summary (results brought up to date, the department
//     table with the day series, the first page per employee), p99 < 500 ms
//   - one department's day (results brought up to date, the first page), p99 < 100 ms
// Baselines, run in the same command on the same data: for the summary, the previous design
// (the day results aggregated on each request, 155k rows four times) against the rollups
// kept with the results (migration 0043); for the department's day, every result computed
// from the punches on each request. The ratio is stored / baseline.
// Embedded PGlite in memory by default; PostgreSQL with DATABASE_URL set (a scratch database).
// Usage: [DATABASE_URL=postgres://…] npm run bench:attendance [-- employees repeats]
import { scratchDb } from './scratch-db.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import * as repo from '../packages/server/src/modules/attendance-rules/repo.ts';
import { ensureResults } from '../packages/server/src/modules/attendance-rules/results.ts';

const arg = (i: number, d: number) => Number(process.argv[i] ?? d);
const employees = arg(2, 5000);
const repeats = arg(3, 30);
const only = process.env.ONLY; // 'seed': seed and compute, no runs
const DEPARTMENTS = 50;
const MONTH = { start: '2026-03-01', end: '2026-03-31' };
const NOW = Date.parse('2026-04-01T12:00:00+08:00');

const pgBase = process.env.DATABASE_URL || '';
const scratch = await scratchDb('att');
const db = scratch.db;

const one = async <T>(sql: string, p: unknown[] = []) => (await db.query<T>(sql, p))[0]!;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
async function timed(n: number, fn: () => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return { p50: pct(ms, 50), p99: pct(ms, 99) };
}

try {
  await migrate(db);
  const t0 = Date.now();
  const { id: org } = await one<{ id: number }>(
    `INSERT INTO organisations (name) VALUES ('基准公司') RETURNING id`,
  );
  const { id: root } = await one<{ id: number }>(
    `INSERT INTO att_departments (org_id, name) VALUES ($1, '基准公司') RETURNING id`,
    [org],
  );
  await db.query(`UPDATE att_departments SET path = '/' || id || '/' WHERE id = $1`, [root]);
  await db.query(
    `INSERT INTO att_departments (org_id, parent_id, name, path)
     SELECT $1, $2, '部门' || i, '' FROM generate_series(1, $3::int) i`,
    [org, root, DEPARTMENTS],
  );
  await db.query(`UPDATE att_departments SET path = '/' || $1 || '/' || id || '/' WHERE parent_id = $1`, [
    root,
  ]);
  const deps = (
    await db.query<{ id: number }>(`SELECT id FROM att_departments WHERE parent_id = $1 ORDER BY id`, [root])
  ).map((d) => d.id);
  await db.query(
    `INSERT INTO att_employees (org_id, department_id, number, name, hire_date)
     SELECT $1, ($2::int[])[1 + i % $3::int], 'E' || lpad(i::text, 5, '0'), '员工' || i, '2026-01-01'
       FROM generate_series(0, $4::int - 1) i`,
    [org, deps, deps.length, employees],
  );
  const { id: scheme } = await one<{ id: number }>(
    `INSERT INTO att_schemes (org_id, name, segments, late_grace, early_grace)
     VALUES ($1, '白班', '[{"start":"09:00","end":"18:00"}]', 5, 5) RETURNING id`,
    [org],
  );
  await db.query(
    `INSERT INTO att_department_schemes (department_id, org_id, scheme_id) VALUES ($1, $2, $3)`,
    [root, org, scheme],
  );
  // Two punches per employee and day for all 31 days, some late (minute 0–14 past 09:00 - 10).
  await db.query(
    `INSERT INTO att_punches (org_id, employee_id, punched_at, method)
     SELECT $1, e.id, d + interval '8 hours 50 minutes' + ((e.id * 7 + extract(day FROM d)::int * 13) % 25) * interval '1 minute' - interval '8 hours', 'face'
       FROM att_employees e, generate_series($2::date, $3::date, interval '1 day') d WHERE e.org_id = $1
     UNION ALL
     SELECT $1, e.id, d + interval '18 hours 2 minutes' - interval '8 hours', 'face'
       FROM att_employees e, generate_series($2::date, $3::date, interval '1 day') d WHERE e.org_id = $1 AND (e.id + extract(day FROM d)::int) % 31 <> 0`,
    [org, MONTH.start, MONTH.end],
  );
  await db.query('ANALYZE');
  const { n: punches } = await one<{ n: number }>(`SELECT count(*)::int AS n FROM att_punches`);
  const tm = performance.now();
  const computed = await ensureResults(db, org, MONTH.start, MONTH.end, { now: NOW });
  const firstMs = performance.now() - tm;
  await db.query('ANALYZE');
  console.log(
    `${employees} employees, ${punches} punches seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s on ${pgBase ? 'PostgreSQL' : 'PGlite'}; ` +
      `first computation of ${computed} daily results ${firstMs.toFixed(0)} ms; ms, ${repeats} runs each`,
  );

  if (only === 'seed') process.exit(0);
  const summary = async () => {
    await ensureResults(db, org, MONTH.start, MONTH.end, { now: NOW });
    const f = { org, month: MONTH.start };
    await Promise.all([
      repo.summaryByDepartment(db, f),
      repo.summaryByDay(db, f),
      repo.orgDepartmentTree(db, org),
      repo.summaryByEmployee(db, { ...f, limit: 20, offset: 0 }),
    ]);
  };
  const dep = deps[7]!;
  const day = '2026-03-17';
  const departmentDay = async () => {
    await ensureResults(db, org, day, day, { now: NOW });
    await repo.listRecords(db, { org, start: day, end: day, department_id: dep, limit: 20, offset: 0 });
  };
  const baseRuns = Math.max(3, Math.floor(repeats / 6));
  // Summary baseline: the same figures aggregated from the day results on each request.
  const COUNTS = `count(*) FILTER (WHERE r.due)::int AS days_due,
    count(*) FILTER (WHERE r.due AND r.present)::int AS days_present,
    count(*) FILTER (WHERE r.due AND r.late_minutes > 0)::int AS late_count,
    coalesce(sum(r.late_minutes) FILTER (WHERE r.due), 0)::int AS late_minutes,
    count(*) FILTER (WHERE r.due AND r.early_minutes > 0)::int AS early_count,
    coalesce(sum(r.early_minutes) FILTER (WHERE r.due), 0)::int AS early_minutes,
    count(*) FILTER (WHERE r.due AND r.missing > 0)::int AS missing_count,
    count(*) FILTER (WHERE r.status = 'absent')::int AS absent_count`;
  const inMonth = `r.org_id = $1 AND r.day BETWEEN $2::date AND $3::date`;
  const m = [org, MONTH.start, MONTH.end];
  const summaryBase = await timed(baseRuns, async () => {
    await ensureResults(db, org, MONTH.start, MONTH.end, { now: NOW });
    await Promise.all([
      db.query(
        `SELECT x.department_id, count(*)::int AS employees, sum(x.days_due)::int, sum(x.late_count)::int, sum(x.absent_count)::int
           FROM (SELECT r.employee_id, r.department_id, ${COUNTS} FROM att_day_results r
                  WHERE ${inMonth} GROUP BY r.employee_id, r.department_id) x GROUP BY x.department_id`,
        m,
      ),
      db.query(
        `SELECT r.day, count(*) FILTER (WHERE r.due)::int, count(*) FILTER (WHERE r.status = 'absent')::int
           FROM att_day_results r WHERE ${inMonth} GROUP BY r.day ORDER BY r.day`,
        m,
      ),
      repo.orgDepartmentTree(db, org),
      db.query(
        `SELECT g.*, e.name FROM (SELECT r.employee_id, ${COUNTS} FROM att_day_results r WHERE ${inMonth}
            GROUP BY r.employee_id) g JOIN att_employees e ON e.id = g.employee_id ORDER BY e.number, e.id LIMIT 20`,
        m,
      ),
      db.query(
        `SELECT count(*) FROM (SELECT r.employee_id FROM att_day_results r WHERE ${inMonth} GROUP BY r.employee_id) g`,
        m,
      ),
    ]);
  });
  const summaryStored = await timed(repeats, summary);
  // Day baseline: nothing kept between requests, every result computed from the punches.
  const dayBase = await timed(baseRuns, async () => {
    await db.query(`UPDATE att_day_results SET stale = true WHERE department_id = $1 AND day = $2::date`, [
      dep,
      day,
    ]);
    await departmentDay();
  });
  const dayStored = await timed(repeats, departmentDay);
  const line = (
    name: string,
    s: { p50: number; p99: number },
    b: { p50: number; p99: number },
    limit: number,
  ) =>
    console.log(
      `${name.padEnd(34)} stored p50 ${s.p50.toFixed(1).padStart(7)}  p99 ${s.p99.toFixed(1).padStart(7)} (target < ${limit}: ${s.p99 < limit ? 'met' : 'MISSED'})` +
        `   baseline p50 ${b.p50.toFixed(1).padStart(8)}  p99 ${b.p99.toFixed(1).padStart(8)}   ratio p99 ${(s.p99 / b.p99).toFixed(3)}`,
    );
  line('monthly summary, whole org', summaryStored, summaryBase, 500);
  line(`one department's day (${employees / DEPARTMENTS})`, dayStored, dayBase, 100);
} finally {
  await scratch.drop();
}
