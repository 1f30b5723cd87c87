-- A device's history revision (issue 14): bumped by ingest when a report lands in a bucket the
-- device history may already hold in memory as closed (a report more than a few minutes older
-- than its arrival: buffered by the device while offline, or a clock far behind). The history
-- cache (modules/live/history-cache.ts) keeps a device's closed buckets with the revision it
-- read them at, and reads them again when the revision it gets with each request differs. Not
-- in any index, so the update stays HOT like the latest-state one (0059).
ALTER TABLE devices ADD COLUMN history_rev integer NOT NULL DEFAULT 0;
