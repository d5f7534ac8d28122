-- Security (issue 9): secrets every server shares, and spent proof-of-work challenges.

-- Random secrets made by the first server that needs one (the proof-of-work HMAC key), so every
-- server of a deployment signs and checks with the same key without configuration.
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A solved proof-of-work challenge counts once: its signature's hash is kept until it expires.
CREATE TABLE pow_spent (
  challenge_hash text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX pow_spent_expires ON pow_spent (expires_at);
