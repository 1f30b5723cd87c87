-- Every sign-in identifier (lower-cased user name, confirmed e-mail, phone) of every live
-- user, one namespace: a user name can no longer be another account's phone, and sign-in
-- by `filter` names at most one account. The primary key makes concurrent claims race-free.
CREATE TABLE login_identifiers (
  identifier  text PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id),
  kind        text NOT NULL
);
CREATE INDEX login_identifiers_user_idx ON login_identifiers (user_id);

-- Existing collisions are resolved in this order, older accounts first within a step:
-- ordinary user names, then e-mails (confirmed by a captcha at sign-up), then phones, and
-- last user names that look like a phone number or an e-mail (the attack's shape). A
-- loser keeps its column but cannot sign in with that identifier.
INSERT INTO login_identifiers (identifier, user_id, kind)
SELECT lower(user_name), id, 'user_name' FROM users
 WHERE NOT is_delete AND position('@' in user_name) = 0
   AND NOT (user_name ~ '^[0-9+. -]+$' AND length(regexp_replace(user_name, '[^0-9]', '', 'g')) >= 6)
 ORDER BY id
ON CONFLICT DO NOTHING;
INSERT INTO login_identifiers (identifier, user_id, kind)
SELECT lower(email), id, 'email' FROM users
 WHERE NOT is_delete AND email IS NOT NULL AND email <> '' ORDER BY id
ON CONFLICT DO NOTHING;
INSERT INTO login_identifiers (identifier, user_id, kind)
SELECT lower(phone_num), id, 'phone_num' FROM users
 WHERE NOT is_delete AND phone_num <> '' ORDER BY id
ON CONFLICT DO NOTHING;
INSERT INTO login_identifiers (identifier, user_id, kind)
SELECT lower(user_name), id, 'user_name' FROM users
 WHERE NOT is_delete ORDER BY id
ON CONFLICT DO NOTHING;

-- An e-mail change waits here until the account's owner enters the code mailed to it.
ALTER TABLE users ADD COLUMN pending_email text;

-- Mini-program tokens used to be chosen by the client ("1" worked). Only server-issued ones
-- count from now on: old bindings are dropped, mini-programs bind again once.
DELETE FROM user_tokens WHERE wc_token IS NOT NULL;
