-- The hashes of a user's earlier passwords, so a change can refuse the last ones (the password
-- panel); and the user's UC settings (GET/PUT /v1/users/{id}/settings/uc), one JSON object per user.
CREATE TABLE password_history (
  id            bigserial PRIMARY KEY,
  user_id       integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  password_hash text NOT NULL,
  replaced_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_history_user_idx ON password_history (user_id, id DESC);

CREATE TABLE user_uc_settings (
  user_id    integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  settings   jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
