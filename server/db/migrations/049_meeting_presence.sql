-- Who is in a meeting's lobby (issue 21): one row per lobby window, kept by its heartbeat. A row
-- lapses at expires_at (the heartbeat's TTL, never past the occurrence's end), so a closed window or
-- an ended meeting stops counting without anyone deleting it. Contacts' "in a meeting" reads it.
CREATE TABLE meeting_presence (
  meeting_id  integer NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  client_id   text NOT NULL,
  state       text CHECK (state IN ('xa', 'dnd', 'away')),
  joined_at   timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  PRIMARY KEY (meeting_id, user_id, client_id)
);
CREATE INDEX meeting_presence_user_idx ON meeting_presence (user_id, expires_at);
