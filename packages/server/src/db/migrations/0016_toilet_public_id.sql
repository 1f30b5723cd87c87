-- The id a toilet's QR code and the public review routes use. The internal id counts up,
-- so it would let anyone walk every tenant's toilets; this one is a random UUID's 16 bytes
-- (122 random bits) in base64url, 22 characters. A volatile default is evaluated per row,
-- so adding the column fills existing toilets with distinct values too.
ALTER TABLE toilets ADD COLUMN public_id text NOT NULL
  DEFAULT translate(rtrim(encode(uuid_send(gen_random_uuid()), 'base64'), '='), '+/', '-_');
CREATE UNIQUE INDEX toilets_public_id ON toilets (public_id);
