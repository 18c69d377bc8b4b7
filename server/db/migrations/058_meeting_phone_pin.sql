-- Dial-in (issue 22): the PIN a phone gives with the meeting's ID to join its audio. Its own, not
-- the meeting's PIN (which is optional and typed in the lobby): every meeting can be dialled into,
-- and knowing the dial-in PIN lets a caller only into the audio. Existing meetings get one each
-- (a volatile default is evaluated per row when the column is added).
ALTER TABLE meetings ADD COLUMN phone_pin text NOT NULL
  DEFAULT lpad(floor(random() * 1000000)::int::text, 6, '0') CHECK (phone_pin ~ '^[0-9]{6}$');
