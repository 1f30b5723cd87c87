-- Device reports. Range-partitioned by report time: monthly partitions are created ahead
-- by the server (jobs/partitions.ts); the default partition catches anything outside them.
-- A message is stored once: a QoS1 redelivery repeats its id and timestamp.
CREATE TABLE telemetry (
  device_id    integer NOT NULL,
  ts           timestamptz NOT NULL,
  msg_id       text NOT NULL,
  data         jsonb NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now()
) PARTITION BY RANGE (ts);
CREATE TABLE telemetry_default PARTITION OF telemetry DEFAULT;
CREATE UNIQUE INDEX telemetry_msg_key ON telemetry (device_id, msg_id, ts);
CREATE INDEX telemetry_device_ts_idx ON telemetry (device_id, ts DESC);

-- The latest value of every field a device reported, merged report by report.
ALTER TABLE devices ADD COLUMN latest jsonb NOT NULL DEFAULT '{}';
ALTER TABLE devices ADD COLUMN bad_messages integer NOT NULL DEFAULT 0;
