-- Failed sign-ins per account and per client address, shared by every API copy (the login throttle,
-- server/auth/throttle.ts). A row is forgotten once its last failure is older than the window.
CREATE TABLE login_failures (
  key             text PRIMARY KEY,
  failures        integer NOT NULL,
  last_failure_at timestamptz NOT NULL,
  blocked_until   timestamptz
);
CREATE INDEX login_failures_last_idx ON login_failures (last_failure_at);
