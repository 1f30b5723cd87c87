-- A keyword on a dealer's device list read each of the dealer's devices newest first and
-- tested its row (walkFirst): a probe of the devices table per device, then ILIKE, which
-- lower-cases both sides on every call; page 15 of a keyword in a tenth of the devices read
-- 1,500 rows, some 3 µs each. Each closure row now carries its device's searched text, lower-
-- cased once when it is written (the text of db/sql.ts SEARCH.devices), and a partial index
-- of the live rows includes it: the same walk is an index-only scan testing `LIKE` on text
-- it already holds (devices/repo.ts listDevices). The devices table itself is rewritten by
-- every report; the closure rows only on binding, deletion and an edit of the text, so the
-- index's pages stay all-visible.
--
-- Function bodies are single-quoted (migrations are split on ';' at line ends), as in 0019.

-- The searched text of a device as the closure keeps it: SEARCH.devices, lower-cased. A
-- keyword `k` is in it when `text ILIKE '%k%'`, that is `lower(text) LIKE lower('%k%')`
-- (PostgreSQL's ILIKE on a multi-byte database: both sides lower-cased, then LIKE).
CREATE FUNCTION device_search_text(ser_num text, descr text, location text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT lower(ser_num || '' '' || descr || '' '' || location)';

ALTER TABLE device_access ADD COLUMN search text;
UPDATE device_access va SET search = device_search_text(d.ser_num, d."desc", d.location)
  FROM devices d WHERE d.id = va.device_id;
CREATE INDEX device_access_search_idx ON device_access (user_id, kind, device_id DESC) INCLUDE (search) WHERE live;

CREATE OR REPLACE FUNCTION device_access_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql AS '
BEGIN
  PERFORM pg_advisory_xact_lock(73900419)
  ; DELETE FROM device_access WHERE device_id = ANY(ids)
       OR device_id IN (SELECT s.id FROM devices s WHERE s.gateway_id = ANY(ids))
  ; INSERT INTO device_access (device_id, user_id, kind, live, search)
    SELECT d.id, a.id, d.kind, NOT d.is_delete, device_search_text(d.ser_num, d."desc", d.location)
      FROM devices d
      JOIN device_bindings b ON b.device_id = CASE WHEN d.kind = ''sensor'' THEN d.gateway_id ELSE d.id END
      JOIN users u ON u.id = b.user_id
      CROSS JOIN LATERAL unnest(string_to_array(trim(BOTH ''/'' FROM u.path), ''/'')::int[]) AS a (id)
     WHERE d.id = ANY(ids) OR (d.gateway_id = ANY(ids) AND d.kind = ''sensor'')
    ON CONFLICT DO NOTHING
  ; END';

CREATE OR REPLACE FUNCTION device_bindings_added() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
  PERFORM pg_advisory_xact_lock(73900419)
  ; WITH ua AS (
      SELECT n.device_id, a.id AS user_id
        FROM added n JOIN users u ON u.id = n.user_id
        CROSS JOIN LATERAL unnest(string_to_array(trim(BOTH ''/'' FROM u.path), ''/'')::int[]) AS a (id)
    )
    INSERT INTO device_access (device_id, user_id, kind, live, search)
    SELECT d.id, ua.user_id, d.kind, NOT d.is_delete, device_search_text(d.ser_num, d."desc", d.location)
      FROM ua JOIN devices d ON d.id = ua.device_id
    UNION ALL
    SELECT s.id, ua.user_id, s.kind, NOT s.is_delete, device_search_text(s.ser_num, s."desc", s.location)
      FROM ua JOIN devices s ON s.gateway_id = ua.device_id
     WHERE s.kind = ''sensor''
    ON CONFLICT DO NOTHING
  ; RETURN NULL
  ; END';

CREATE OR REPLACE FUNCTION devices_added() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
  IF EXISTS (SELECT 1 FROM added WHERE kind = ''sensor'' AND gateway_id IS NOT NULL) THEN
    PERFORM pg_advisory_xact_lock(73900419)
    ; INSERT INTO device_access (device_id, user_id, kind, live, search)
      SELECT n.id, g.user_id, n.kind, NOT n.is_delete, device_search_text(n.ser_num, n."desc", n.location)
        FROM added n JOIN device_access g ON g.device_id = n.gateway_id
       WHERE n.kind = ''sensor''
      ON CONFLICT DO NOTHING
  ; END IF
  ; RETURN NULL
  ; END';

-- A device's serial number, description or location edited: its closure rows follow.
CREATE FUNCTION devices_search_changed() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
  PERFORM pg_advisory_xact_lock(73900419)
  ; UPDATE device_access SET search = device_search_text(NEW.ser_num, NEW."desc", NEW.location)
     WHERE device_id = NEW.id
  ; RETURN NULL
  ; END';
CREATE TRIGGER devices_search_changed AFTER UPDATE OF ser_num, "desc", location ON devices FOR EACH ROW
  WHEN (OLD.ser_num IS DISTINCT FROM NEW.ser_num OR OLD."desc" IS DISTINCT FROM NEW."desc"
        OR OLD.location IS DISTINCT FROM NEW.location)
  EXECUTE FUNCTION devices_search_changed();

ANALYZE device_access
