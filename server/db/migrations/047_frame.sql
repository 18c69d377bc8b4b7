-- The frame's remaining parts (issue 23): contact-center links, confirmed announcements, and
-- analytics events kept per organisation (an account owner reads their own organisation's counts).
CREATE TABLE contact_center_links (
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type       text NOT NULL CHECK (type IN ('cc', 'ivr')),
  admin_url  text NOT NULL,
  agent_url  text,
  PRIMARY KEY (user_id, type)
);

CREATE TABLE announcement_confirmations (
  user_id         integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  announcement_id text NOT NULL,
  confirmed_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, announcement_id)
);

ALTER TABLE analytics_events ADD COLUMN organization_id integer REFERENCES organizations (id) ON DELETE CASCADE;
UPDATE analytics_events e SET organization_id = u.organization_id FROM users u WHERE u.id = e.user_id;
CREATE INDEX analytics_events_org_idx ON analytics_events (organization_id, created_at);
