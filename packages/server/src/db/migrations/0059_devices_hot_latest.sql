-- Every report updates its device's `time`, `latest`, `warning` and `reading` (issue 14).
-- With `time` in an index (devices_kind_time_idx) no such update could be HOT: each wrote a
-- new entry into every index of `devices`, the keyword GIN indexes included (their
-- expressions computed again), and PGlite never vacuums them. The online filter's index
-- now holds the five-minute bin of `time` (a generated column that changes once per five
-- minutes of reports), so the other updates of a device touch no index; the filter ranges
-- over the bin and checks `time` itself (db/sql.ts onlineSql). Free room on every page
-- (fillfactor, applied by the rewrite the new column causes) lets the new row version stay
-- on its page, which HOT needs.
ALTER TABLE devices SET (fillfactor = 80);

ALTER TABLE devices ADD COLUMN seen_5min timestamptz
  GENERATED ALWAYS AS (date_bin('5 minutes', time, timestamptz '2000-01-01 00:00:00+00')) STORED;

DROP INDEX devices_kind_time_idx;

CREATE INDEX devices_kind_seen_idx ON devices (kind, seen_5min) WHERE NOT is_delete;
