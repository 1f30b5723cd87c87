-- Five-minute rollup of every numeric report field (issue 14), written by ingest in the
-- batch's transaction (ingest/handlers/five-minute.ts): per device, bucket and field the
-- count, sum, least and greatest value, so batches add up and means stay exact. A device's
-- history over more than a few hours reads these rows (a day is 288 per field) instead of
-- every raw report with its JSON taken apart. One row per field, plain columns: the read is
-- an index range on the primary key with no JSON work.
CREATE TABLE telemetry_5min (
  device_id integer NOT NULL,
  bucket    timestamptz NOT NULL,
  key       text NOT NULL,
  n         integer NOT NULL,
  sum       float8 NOT NULL,
  min       float8 NOT NULL,
  max       float8 NOT NULL,
  PRIMARY KEY (device_id, bucket, key)
);

-- The reports already stored, so history keeps its past (retention trims both alike).
INSERT INTO telemetry_5min (device_id, bucket, key, n, sum, min, max)
SELECT t.device_id, to_timestamp(floor(extract(epoch FROM t.ts) / 300) * 300), e.key,
       count(*), sum(e.value::text::float8), min(e.value::text::float8), max(e.value::text::float8)
  FROM telemetry t, jsonb_each(t.data) e
 WHERE jsonb_typeof(e.value) = 'number'
 GROUP BY 1, 2, 3;
