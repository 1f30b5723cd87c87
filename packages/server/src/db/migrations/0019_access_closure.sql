-- Visibility as a closure (issue 14): one row per (object, account that sees it), that is
-- the accounts it is bound to and all their ancestors (the ids of their users.path). A
-- caller's list is then one index range scan on (user_id, kind, id) instead of a join of
-- every binding with the caller's subtree. A sensor has rows of its own, those of its
-- gateway. `live` mirrors NOT is_delete, so a list pages over the index alone and a deleted
-- object stays visible to the point checks that may restore it.
--
-- Triggers keep the tables exact in the transaction of every change, whoever makes it
-- (repositories, imports, bulk seeding): bindings added or removed, a device or toilet
-- deleted or restored, a sensor attached, a user's path changed. Their bodies are single-
-- quoted (migrations are split on ';' at line ends and avoid dollar quotes): statements
-- inside them start with ';' at the head of the next line. Every change takes one
-- transaction-scoped advisory lock, so a recomputation never reads bindings that a
-- concurrent change is about to alter.
CREATE TABLE device_access (
  device_id  integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind       text NOT NULL,
  live       boolean NOT NULL,
  PRIMARY KEY (device_id, user_id)
);
CREATE INDEX device_access_user_idx ON device_access (user_id, kind, device_id DESC) INCLUDE (live);

CREATE TABLE toilet_access (
  toilet_id  integer NOT NULL REFERENCES toilets (id) ON DELETE CASCADE,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  live       boolean NOT NULL,
  PRIMARY KEY (toilet_id, user_id)
);
CREATE INDEX toilet_access_user_idx ON toilet_access (user_id, toilet_id DESC) INCLUDE (live);

-- A gateway list filtered by type matched no index and read every device of the kind (a
-- dealer's 100k: 23 ms on PGlite); the other list filters have theirs (time: 0003, keyword:
-- 0008). Partial: only typed rows pay for it when their readings update the row.
CREATE INDEX devices_kind_type_idx ON devices (kind, type, id DESC) WHERE NOT is_delete AND type IS NOT NULL;

-- The rows of these devices and of the sensors of those that are gateways, recomputed from
-- the bindings.
CREATE FUNCTION device_access_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql AS '
BEGIN
  PERFORM pg_advisory_xact_lock(73900419)
  ; DELETE FROM device_access WHERE device_id = ANY(ids)
       OR device_id IN (SELECT s.id FROM devices s WHERE s.gateway_id = ANY(ids))
  ; INSERT INTO device_access (device_id, user_id, kind, live)
    SELECT d.id, a.id, d.kind, NOT d.is_delete
      FROM devices d
      JOIN device_bindings b ON b.device_id = CASE WHEN d.kind = ''sensor'' THEN d.gateway_id ELSE d.id END
      JOIN users u ON u.id = b.user_id
      CROSS JOIN LATERAL unnest(string_to_array(trim(BOTH ''/'' FROM u.path), ''/'')::int[]) AS a (id)
     WHERE d.id = ANY(ids) OR (d.gateway_id = ANY(ids) AND d.kind = ''sensor'')
    ON CONFLICT DO NOTHING
  ; END';

CREATE FUNCTION toilet_access_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql AS '
BEGIN
  PERFORM pg_advisory_xact_lock(73900419)
  ; DELETE FROM toilet_access WHERE toilet_id = ANY(ids)
  ; INSERT INTO toilet_access (toilet_id, user_id, live)
    SELECT t.id, a.id, NOT t.is_delete
      FROM toilets t
      JOIN toilet_bindings b ON b.toilet_id = t.id
      JOIN users u ON u.id = b.user_id
      CROSS JOIN LATERAL unnest(string_to_array(trim(BOTH ''/'' FROM u.path), ''/'')::int[]) AS a (id)
     WHERE t.id = ANY(ids)
    ON CONFLICT DO NOTHING
  ; END';

-- A binding adds its account and the account's ancestors to the device and its sensors.
CREATE FUNCTION device_bindings_added() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
  PERFORM pg_advisory_xact_lock(73900419)
  ; WITH ua AS (
      SELECT n.device_id, a.id AS user_id
        FROM added n JOIN users u ON u.id = n.user_id
        CROSS JOIN LATERAL unnest(string_to_array(trim(BOTH ''/'' FROM u.path), ''/'')::int[]) AS a (id)
    )
    INSERT INTO device_access (device_id, user_id, kind, live)
    SELECT d.id, ua.user_id, d.kind, NOT d.is_delete FROM ua JOIN devices d ON d.id = ua.device_id
    UNION ALL
    SELECT s.id, ua.user_id, s.kind, NOT s.is_delete FROM ua JOIN devices s ON s.gateway_id = ua.device_id
     WHERE s.kind = ''sensor''
    ON CONFLICT DO NOTHING
  ; RETURN NULL
  ; END';

