-- Keeping verification numbers (issue 12): the history of an account's verification numbers, month
-- by month (getSubCodeNumberList): 1 subscribed, 2 renewed, 100 lapsed (re-subscribable until
-- res_date). Renewals are jobs (codes.renew), one per number and period, run once across servers.
CREATE TABLE code_number_history (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  phone text NOT NULL,
  app text NOT NULL,
  country text NOT NULL,
  type smallint NOT NULL CHECK (type IN (1, 2, 100)),
  -- what the entry cost (>= 0), with its bill
  charge bigint NOT NULL DEFAULT 0 CHECK (charge >= 0),
  ledger_id bigint REFERENCES ledger (id),
  -- subscribed: the next charge; lapsed: the charge that failed
  next_payment_date timestamptz,
  -- lapsed: the last day the number may be restored
  res_date timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX code_number_history_account ON code_number_history (account_id, created_at, id);
