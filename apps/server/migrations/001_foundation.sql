-- Foundation: accounts, sessions, the ledger, sign-in codes, captchas, rate events and the dev outbox.
-- Money is bigint in ten-thousandths of the brand's unit. Times are timestamptz.

CREATE TABLE accounts (
  id bigserial PRIMARY KEY,
  brand text NOT NULL,
  email text,
  tel_code text,
  phone text,
  -- 1 active, 2 suspended (100008), 3 deleted (200018)
  status smallint NOT NULL DEFAULT 1,
  balance bigint NOT NULL DEFAULT 0,
  can_invite boolean NOT NULL DEFAULT true,
  can_set_inviter boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT accounts_phone_pair CHECK ((tel_code IS NULL) = (phone IS NULL))
);
CREATE UNIQUE INDEX accounts_brand_email ON accounts (brand, email) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX accounts_brand_phone ON accounts (brand, tel_code, phone) WHERE phone IS NOT NULL;

CREATE TABLE sessions (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  -- logout | refreshed | elsewhere | operator
  revoked_at timestamptz,
  revoke_reason text,
  user_agent text,
  ip text
);
CREATE INDEX sessions_account ON sessions (account_id) WHERE revoked_at IS NULL;

-- The bill: every balance change is one row, written in the transaction that changes the balance.
CREATE TABLE ledger (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  type smallint NOT NULL,
  charge bigint NOT NULL,
  before_balance bigint NOT NULL,
  after_balance bigint NOT NULL,
  options jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- a repeated request or notification carries the same key and is applied once
  idempotency_key text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_account_time ON ledger (account_id, created_at DESC);

-- Codes sent for sign-in and for verifying a phone or e-mail. Stored hashed.
CREATE TABLE verification_codes (
  id bigserial PRIMARY KEY,
  brand text NOT NULL,
  purpose text NOT NULL,
  -- e-mail address, or full number digits (country code + national number)
  address text NOT NULL,
  channel text NOT NULL,
  code_hash text NOT NULL,
  account_id bigint REFERENCES accounts (id),
  wrong_tries smallint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  ip text
);
CREATE INDEX verification_codes_lookup ON verification_codes (brand, purpose, address, created_at DESC);

CREATE TABLE captchas (
  id text PRIMARY KEY,
  answer text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

-- Counted events for rate limits that must hold across servers (code sends per address and per IP).
CREATE TABLE rate_events (
  id bigserial PRIMARY KEY,
  key text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rate_events_key_at ON rate_events (key, at DESC);

-- Dev mode: every code that would be mailed or texted, readable at GET /dev/outbox.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  channel text NOT NULL,
  to_address text NOT NULL,
  subject text,
  text text NOT NULL,
  code text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_to ON outbox (to_address, id DESC);
