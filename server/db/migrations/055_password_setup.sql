-- One-time "set your password" links (issue 24): a user imported without a password gets one from
-- an administrator. Single use, with an expiry; only the hash is stored, so a database reader
-- cannot use a link. Issuing a new link for a user deletes the user's unused ones.
CREATE TABLE password_setup_tokens (
  token_hash  text PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  issued_by   integer REFERENCES users (id) ON DELETE SET NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX password_setup_tokens_user_idx ON password_setup_tokens (user_id);
