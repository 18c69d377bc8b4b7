-- Phones in the waiting room (issue 22): a phone dialled into a meeting with a waiting room waits
-- in meeting_admissions like a person. `phone` is its caller number (the host's list shows
-- "Phone <number>"); its occupant id comes from this sequence, a range of its own below the guests'
-- (a guest is its id negated, and guest ids would need a billion rows to reach it).
ALTER TABLE meeting_admissions ADD COLUMN phone text;
CREATE SEQUENCE meeting_phone_occupants AS integer MINVALUE -2147483647 MAXVALUE -1073741825 START WITH -2147483647 CYCLE;
