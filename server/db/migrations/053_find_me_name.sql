-- Find-me's recorded name (recordName): what a caller hears before "please hold while we locate…".
ALTER TABLE user_call_routing ADD COLUMN find_me_name_media_id integer REFERENCES media_blobs (id);
