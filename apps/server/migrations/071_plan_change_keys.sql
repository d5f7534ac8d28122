-- Plan-change keys (issue 18): a plan change moved now is billed under a key of its own. The key was
-- made of the two plans, the payment date and the day, so a change repeated the same day (A → B, B → A,
-- A → B) found the first one's key: the third change applied with no bill while its history entry
-- showed a charge, pointing at the first change's bill.
--
-- `changes` counts a subscription's plan changes made now; the next one's key is
-- `number-rent:<number>:change-<changes>` (services/subscriptions.ts), read and moved on under the
-- subscription's row lock, so two changes never share a key and one change request, however often it
-- is sent, is one change (a repeat finds it made already and answers it again).
ALTER TABLE number_subscriptions ADD COLUMN changes integer NOT NULL DEFAULT 0 CHECK (changes >= 0);

-- The history says what the ledger did: an entry with a charge points at its own bill of that amount
-- and account (no other entry points at it); an entry without a bill charged nothing. Entries the
-- defect wrote (a second entry pointing at an earlier entry's bill) charged nothing: they say so now.
UPDATE subscription_history h SET ledger_id = NULL, charge = 0
 WHERE h.ledger_id IS NOT NULL
   AND EXISTS (SELECT 1 FROM subscription_history e WHERE e.ledger_id = h.ledger_id AND e.id < h.id);
CREATE UNIQUE INDEX subscription_history_ledger ON subscription_history (ledger_id) WHERE ledger_id IS NOT NULL;

CREATE FUNCTION subscription_history_as_billed() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER subscription_history_as_billed BEFORE INSERT OR UPDATE OF account_id, charge, ledger_id
  ON subscription_history FOR EACH ROW EXECUTE FUNCTION subscription_history_as_billed();
