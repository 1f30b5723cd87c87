-- Cleaner patrols (issue 16): a punch at a toilet's terminal is a patrol check-in; a
-- toilet may require one every patrol_every_min minutes (0: none) during its opening hours
-- (toilet_documents.open_time–close_time, UTC+8 wall clock).
ALTER TABLE toilets ADD COLUMN patrol_every_min integer NOT NULL DEFAULT 0;
CREATE INDEX toilets_patrol_idx ON toilets (id) WHERE patrol_every_min > 0 AND NOT is_delete;

-- Attendance rows belong to an organisation of migration 0022.
ALTER TABLE att_departments ADD CONSTRAINT att_departments_org_fk FOREIGN KEY (org_id) REFERENCES organisations (id);
ALTER TABLE att_employees ADD CONSTRAINT att_employees_org_fk FOREIGN KEY (org_id) REFERENCES organisations (id);
ALTER TABLE att_punches ADD CONSTRAINT att_punches_org_fk FOREIGN KEY (org_id) REFERENCES organisations (id);
ALTER TABLE devices ADD CONSTRAINT devices_org_fk FOREIGN KEY (org_id) REFERENCES organisations (id);
