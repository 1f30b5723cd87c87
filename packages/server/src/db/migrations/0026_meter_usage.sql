-- Meter usage derived from cumulative readings by the meter ingest handler.
-- grain: 'hour' | 'day' | 'month'; period_start is the start of the period, days and
-- months in UTC+8 (Asia/Shanghai). usage is never negative: a reading lower than the last
-- one is a reset or replacement and starts a new run. gap = true when part of the usage
-- was spread over a reporting gap (linear interpolation between two real readings, never
-- invented beyond them); a gap longer than the spread limit is not spread at all and its
-- usage lands only in the period of the later reading, marked gap.
CREATE TABLE meter_usage (
  device_id     integer NOT NULL,
  grain         text NOT NULL CHECK (grain IN ('hour', 'day', 'month')),
  period_start  timestamptz NOT NULL,
  usage         double precision NOT NULL DEFAULT 0,
  gap           boolean NOT NULL DEFAULT false,
  resets        integer NOT NULL DEFAULT 0,
  PRIMARY KEY (device_id, grain, period_start)
);
CREATE INDEX meter_usage_grain_period_idx ON meter_usage (grain, period_start, device_id);

-- The last reading each meter reported, so usage is a difference even across batches.
CREATE TABLE meter_state (
  device_id     integer PRIMARY KEY,
  last_ts       timestamptz NOT NULL,
  last_reading  double precision NOT NULL
);
