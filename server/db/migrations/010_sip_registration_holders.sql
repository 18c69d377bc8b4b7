-- Which web client holds each user's phone registration ("Only one web client may hold the phone
-- registration"). A hold lapses at expires_at unless its peer renews it; an expired row is free
-- for anyone and is simply overwritten, so no clean-up job is needed. Shared by every API copy.
CREATE TABLE sip_registration_holders (
  user_id     integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  peer        text NOT NULL CHECK (length(peer) BETWEEN 1 AND 100),
  client      text NOT NULL CHECK (client IN ('web')),
  -- When this peer took the hold (kept across its renewals).
  acquired_at timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
