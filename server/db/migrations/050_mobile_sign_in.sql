-- Mobile sign-in codes: the QR code of the mobile download page carries one. Single use and
-- short-lived; only the hash is stored, so a database reader cannot sign in with it.
CREATE TABLE mobile_sign_in_codes (
  code_hash   text PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX mobile_sign_in_codes_user_idx ON mobile_sign_in_codes (user_id);
