-- Keyword search through an index for any script (issue 14). Trigrams (migration 0008) skip
-- 1–2 character words, so a Chinese keyword such as 西湖 or 男厕 read every row. Instead a
-- searched text is indexed as the set of its lower-cased characters and character pairs; a
-- keyword's pairs (its character when it has one) must all be in that set, which a GIN index
-- answers, and `ILIKE '%keyword%'` then checks the order (db/sql.ts keywordSql). The
-- expressions below are the ones db/sql.ts SEARCH writes in the queries: keep them identical.
-- A small pending list (64 kB, not 4 MB): new rows' keys wait there and go into the index in
-- bulk when it fills (a row at a time costs several times more on PGlite), while every search,
-- which reads the whole list, reads little (PGlite has no autovacuum to empty it).
-- Plain SQL functions (single-quoted bodies: migrations are split on semicolons at line ends),
-- so PostgreSQL and PGlite build the same index.

-- Every character and every pair of adjacent characters of lower(s): the pairs from odd
-- positions, then from even ones, each run cut after every two characters (chr(1), a control
-- character, as the cut). Duplicates and a last odd character or '' are harmless: GIN keeps
-- each key once. Expressions only, no subquery: this runs for every row written.
CREATE FUNCTION search_tokens(s text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
'SELECT string_to_array(lower(s), NULL)
     || string_to_array(regexp_replace(lower(s), ''(..)'', ''\1'' || chr(1), ''g''), chr(1))
     || string_to_array(regexp_replace(substr(lower(s), 2), ''(..)'', ''\1'' || chr(1), ''g''), chr(1))';

-- What a keyword needs of a text: its pairs, or its one character.
CREATE FUNCTION search_key(s text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
'SELECT coalesce(array_agg(DISTINCT substr(l, i, least(length(l), 2))), ''{}''::text[])
   FROM (SELECT lower(s) AS l) x, generate_series(1, greatest(length(l) - 1, 1)) i';

CREATE INDEX devices_search_tokens ON devices USING gin (search_tokens(ser_num || ' ' || "desc" || ' ' || location)) WITH (gin_pending_list_limit = 64) WHERE NOT is_delete;
CREATE INDEX users_search_tokens ON users USING gin (search_tokens(user_name || ' ' || coalesce(email, '') || ' ' || phone_num)) WITH (gin_pending_list_limit = 64) WHERE NOT is_delete;
CREATE INDEX user_info_search_tokens ON user_info USING gin (search_tokens(company_name)) WITH (gin_pending_list_limit = 64) WHERE NOT is_delete;
CREATE INDEX toilets_search_tokens ON toilets USING gin (search_tokens(name || ' ' || address || ' ' || cityname || ' ' || adname)) WITH (gin_pending_list_limit = 64) WHERE NOT is_delete;
-- Hidden comments are listed too (show_hidden): the whole table.
CREATE INDEX comments_search_tokens ON comments USING gin (search_tokens(content)) WITH (gin_pending_list_limit = 64);
CREATE INDEX messages_search_tokens ON messages USING gin (search_tokens(title || ' ' || content)) WITH (gin_pending_list_limit = 64) WHERE NOT is_delete;

-- The token indexes answer every keyword the trigram ones did.
DROP INDEX devices_search_trgm;
DROP INDEX users_search_trgm;
