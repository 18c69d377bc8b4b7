CREATE TABLE analytics_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     integer REFERENCES users (id) ON DELETE SET NULL,
  action_type text NOT NULL,
  session_id  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX analytics_events_created_idx ON analytics_events (created_at);
CREATE INDEX analytics_events_action_idx ON analytics_events (action_type, created_at);
