-- Resumable chunked uploads of media (issue 17). The bytes wait in a part file under
-- DATA_DIR (never in the database); this row says whose it is, how big it will be and what
-- it is, so a client that lost its connection (or a restarted server) resumes from what the
-- part file holds. A finished upload becomes a media_items row and its row here is removed.
CREATE TABLE media_uploads (
  id           text PRIMARY KEY,
  user_id      integer NOT NULL REFERENCES users (id),
  created_by   integer NOT NULL REFERENCES users (id),
  kind         text NOT NULL CHECK (kind IN ('picture', 'video')),
  name         text NOT NULL,
  size         bigint NOT NULL,
  fingerprint  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX media_uploads_fingerprint ON media_uploads (created_by, user_id, fingerprint);

-- A user's storage quota in bytes when it is not the default (MEDIA_LIMITS.quotaBytes).
CREATE TABLE media_quotas (
  user_id      integer PRIMARY KEY REFERENCES users (id),
  quota_bytes  bigint NOT NULL
);
