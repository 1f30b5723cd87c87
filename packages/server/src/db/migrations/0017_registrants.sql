-- Who registered a device or a toilet (issue 12): that account and the managers above it
-- manage the object (edit, delete, restore, read its token); accounts it is merely bound
-- to only read or operate it. Sensors have none: they follow their gateway.
ALTER TABLE devices ADD COLUMN registered_by integer REFERENCES users (id);
ALTER TABLE toilets ADD COLUMN registered_by integer REFERENCES users (id);

-- Registering binds the object to its registrant first, so the highest account it is bound
-- to (shortest path, then the oldest binding) is the best record of who registered it.
UPDATE devices d SET registered_by = (
  SELECT b.user_id FROM device_bindings b JOIN users u ON u.id = b.user_id
   WHERE b.device_id = d.id ORDER BY length(u.path), b.created_at, b.user_id LIMIT 1)
 WHERE d.kind <> 'sensor';
UPDATE toilets t SET registered_by = (
  SELECT b.user_id FROM toilet_bindings b JOIN users u ON u.id = b.user_id
   WHERE b.toilet_id = t.id ORDER BY length(u.path), b.created_at, b.user_id LIMIT 1);
