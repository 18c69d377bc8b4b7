-- Click-dial's limits per user (server/calls/click-dial-limits.ts), shared by every API process: the
-- one ring in progress (a lease, so a process that dies mid-ring does not hold the user forever) and
-- the starts of the last minute.
CREATE TABLE click_dial_active (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  since   timestamptz NOT NULL
);
CREATE TABLE click_dial_starts (
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL
);
CREATE INDEX click_dial_starts_user_idx ON click_dial_starts (user_id, started_at);
