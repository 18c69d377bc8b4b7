-- Where a user's calls go, as Kamailio asks it at each incoming call (GET /internal/sip/route):
-- do-not-disturb answers busy; "forward always" sends every call to a destination at once.
-- "default" is the forward used when a call is not answered (kept for the calling preferences).
-- Destinations keep the specification's shape: {destination_type, destination_id,
-- destination_name, destination_parameter}.
CREATE TABLE user_call_routing (
  user_id         integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  do_not_disturb  boolean NOT NULL DEFAULT false,
  forward_always  jsonb,
  forward_default jsonb,
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- Calls made through Kamailio are reported by SIP Call-ID, possibly more than once (answered,
-- then ended): one row per party and call.
ALTER TABLE call_history ADD COLUMN sip_call_id text;
CREATE UNIQUE INDEX call_history_user_sip_call_key ON call_history (user_id, sip_call_id) WHERE sip_call_id IS NOT NULL;
