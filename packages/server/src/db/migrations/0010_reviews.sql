-- Public reviews (/add-comment) and their management (/comment).

-- Who posted, for the abuse limits only: the random id the review page keeps in the
-- browser, and the client IP as a keyed hash (the statement page promises reviews are not
-- tied to a person; a plain hash of an IPv4 address could be reversed by trying them all).
ALTER TABLE comments ADD COLUMN visitor_id text;
ALTER TABLE comments ADD COLUMN ip_hash text;

-- The key of that hash: one per installation, shared by every server copy.
CREATE TABLE review_secret (
  id    integer PRIMARY KEY CHECK (id = 1),
  salt  text NOT NULL
);
INSERT INTO review_secret (id, salt)
  VALUES (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));

-- Limits count a toilet's reviews of the last hour by visitor and by IP.
CREATE INDEX comments_limit_visitor_idx ON comments (toilet_id, visitor_id, created_at)
  WHERE visitor_id IS NOT NULL;
CREATE INDEX comments_limit_ip_idx ON comments (toilet_id, ip_hash, created_at)
  WHERE ip_hash IS NOT NULL;

-- Management lists: newest first, overall, per toilet, per terminal, per star level.
CREATE INDEX comments_created_idx ON comments (created_at DESC, id DESC);
CREATE INDEX comments_toilet_created_idx ON comments (toilet_id, created_at DESC, id DESC)
  WHERE toilet_id IS NOT NULL;
CREATE INDEX comments_equipment_created_idx ON comments (equipment_id, created_at DESC, id DESC)
  WHERE equipment_id IS NOT NULL;
CREATE INDEX comments_star_created_idx ON comments (star_level, created_at DESC);
-- No trigram index on the text: with the C collation pg_trgm ignores Chinese characters,
-- so keyword search filters the rows the other conditions select.
