-- Ad-hoc meetings (made from a chat's "Meet now" invite): instant, private, one colleague.
ALTER TABLE meetings ADD COLUMN ad_hoc boolean NOT NULL DEFAULT false;
