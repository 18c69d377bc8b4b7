-- An organisation's logo (the branding upload): shown in every member's frame.
CREATE TABLE organization_logos (
  organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  type            text NOT NULL CHECK (type IN ('logo')),
  mime_type       text NOT NULL,
  width           integer NOT NULL,
  height          integer NOT NULL,
  bytes           bytea NOT NULL,
  -- The content's hash: the address the configuration gives changes with the picture.
  digest          text NOT NULL,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, type)
);
