-- The organisation's call recording policy (the specification's ecr_* settings): 'on' records every
-- call (the user may pause), 'on_demand' records when the user starts it, 'off' never.
-- An organisation without a row is on_demand and may view its own recordings.
CREATE TABLE call_recording_policies (
  organization_id integer PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  status          text NOT NULL DEFAULT 'on_demand' CHECK (status IN ('on', 'on_demand', 'off')),
  can_view_own    boolean NOT NULL DEFAULT true
);

-- Calls in progress through Kamailio, from its dialog start to its end: who may control the call's
-- recording, and where that recording stands (rtpengine holds the media; this is the state).
CREATE TABLE live_calls (
  sip_call_id        text PRIMARY KEY,
  caller_user_id     integer REFERENCES users (id) ON DELETE CASCADE,
  callee_user_id     integer REFERENCES users (id) ON DELETE CASCADE,
  started_at         timestamptz NOT NULL DEFAULT now(),
  recording          text NOT NULL DEFAULT 'none' CHECK (recording IN ('none', 'recording', 'paused')),
  -- rtpengine opens a new file per start (a pause is a stop): segments of one recording, in order.
  recording_segments integer NOT NULL DEFAULT 0
);
CREATE INDEX live_calls_caller_idx ON live_calls (caller_user_id);
CREATE INDEX live_calls_callee_idx ON live_calls (callee_user_id);
