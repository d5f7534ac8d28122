-- Code-number suppliers (issue 25): the order in which suppliers are asked for an app and country
-- (set by the operator; '*' any app or any country; without a row, CODE_SUPPLIER then
-- CODE_SUPPLIER_FAILOVER), each supplier's state as the servers saw it (last success, last refusal and
-- what the operator should do about it, a pause after an account-level refusal), and its recent
-- refusals, for `npm run admin -- codes supplier-status`.
CREATE TABLE code_supplier_routes (
  app text NOT NULL,
  country text NOT NULL,
  -- supplier names in the order they are asked, comma-separated
  suppliers text NOT NULL CHECK (suppliers ~ '^[a-z0-9_-]+(,[a-z0-9_-]+)*$'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app, country)
);

CREATE TABLE code_supplier_state (
  supplier text PRIMARY KEY,
  last_ok_at timestamptz,
  last_failure_at timestamptz,
  -- no_numbers | price | not_offered | config | refused | unavailable
  last_kind text,
  -- the supplier's own word for it (NO_BALANCE, no free phones, HTTP_503 …)
  last_reason text,
  last_answer text,
  -- what the operator should do
  last_action text,
  consecutive_failures integer NOT NULL DEFAULT 0,
  ok_count bigint NOT NULL DEFAULT 0,
  failure_count bigint NOT NULL DEFAULT 0,
  -- an account-level refusal (no balance, bad key, banned) skips the supplier until then
  paused_until timestamptz
);

CREATE TABLE code_supplier_events (
  id bigserial PRIMARY KEY,
  supplier text NOT NULL,
  at timestamptz NOT NULL,
  -- acquire | locked | poll | finish | prices
  operation text NOT NULL,
  kind text NOT NULL,
  reason text NOT NULL,
  answer text,
  action text,
  app text,
  country text
);
CREATE INDEX code_supplier_events_recent ON code_supplier_events (supplier, id);
CREATE INDEX code_supplier_events_at ON code_supplier_events (at);