-- Bindings removed (and toilet bindings added, a few at a time): the objects are recomputed.
CREATE FUNCTION device_bindings_removed() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN PERFORM device_access_refresh(ARRAY(SELECT DISTINCT device_id FROM changed)); RETURN NULL; END';
CREATE FUNCTION toilet_bindings_changed() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN PERFORM toilet_access_refresh(ARRAY(SELECT DISTINCT toilet_id FROM changed)); RETURN NULL; END';

-- A new sensor is seen by whoever sees its gateway.
CREATE FUNCTION devices_added() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
  IF EXISTS (SELECT 1 FROM added WHERE kind = ''sensor'' AND gateway_id IS NOT NULL) THEN
    PERFORM pg_advisory_xact_lock(73900419)
    ; INSERT INTO device_access (device_id, user_id, kind, live)
      SELECT n.id, g.user_id, n.kind, NOT n.is_delete
        FROM added n JOIN device_access g ON g.device_id = n.gateway_id
       WHERE n.kind = ''sensor''
      ON CONFLICT DO NOTHING
  ; END IF
  ; RETURN NULL
  ; END';

-- Deleted or restored: the flag follows; a sensor moved to another gateway: recomputed.
CREATE FUNCTION devices_changed() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
  IF OLD.gateway_id IS DISTINCT FROM NEW.gateway_id THEN
    PERFORM device_access_refresh(ARRAY[NEW.id])
  ; ELSE
    PERFORM pg_advisory_xact_lock(73900419)
    ; UPDATE device_access SET live = NOT NEW.is_delete WHERE device_id = NEW.id
  ; END IF
  ; RETURN NULL
  ; END';

CREATE FUNCTION toilets_changed() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
  PERFORM pg_advisory_xact_lock(73900419)
  ; UPDATE toilet_access SET live = NOT NEW.is_delete WHERE toilet_id = NEW.id
  ; RETURN NULL
  ; END';

-- A user moved in the tree (its path and those of its subtree rewritten): everything bound
-- to it is recomputed. Paths do not change today (a user's creator is its parent for good);
-- this keeps the closure right the day they do.
CREATE FUNCTION users_moved() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
  PERFORM device_access_refresh(ARRAY(SELECT device_id FROM device_bindings WHERE user_id = NEW.id))
  ; PERFORM toilet_access_refresh(ARRAY(SELECT toilet_id FROM toilet_bindings WHERE user_id = NEW.id))
  ; RETURN NULL
  ; END';

CREATE TRIGGER device_bindings_added AFTER INSERT ON device_bindings
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION device_bindings_added();
CREATE TRIGGER device_bindings_removed AFTER DELETE ON device_bindings
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION device_bindings_removed();
CREATE TRIGGER toilet_bindings_added AFTER INSERT ON toilet_bindings
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION toilet_bindings_changed();
CREATE TRIGGER toilet_bindings_removed AFTER DELETE ON toilet_bindings
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION toilet_bindings_changed();
CREATE TRIGGER devices_added AFTER INSERT ON devices
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION devices_added();
CREATE TRIGGER devices_changed AFTER UPDATE OF is_delete, gateway_id ON devices FOR EACH ROW
  WHEN (OLD.is_delete IS DISTINCT FROM NEW.is_delete OR OLD.gateway_id IS DISTINCT FROM NEW.gateway_id)
  EXECUTE FUNCTION devices_changed();
CREATE TRIGGER toilets_changed AFTER UPDATE OF is_delete ON toilets FOR EACH ROW
  WHEN (OLD.is_delete IS DISTINCT FROM NEW.is_delete) EXECUTE FUNCTION toilets_changed();
CREATE TRIGGER users_moved AFTER UPDATE OF path ON users FOR EACH ROW
  WHEN (OLD.path IS DISTINCT FROM NEW.path) EXECUTE FUNCTION users_moved();

-- Backfill from the bindings of today.
INSERT INTO device_access (device_id, user_id, kind, live)
SELECT d.id, a.id, d.kind, NOT d.is_delete
  FROM devices d
  JOIN device_bindings b ON b.device_id = CASE WHEN d.kind = 'sensor' THEN d.gateway_id ELSE d.id END
  JOIN users u ON u.id = b.user_id
  CROSS JOIN LATERAL unnest(string_to_array(trim(BOTH '/' FROM u.path), '/')::int[]) AS a (id)
  JOIN users au ON au.id = a.id
ON CONFLICT DO NOTHING;
INSERT INTO toilet_access (toilet_id, user_id, live)
SELECT t.id, a.id, NOT t.is_delete
  FROM toilets t
  JOIN toilet_bindings b ON b.toilet_id = t.id
  JOIN users u ON u.id = b.user_id
  CROSS JOIN LATERAL unnest(string_to_array(trim(BOTH '/' FROM u.path), '/')::int[]) AS a (id)
  JOIN users au ON au.id = a.id
ON CONFLICT DO NOTHING;
ANALYZE device_access;
ANALYZE toilet_access
