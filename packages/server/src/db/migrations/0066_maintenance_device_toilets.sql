-- The toilets each device's work orders lie in (0: none), kept by the triggers below in the
-- transaction of the change, whoever writes the records (repositories, bulk seeding). A small
-- scope's work orders are its toilets' ranges and, for records outside those toilets, its
-- devices' ranges (modules/access toiletOrDeviceRanges). A device in the scope's own toilet
-- has none outside, yet its range was read whole to find that out: a customer with one toilet
-- and 50 devices read all 5,000 of their records, and rejected them all, on every page (1M
-- records: 1.7 ms of the page's 2.9). A device's range is now read only when this table says
-- some of its records lie elsewhere (0.4 ms for the 50 devices). Rows are never removed: a
-- pair no longer true costs one range read that finds nothing.
--
-- Function bodies are single-quoted (migrations are split on ';' at line ends), as in 0019.
CREATE TABLE maintenance_device_toilets (
  device_id integer NOT NULL,
  toilet_id integer NOT NULL,
  PRIMARY KEY (device_id, toilet_id)
);

CREATE FUNCTION maintenance_device_toilets_add() RETURNS trigger LANGUAGE plpgsql AS '
BEGIN
  INSERT INTO maintenance_device_toilets (device_id, toilet_id)
  SELECT DISTINCT c.device_id, coalesce(c.toilet_id, 0) FROM changed c WHERE c.device_id IS NOT NULL ORDER BY 1, 2
  ON CONFLICT DO NOTHING; RETURN NULL; END';

CREATE TRIGGER maintenance_device_toilets_inserted AFTER INSERT ON maintenance_records
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION maintenance_device_toilets_add();
CREATE TRIGGER maintenance_device_toilets_updated AFTER UPDATE ON maintenance_records
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION maintenance_device_toilets_add();

INSERT INTO maintenance_device_toilets (device_id, toilet_id)
SELECT DISTINCT device_id, coalesce(toilet_id, 0) FROM maintenance_records WHERE device_id IS NOT NULL;
