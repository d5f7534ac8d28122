-- The developer platform (issue 21): API keys, webhook endpoints and their deliveries, the
-- SMS-Activate-compatible activations, and the delivery time of outgoing messages.

-- An API key of an account on its brand. The key itself is never stored: its SHA-256 (hex) is, with
-- the first characters shown in lists. Scopes are a comma-separated list of the contract's ApiScope.
CREATE TABLE api_keys (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  brand text NOT NULL,
  name text NOT NULL,
  prefix text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  scopes text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id, id);

-- A webhook endpoint of an account: where its events go (events: comma-separated WebhookEventType),
-- signed with `secret` (Standard Webhooks, whsec_…). `failing_since` is the first failed try since
-- the last success; a day of failures disables the endpoint (`disabled_reason` 'failing'; 'owner'
-- when its owner switched it off). balance.low fires once when the balance falls below
-- `balance_threshold` (ten-thousandths), and again only after it rose to it (`balance_low`).
CREATE TABLE webhook_endpoints (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text NOT NULL,
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  failing_since timestamptz,
  balance_threshold bigint,
  balance_low boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, id);

-- One event for one endpoint: the exact body signed, its webhook-id (the event's, the same on every
-- try), and how its tries went. One row per (endpoint, event): an event met twice is delivered once.
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  endpoint_id bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  account_id bigint NOT NULL REFERENCES accounts (id),
  msg_id text NOT NULL,
  event_type text NOT NULL,
  payload text NOT NULL,
  -- pending | succeeded | failed
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  last_status integer,
  last_error text,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  UNIQUE (endpoint_id, msg_id)
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);

-- An activation of the SMS-Activate-compatible API (/stubs/handler_api.php): a code lock taken by an
-- API key, with the protocol's own states (ready, another SMS asked for at retry_at, finished).
CREATE TABLE sms_activations (
  lock_id bigint PRIMARY KEY REFERENCES code_locks (id),
  account_id bigint NOT NULL REFERENCES accounts (id),
  key_id bigint NOT NULL REFERENCES api_keys (id),
  ready_at timestamptz,
  retry_at timestamptz,
  finished_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sms_activations_account ON sms_activations (account_id, lock_id DESC);

-- When the carrier (or the platform, for a message between two of its numbers) delivered an outgoing
-- message, epoch milliseconds like `date`; NULL until then.
ALTER TABLE messages ADD COLUMN delivered_at bigint;
