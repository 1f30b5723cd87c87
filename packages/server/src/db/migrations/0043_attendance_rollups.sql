-- Attendance (issue 16), the remaining gaps: provisional results and summary rollups.

-- A result computed before its shift's punch windows closed (today's, or last night's
-- shift) is provisional ('pending', never 旷工 or 缺卡): settles_at is when the windows
-- close, and a read after it recomputes the row. NULL: final.
ALTER TABLE att_day_results ADD COLUMN settles_at timestamptz;
CREATE INDEX att_day_results_settles_idx ON att_day_results (org_id, settles_at) WHERE settles_at IS NOT NULL;

-- Per employee, month and department (an employee who moved mid-month has two rows): the
-- monthly summary's figures, so a summary reads 5,000 rows, not 155,000 day results.
CREATE TABLE att_month_rollups (
  employee_id       integer NOT NULL,
  month             date NOT NULL,
  department_id     integer NOT NULL,
  org_id            integer NOT NULL,
  days_due          integer NOT NULL,
  days_present      integer NOT NULL,
  late_count        integer NOT NULL,
  late_minutes      integer NOT NULL,
  early_count       integer NOT NULL,
  early_minutes     integer NOT NULL,
  missing_count     integer NOT NULL,
  absent_count      integer NOT NULL,
  rest_days         integer NOT NULL,
  unscheduled_days  integer NOT NULL,
  PRIMARY KEY (employee_id, month, department_id)
);
CREATE INDEX att_month_rollups_org_idx ON att_month_rollups (org_id, month);

-- Per organisation, day and department: the summary's day series.
CREATE TABLE att_day_rollups (
  org_id         integer NOT NULL,
  day            date NOT NULL,
  department_id  integer NOT NULL,
  due            integer NOT NULL,
  present        integer NOT NULL,
  late           integer NOT NULL,
  early          integer NOT NULL,
  missing        integer NOT NULL,
  absent         integer NOT NULL,
  PRIMARY KEY (org_id, day, department_id)
);

-- Rebuilds the rollups of some (employee, month) and (organisation, day) pairs from the
-- day results (pairs may repeat). The same counting rules as a summary read of the results themselves.
CREATE FUNCTION att_rollups_touch(emps integer[], months date[], orgs integer[], days date[]) RETURNS void
LANGUAGE plpgsql AS '
BEGIN
  DELETE FROM att_month_rollups m USING unnest(emps, months) AS x(e, mo)
   WHERE m.employee_id = x.e AND m.month = x.mo
  ; INSERT INTO att_month_rollups (employee_id, month, department_id, org_id, days_due, days_present,
       late_count, late_minutes, early_count, early_minutes, missing_count, absent_count, rest_days, unscheduled_days)
    SELECT r.employee_id, x.mo, coalesce(r.department_id, 0), r.org_id,
           count(*) FILTER (WHERE r.due),
           count(*) FILTER (WHERE r.due AND r.present),
           count(*) FILTER (WHERE r.due AND r.late_minutes > 0),
           coalesce(sum(r.late_minutes) FILTER (WHERE r.due), 0),
           count(*) FILTER (WHERE r.due AND r.early_minutes > 0),
           coalesce(sum(r.early_minutes) FILTER (WHERE r.due), 0),
           count(*) FILTER (WHERE r.due AND r.missing > 0),
           count(*) FILTER (WHERE r.status = ''absent''),
           count(*) FILTER (WHERE r.status = ''rest''),
           count(*) FILTER (WHERE r.status = ''unscheduled'')
      FROM (SELECT DISTINCT * FROM unnest(emps, months) AS u(e, mo)) x
      JOIN att_day_results r ON r.employee_id = x.e AND r.day >= x.mo AND r.day < (x.mo + interval ''1 month'')::date
     GROUP BY r.employee_id, x.mo, coalesce(r.department_id, 0), r.org_id
  ; DELETE FROM att_day_rollups d USING unnest(orgs, days) AS y(o, dy) WHERE d.org_id = y.o AND d.day = y.dy
  ; INSERT INTO att_day_rollups (org_id, day, department_id, due, present, late, early, missing, absent)
    SELECT y.o, y.dy, coalesce(r.department_id, 0),
           count(*) FILTER (WHERE r.due),
           count(*) FILTER (WHERE r.due AND r.present),
           count(*) FILTER (WHERE r.due AND r.late_minutes > 0),
           count(*) FILTER (WHERE r.due AND r.early_minutes > 0),
           count(*) FILTER (WHERE r.due AND r.missing > 0),
           count(*) FILTER (WHERE r.status = ''absent'')
      FROM (SELECT DISTINCT * FROM unnest(orgs, days) AS u(o, dy)) y
      JOIN att_day_results r ON r.org_id = y.o AND r.day = y.dy
     GROUP BY y.o, y.dy, coalesce(r.department_id, 0)
  ; END';

-- Inserted or deleted results: their pairs (the transition table is named `changed`).
CREATE FUNCTION att_results_rollup() RETURNS trigger LANGUAGE plpgsql AS '
DECLARE em integer[]; mo date[]; og integer[]; dy date[]
; BEGIN
  SELECT array_agg(s.e), array_agg(s.m), array_agg(s.o), array_agg(s.d) INTO em, mo, og, dy
    FROM (SELECT DISTINCT employee_id AS e, date_trunc(''month'', day)::date AS m, org_id AS o, day AS d FROM changed) s
  ; IF em IS NOT NULL THEN PERFORM att_rollups_touch(em, mo, og, dy); END IF
  ; RETURN NULL
  ; END';

-- Updated results: only rows whose counted values changed (marking a row stale does not).
CREATE FUNCTION att_results_rollup_update() RETURNS trigger LANGUAGE plpgsql AS '
DECLARE em integer[]; mo date[]; og integer[]; dy date[]
; BEGIN
  SELECT array_agg(s.e), array_agg(s.m), array_agg(s.o), array_agg(s.d) INTO em, mo, og, dy
    FROM (SELECT DISTINCT n.employee_id AS e, date_trunc(''month'', n.day)::date AS m, n.org_id AS o, n.day AS d
            FROM new_rows n JOIN old_rows o ON o.employee_id = n.employee_id AND o.day = n.day
           WHERE (n.status, n.due, n.present, n.late_minutes, n.early_minutes, n.missing, n.department_id)
                 IS DISTINCT FROM (o.status, o.due, o.present, o.late_minutes, o.early_minutes, o.missing, o.department_id)) s
  ; IF em IS NOT NULL THEN PERFORM att_rollups_touch(em, mo, og, dy); END IF
  ; RETURN NULL
  ; END';

CREATE TRIGGER att_results_rollup_ins AFTER INSERT ON att_day_results
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION att_results_rollup();
CREATE TRIGGER att_results_rollup_del AFTER DELETE ON att_day_results
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION att_results_rollup();
CREATE TRIGGER att_results_rollup_upd AFTER UPDATE ON att_day_results
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION att_results_rollup_update();

-- Results stored before this migration.
SELECT att_rollups_touch(array_agg(s.e), array_agg(s.m), array_agg(s.o), array_agg(s.d))
  FROM (SELECT DISTINCT employee_id AS e, date_trunc('month', day)::date AS m, org_id AS o, day AS d FROM att_day_results) s
HAVING count(*) > 0;
