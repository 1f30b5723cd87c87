-- An employee record may name the console account its person signs in with (one live
-- employee per account): the QR patrol check-in records the caller's own employee.
ALTER TABLE att_employees ADD COLUMN user_id integer REFERENCES users (id);
CREATE UNIQUE INDEX att_employees_user_key ON att_employees (user_id) WHERE user_id IS NOT NULL AND NOT is_delete;
