-- Rentals (issue 19): one table pair for everything paid by the period. A rented number
-- (number_subscriptions) and a kept verification number (code_numbers) are both a rental: an account
-- holds something until `valid_until`, and when `auto_renew` is on the next period is charged then.
-- Their histories (subscription_history, code_number_history) are one history whose `charge` is
-- signed as its bill (a charge of 2.00 is -20000, as the ledger row it points at); the verification
-- numbers' history stored it positive and flipped it when read. The data moves with the tables.
--
-- Kinds: `number` (a rented number, `number_id`, gone with its virtual_numbers row; its rent is due on
-- virtual_numbers.payment_date, which valid_until mirrors at 00:00 UTC) and `code_number` (a
-- verification number kept for one app, `phone` + `app`: the account's for a month after its first
-- code, longer while kept). The kind follows from the key and is stored for the sweep and the reads.
CREATE TABLE rentals (
  id bigserial PRIMARY KEY,
  number_id bigint UNIQUE REFERENCES virtual_numbers (id) ON DELETE CASCADE,
  phone text,
  app text,
  kind text GENERATED ALWAYS AS (CASE WHEN number_id IS NULL THEN 'code_number' ELSE 'number' END) STORED,
  account_id bigint NOT NULL REFERENCES accounts (id),
  -- code_number: the number's country (a rented number's is on virtual_numbers)
  country text,
  -- number: its plan, and a plan change waiting for the next period
  plan_id integer REFERENCES plans (id),
  pending_plan_id integer REFERENCES plans (id),
  -- the next period is charged at valid_until (false: the rental ends then)
  auto_renew boolean NOT NULL DEFAULT true,
  -- code_number: the month's rent while kept (a rented number's rent is its plan's)
  rent bigint NOT NULL DEFAULT 0 CHECK (rent >= 0),
  -- the end of the period paid for (or given): the next charge is due then
  valid_until timestamptz NOT NULL,
  -- number: the first renewal date that could not be paid (the grace period runs from it)
  grace_since date,
  -- number: plan changes made now, counted (the next one's idempotency key, migration 071)
  changes integer NOT NULL DEFAULT 0 CHECK (changes >= 0),
  -- number: when it was rented; code_number: its first code for the account
  started_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT rentals_key CHECK (
    (number_id IS NOT NULL AND phone IS NULL AND app IS NULL AND plan_id IS NOT NULL)
    OR (number_id IS NULL AND phone IS NOT NULL AND app IS NOT NULL AND country IS NOT NULL)),
  CONSTRAINT rentals_code_number UNIQUE (phone, app)
);
CREATE INDEX rentals_account ON rentals (account_id, kind, app);
-- The renewal sweep reads the due rentals a page at a time in (valid_until, id) order, each page after
-- the last row of the one before; a verification number not kept is never due (it just runs out).
CREATE INDEX rentals_due ON rentals (valid_until, id) WHERE number_id IS NOT NULL OR auto_renew;

INSERT INTO rentals (number_id, account_id, plan_id, pending_plan_id, auto_renew, valid_until, grace_since,
                     changes, started_at)
SELECT s.number_id, s.account_id, s.plan_id, s.pending_plan_id, s.auto_renew,
       v.payment_date::timestamp AT TIME ZONE 'UTC', s.grace_since, s.changes, s.created_at
  FROM number_subscriptions s JOIN virtual_numbers v ON v.id = s.number_id
 ORDER BY s.number_id;
INSERT INTO rentals (phone, app, account_id, country, auto_renew, rent, valid_until, started_at)
SELECT n.phone, n.app, n.account_id, n.country, n.sub_status = 1, n.month_rent, n.valid_until, n.first_used_at
  FROM code_numbers n
 ORDER BY n.first_used_at, n.phone, n.app;

