-- Verification codes (issue 12): a pool of platform numbers that receive app codes, locks (one holder
-- per number and app at a time), the code SMS received on them (each charged once, with its bill),
-- and the account's verification numbers (a number stays its user's for a month after its first
-- code unless subscribed).

-- The numbers a code supplier offers. `supplier` names the adapter that answers for the number
-- (simulator rows are the built-in simulator's). `apps` is the comma-separated list of the apps the
-- number receives codes for ('' every app).
CREATE TABLE code_pool (
  phone text PRIMARY KEY CHECK (phone ~ '^[0-9]{5,16}$'),
  country text NOT NULL,
  tel_code text NOT NULL,
  supplier text NOT NULL DEFAULT 'simulator',
  apps text NOT NULL DEFAULT '',
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX code_pool_country ON code_pool (supplier, country) WHERE enabled;

-- A number locked by an account to receive one app's codes, for the polling window. A live lock
-- (ended_at IS NULL) is unique per number and app: concurrent locks of one number give one holder.
CREATE TABLE code_locks (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  brand text NOT NULL,
  phone text NOT NULL,
  app text NOT NULL,
  country text NOT NULL,
  -- the price of one code when the lock was taken (ten-thousandths of the brand's unit)
  fee bigint NOT NULL CHECK (fee >= 0),
  supplier text NOT NULL,
  -- the supplier's own id of the activation (a real supplier's), null for the simulator
  supplier_ref text,
  locked_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ended_at timestamptz,
  -- expired | released | replaced | polled_out | operator
  end_reason text,
  CONSTRAINT code_locks_end_pair CHECK ((ended_at IS NULL) = (end_reason IS NULL))
);
CREATE UNIQUE INDEX code_locks_live ON code_locks (phone, app) WHERE ended_at IS NULL;
CREATE INDEX code_locks_account ON code_locks (account_id, phone, app, id);
CREATE INDEX code_locks_account_live ON code_locks (account_id) WHERE ended_at IS NULL;

-- A code SMS received on a locked number. `source_key` is the supplier's message id (supplier:id):
-- a message delivered twice is stored and charged once. `charge` is what it cost (>= 0; 0 when the
-- balance could not pay it, `ledger_id` null then and the text withheld).
CREATE TABLE code_sms (
  id bigserial PRIMARY KEY,
  sms_id text NOT NULL UNIQUE,
  source_key text NOT NULL UNIQUE,
  lock_id bigint NOT NULL REFERENCES code_locks (id),
  account_id bigint NOT NULL REFERENCES accounts (id),
  phone text NOT NULL,
  app text NOT NULL,
  sender text NOT NULL DEFAULT '',
  text text NOT NULL,
  code text NOT NULL DEFAULT '',
  charge bigint NOT NULL CHECK (charge >= 0),
  ledger_id bigint REFERENCES ledger (id),
  received_at timestamptz NOT NULL
);
CREATE INDEX code_sms_lock ON code_sms (lock_id, id);
CREATE INDEX code_sms_number ON code_sms (account_id, phone, app, received_at);

-- The account's verification numbers: a number and app stay the account's for a month after its
-- first code (valid_until), longer when subscribed (sub_status 1, next_payment_date).
CREATE TABLE code_numbers (
  phone text NOT NULL,
  app text NOT NULL,
  account_id bigint NOT NULL REFERENCES accounts (id),
  country text NOT NULL,
  first_used_at timestamptz NOT NULL,
  valid_until timestamptz NOT NULL,
  sub_status smallint NOT NULL DEFAULT 0 CHECK (sub_status IN (0, 1)),
  month_rent bigint NOT NULL DEFAULT 0 CHECK (month_rent >= 0),
  PRIMARY KEY (phone, app)
);
CREATE INDEX code_numbers_account ON code_numbers (account_id, app);

-- Prices: a received code (kind `code`, variant the app) and a month of keeping a number (kind
-- `code_month`), in ten-thousandths; operators replace rows (pricing import, npm run admin).
INSERT INTO rates (currency, kind, origin, country, variant, amount) VALUES
  ('usd', 'code', '*', '*', '*', 1000),
  ('usd', 'code', '*', 'US', 'whatsapp', 2500),
  ('usd', 'code', '*', 'US', 'telegram', 2000),
  ('usd', 'code', '*', 'US', 'google', 1500),
  ('usd', 'code', '*', 'US', 'openai', 3000),
  ('usd', 'code', '*', 'GB', 'whatsapp', 3000),
  ('usd', 'code_month', '*', '*', '*', 20000),
  ('cny', 'code', '*', '*', '*', 7000),
  ('cny', 'code_month', '*', '*', '*', 150000)
ON CONFLICT DO NOTHING;

-- The built-in simulator's pool (fictional ranges set aside for drama and tests: North American
-- 555-01xx, UK 07700 900xxx, Australian 0491 570xxx). Every fifth number takes only the three
-- biggest apps, as real supplier numbers often do.
INSERT INTO code_pool (phone, country, tel_code, apps)
SELECT '1206555' || lpad(i::text, 4, '0'), 'US', '1', CASE WHEN i % 5 = 0 THEN 'whatsapp,telegram,google' ELSE '' END
  FROM generate_series(100, 129) AS i;
INSERT INTO code_pool (phone, country, tel_code, apps)
SELECT '1604555' || lpad(i::text, 4, '0'), 'CA', '1', CASE WHEN i % 5 = 0 THEN 'whatsapp,telegram,google' ELSE '' END
  FROM generate_series(100, 111) AS i;
INSERT INTO code_pool (phone, country, tel_code, apps)
SELECT '447700900' || lpad(i::text, 3, '0'), 'GB', '44', CASE WHEN i % 5 = 0 THEN 'whatsapp,telegram,google' ELSE '' END
  FROM generate_series(100, 115) AS i;
INSERT INTO code_pool (phone, country, tel_code, apps)
SELECT '61491570' || lpad(i::text, 3, '0'), 'AU', '61', CASE WHEN i % 5 = 0 THEN 'whatsapp,telegram,google' ELSE '' END
  FROM generate_series(100, 111) AS i;
