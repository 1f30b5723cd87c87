-- Smart industry (issue 15): which (monitor, shift) pairs have had their end-of-shift
-- exposure check (8-h TWA and 15-min STEL against GBZ 2.1), so each shift is judged once
-- even when several copies of the server ingest.
CREATE TABLE industry_shift_checks (
  device_id    integer NOT NULL,
  shift_start  timestamptz NOT NULL,
  checked_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_id, shift_start)
);
CREATE INDEX devices_industrial_idx ON devices (industrial_type, id DESC) WHERE NOT is_delete AND industrial_type IS NOT NULL;
