-- Failed sign-ins (issue 12): counted per (account, source) for the lock, and per account
-- across all sources for a growing delay. The account is `u<id>` for a real one and a keyed
-- hash of the typed name for an unknown one, so both behave alike; sources are keyed hashes
-- of the client address, never the address itself.
CREATE TABLE login_failures (
  account       text NOT NULL,
  source        text NOT NULL,
  failures      integer NOT NULL DEFAULT 0,
  since         timestamptz NOT NULL DEFAULT now(),
  locked_until  timestamptz,
  PRIMARY KEY (account, source)
);
CREATE INDEX login_failures_since_idx ON login_failures (since);

CREATE TABLE login_throttle (
  account        text PRIMARY KEY,
  failures       integer NOT NULL DEFAULT 0,
  since          timestamptz NOT NULL DEFAULT now(),
  blocked_until  timestamptz
);
CREATE INDEX login_throttle_since_idx ON login_throttle (since);

-- Addresses an account signed in from recently: they pass the account-wide delay.
CREATE TABLE login_sources (
  user_id    integer NOT NULL REFERENCES users (id),
  source     text NOT NULL,
  last_seen  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, source)
);

-- The key of those hashes: one per installation, shared by every server copy.
CREATE TABLE login_secret (
  id    integer PRIMARY KEY CHECK (id = 1),
  salt  text NOT NULL
);
INSERT INTO login_secret (id, salt)
  VALUES (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