-- The history of both kinds: numbers' types are constants.subscriptionHistoryTypes, verification
-- numbers' constants.verificationHistoryTypes (1 subscribed, 2 renewed, 100 lapsed / reclaimed).
CREATE TABLE rental_history (
  id bigserial PRIMARY KEY,
  kind text GENERATED ALWAYS AS (CASE WHEN app IS NULL THEN 'number' ELSE 'code_number' END) STORED,
  account_id bigint NOT NULL REFERENCES accounts (id),
  -- the number's digits with its country code (a verification number's phone)
  full_number text NOT NULL,
  -- number: the country code and the national number
  tel_code text,
  number text,
  -- code_number: the app and the number's country
  app text,
  country text,
  type smallint NOT NULL CHECK (type IN (1, 2, 3, 5, 6, 7, 100)),
  -- signed as its bill, in ten-thousandths (0 when nothing was charged)
  charge bigint NOT NULL DEFAULT 0,
  plan_id integer REFERENCES plans (id),
  ledger_id bigint REFERENCES ledger (id),
  -- code_number: subscribed, the next charge; lapsed, the charge that failed
  next_payment_at timestamptz,
  -- type 100: the last day the rental may be restored (a number's at 00:00 UTC of its last day)
  res_at timestamptz,
  -- number, type 100: set once the number was re-subscribed from this entry
  restored boolean NOT NULL DEFAULT false,
  -- the app clock's time of the event (month tabs)
  created_at timestamptz NOT NULL,
  CONSTRAINT rental_history_key CHECK (
    (app IS NULL AND tel_code IS NOT NULL AND number IS NOT NULL)
    OR (app IS NOT NULL AND country IS NOT NULL))
);
CREATE INDEX rental_history_account ON rental_history (account_id, kind, created_at DESC, id DESC);

-- a number's entries keep their ids (a history id the page holds still restores it); a verification
-- number's follow them, in their order
INSERT INTO rental_history (id, account_id, full_number, tel_code, number, type, charge, plan_id, ledger_id,
                            res_at, restored, created_at)
SELECT h.id, h.account_id, h.full_number, h.tel_code, h.number, h.type, h.charge, h.plan_id, h.ledger_id,
       h.res_date::timestamp AT TIME ZONE 'UTC', h.restored, h.created_at
  FROM subscription_history h
 ORDER BY h.id;
SELECT setval(pg_get_serial_sequence('rental_history', 'id'),
              GREATEST((SELECT max(id) FROM rental_history), 1), (SELECT count(*) > 0 FROM rental_history));
INSERT INTO rental_history (account_id, full_number, app, country, type, charge, ledger_id, next_payment_at,
                            res_at, created_at)
SELECT h.account_id, h.phone, h.app, h.country, h.type, -h.charge, h.ledger_id, h.next_payment_date,
       h.res_date, h.created_at
  FROM code_number_history h
 ORDER BY h.id;

-- The history says what the ledger did (migration 071, now for both kinds): an entry with a charge
-- points at its own bill of that amount and account; an entry without a bill charged nothing.
CREATE UNIQUE INDEX rental_history_ledger ON rental_history (ledger_id) WHERE ledger_id IS NOT NULL;

CREATE FUNCTION rental_history_as_billed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bill record;
BEGIN
  IF NEW.ledger_id IS NULL THEN
    IF NEW.charge <> 0 THEN
      RAISE EXCEPTION 'a subscription history entry of % without a bill', NEW.charge USING ERRCODE = 'NM070';
    END IF;
    RETURN NEW;
  END IF;
  SELECT account_id, charge INTO bill FROM ledger WHERE id = NEW.ledger_id;
  IF bill.account_id IS DISTINCT FROM NEW.account_id OR bill.charge IS DISTINCT FROM NEW.charge THEN
    RAISE EXCEPTION 'a subscription history entry of % on account % for bill % of % on account %',
      NEW.charge, NEW.account_id, NEW.ledger_id, bill.charge, bill.account_id USING ERRCODE = 'NM070';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER rental_history_as_billed BEFORE INSERT OR UPDATE OF account_id, charge, ledger_id
  ON rental_history FOR EACH ROW EXECUTE FUNCTION rental_history_as_billed();

DROP TABLE subscription_history;
DROP FUNCTION subscription_history_as_billed();
DROP TABLE code_number_history;
DROP TABLE number_subscriptions;
DROP TABLE code_numbers;
