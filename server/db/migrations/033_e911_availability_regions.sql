-- The profile panel's read-only parts: a user's emergency (E911) address, and the availability
-- regions of an organisation with the region each user is served from.
CREATE TABLE availability_regions (
  id              serial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name            text NOT NULL,
  description     text NOT NULL DEFAULT '',
  display_name    text NOT NULL,
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  UNIQUE (organization_id, name)
);

CREATE TABLE network_test_servers (
  id                     serial PRIMARY KEY,
  availability_region_id integer NOT NULL UNIQUE REFERENCES availability_regions (id) ON DELETE CASCADE,
  hostname               text NOT NULL,
  boot_lib_path          text NOT NULL
);

ALTER TABLE users ADD COLUMN availability_region_id integer REFERENCES availability_regions (id) ON DELETE SET NULL;

CREATE TABLE user_e911_addresses (
  user_id   integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  street1   text NOT NULL,
  street2   text NOT NULL DEFAULT '',
  city      text NOT NULL,
  zip_code  text NOT NULL,
  state     text NOT NULL DEFAULT '',
  country   text NOT NULL DEFAULT 'USA',
  county    text NOT NULL DEFAULT ''
);
