-- Guests of a meeting (issue 22): people without an account who joined with an e-mail address and
-- the meeting's ID. A guest's token names the row (sub = guest:<id>); the row goes with its meeting.
CREATE TABLE meeting_guests (
  id          serial PRIMARY KEY,
  meeting_id  integer NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  email       text NOT NULL,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX meeting_guests_meeting_idx ON meeting_guests (meeting_id);

-- A guest's lobby places, as meeting_presence holds users' (kept apart: a guest is no user, and the
-- contacts' "in a meeting" reads only colleagues).
CREATE TABLE meeting_guest_presence (
  meeting_id  integer NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  guest_id    integer NOT NULL REFERENCES meeting_guests (id) ON DELETE CASCADE,
  client_id   text NOT NULL,
  joined_at   timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  PRIMARY KEY (meeting_id, guest_id, client_id)
);
