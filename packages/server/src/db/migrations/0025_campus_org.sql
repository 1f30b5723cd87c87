-- Campus structure belongs to an organisation (foundation migration 0022, which runs first).
ALTER TABLE campus_buildings ADD CONSTRAINT campus_buildings_org_fk FOREIGN KEY (org_id) REFERENCES organisations (id);
ALTER TABLE campus_rooms ADD CONSTRAINT campus_rooms_org_fk FOREIGN KEY (org_id) REFERENCES organisations (id);
ALTER TABLE placements ADD CONSTRAINT placements_org_fk FOREIGN KEY (org_id) REFERENCES organisations (id);
