-- Keyword search over serial number, description and location ('%word%') as a trigram
-- index scan instead of reading every device. pg_trgm ships with PostgreSQL (a trusted
-- extension since 13) and with PGlite (loaded in db/index.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX devices_search_trgm ON devices USING gin ((ser_num || ' ' || "desc" || ' ' || location) gin_trgm_ops) WHERE NOT is_delete;
CREATE INDEX users_search_trgm ON users USING gin ((user_name || ' ' || coalesce(email, '') || ' ' || phone_num) gin_trgm_ops) WHERE NOT is_delete;
