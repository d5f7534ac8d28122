-- Numbers (issue 11): call records (getCallList, the Call history panel). One row per call per
-- account; an incoming call's charge is its bill (type 4) in the same transaction.
CREATE TABLE call_records (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  direction text NOT NULL CHECK (direction IN ('in', 'out')),
  from_number text NOT NULL,
  to_number text NOT NULL,
  -- seconds talked (or recorded), and billed (whole minutes, rounded up, in seconds)
  duration integer NOT NULL CHECK (duration >= 0),
  billing_duration integer NOT NULL CHECK (billing_duration >= 0 AND billing_duration % 60 = 0),
  tariff_id integer NOT NULL DEFAULT 0,
  -- voice | forward | voicemail (constants.callTypes)
  type text NOT NULL CHECK (type IN ('voice', 'forward', 'voicemail')),
  charge bigint NOT NULL DEFAULT 0,
  ledger_id bigint REFERENCES ledger (id),
  -- the carrier's call id: a repeated webhook records the call once
  carrier_id text NOT NULL,
  created_at timestamptz NOT NULL,
  CONSTRAINT call_records_carrier UNIQUE (account_id, carrier_id)
);
CREATE INDEX call_records_account ON call_records (account_id, created_at DESC, id DESC);
