-- Serial-number keywords (GW0001, MT-000123) as a prefix of the serial number, ignoring case
-- (db/sql.ts serialPrefixSql): one btree range, on PGlite and PostgreSQL alike (pg_trgm is
-- there too, but a trigram such as '000' is in nearly every serial number).
CREATE INDEX devices_ser_num_prefix ON devices (lower(ser_num) text_pattern_ops) WHERE NOT is_delete;
