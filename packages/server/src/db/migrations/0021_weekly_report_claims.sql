-- A weekly report's row is a claim until its report is built: `claimed_at` says when a run
-- claimed it, `built_at` when the file and the e-mail were in. A later run takes over a
-- claim left unbuilt (its copy died in between) once it is older than a lease, so the
-- report is rebuilt rather than lost. The rows made before are built ones.
ALTER TABLE weekly_reports ADD COLUMN claimed_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE weekly_reports ADD COLUMN built_at timestamptz;
UPDATE weekly_reports SET claimed_at = created_at, built_at = created_at;
