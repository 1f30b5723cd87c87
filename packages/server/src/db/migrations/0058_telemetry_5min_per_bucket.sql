-- The five-minute rollup as one row per device and bucket (issue 14): every numeric field's
-- count, sum, least and greatest value inside one JSON object, `{"co2": [n, sum, min, max]}`.
-- Ingest upserts 500 rows for 500 gateway reports instead of 9,000 (one per field), and a
-- batch whose bucket already exists merges the fields in one row version
-- (ingest/repo.ts addFiveMinute). Same name and bucket column, so retention is unchanged.
ALTER TABLE telemetry_5min RENAME TO telemetry_5min_fields;

ALTER TABLE telemetry_5min_fields RENAME CONSTRAINT telemetry_5min_pkey TO telemetry_5min_fields_pkey;

CREATE TABLE telemetry_5min (
  device_id integer NOT NULL,
  bucket    timestamptz NOT NULL,
  f         jsonb NOT NULL,
  PRIMARY KEY (device_id, bucket)
);

INSERT INTO telemetry_5min (device_id, bucket, f)
SELECT device_id, bucket, jsonb_object_agg(key, jsonb_build_array(n, sum, min, max))
  FROM telemetry_5min_fields
 GROUP BY 1, 2;

DROP TABLE telemetry_5min_fields;
