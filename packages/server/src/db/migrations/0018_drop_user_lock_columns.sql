-- Sign-in failures are counted per (account, address) in login_failures and per account in
-- login_throttle (0014); the account-wide lock columns of 0001 are no longer read or written.
ALTER TABLE users DROP COLUMN failed_logins;
ALTER TABLE users DROP COLUMN failed_since;
ALTER TABLE users DROP COLUMN locked_until;
