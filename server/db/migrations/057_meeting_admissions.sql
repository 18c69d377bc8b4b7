-- The waiting room (issue 22): who asked to come into a meeting's media and what the host said.
-- `occupant` is a user's id, or a guest's id negated (as the lobby lists them).
CREATE TABLE meeting_admissions (
  meeting_id  integer NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
  occupant    integer NOT NULL,
  name        text NOT NULL,
  status      text NOT NULL CHECK (status IN ('waiting', 'admitted', 'denied')),
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (meeting_id, occupant)
);
