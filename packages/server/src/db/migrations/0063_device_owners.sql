-- The accounts a device is bound to, as the lists show them (绑定用户: user names in id order,
-- comma-separated), kept on the device row. A device page built them per row with a sub-
-- select (the bindings' index, each user's row, an aggregate and its sort): half of what a
-- 100-row page cost PostgreSQL to build. Bindings change rarely and user names never, so
-- the text is rewritten by the binding triggers below, in the transaction of the change,
-- whoever makes it (repositories, imports, bulk seeding).
--
-- Function bodies are single-quoted (migrations are split on ';' at line ends), as in 0019.
ALTER TABLE devices ADD COLUMN owners text NOT NULL DEFAULT '';

-- These devices' owners text, from their bindings now (rows already right are not rewritten).
CREATE FUNCTION device_owners_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql AS '
BEGIN
  UPDATE devices d SET owners = o.owners
    FROM (SELECT i.id, coalesce((SELECT string_agg(u.user_name, '','' ORDER BY u.id)
                                   FROM device_bindings b JOIN users u ON u.id = b.user_id
                                  WHERE b.device_id = i.id), '''') AS owners
            FROM unnest(ids) AS i (id)) o
   WHERE d.id = o.id AND d.owners IS DISTINCT FROM o.owners
  ; END';

CREATE FUNCTION device_bindings_owners() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN PERFORM device_owners_refresh(ARRAY(SELECT DISTINCT device_id FROM changed ORDER BY 1)); RETURN NULL; END';

CREATE TRIGGER device_bindings_owners_added AFTER INSERT ON device_bindings
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION device_bindings_owners();
CREATE TRIGGER device_bindings_owners_removed AFTER DELETE ON device_bindings
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION device_bindings_owners();

-- The devices bound today.
UPDATE devices d SET owners = o.owners
  FROM (SELECT b.device_id, string_agg(u.user_name, ',' ORDER BY u.id) AS owners
          FROM device_bindings b JOIN users u ON u.id = b.user_id
         GROUP BY b.device_id) o
 WHERE d.id = o.device_id
