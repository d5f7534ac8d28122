-- Core (issue 8): the ledger is the only way a balance moves, enforced by the database; the sign-in
-- codes take a name of their own ("verification codes" is the code-receiving product).

ALTER TABLE verification_codes RENAME TO signin_codes;
ALTER TABLE signin_codes RENAME CONSTRAINT verification_codes_pkey TO signin_codes_pkey;
ALTER TABLE signin_codes RENAME CONSTRAINT verification_codes_account_id_fkey TO signin_codes_account_id_fkey;
ALTER INDEX verification_codes_lookup RENAME TO signin_codes_lookup;
ALTER SEQUENCE verification_codes_id_seq RENAME TO signin_codes_id_seq;

-- The bill types of the contract (constants.billTypes; test/schema.test.ts keeps the two equal) and
-- whether a charge of the type may leave a balance below zero: operator adjustments (an operator's
-- debit records what happened) and refunds (reversing a credit already spent). Every other charge is
-- refused (400001) rather than go below zero. A later area that needs it changes its row in its own
-- migration.
CREATE TABLE bill_types (
  type smallint PRIMARY KEY,
  name text NOT NULL UNIQUE,
  allow_negative boolean NOT NULL DEFAULT false
);
INSERT INTO bill_types (type, name, allow_negative) VALUES
  (1, 'recharge', false),
  (2, 'sms', false),
  (3, 'mms', false),
  (4, 'call', false),
  (5, 'numberRent', false),
  (6, 'codeReceive', false),
  (7, 'inviteBonus', false),
  (8, 'refund', true),
  (9, 'adjustment', true),
  (10, 'redeemBonus', false),
  (50, 'simOrPlanOrder', false);

ALTER TABLE ledger ADD CONSTRAINT ledger_bill_type FOREIGN KEY (type) REFERENCES bill_types (type);
ALTER TABLE ledger ADD CONSTRAINT ledger_arithmetic CHECK (after_balance = before_balance + charge);

-- A ledger row moves its account's balance, from exactly its before_balance (a row computed from a
-- stale balance is refused), and a charge may not end below zero unless its type allows it.
-- AFTER INSERT: a row skipped by ON CONFLICT (a repeated idempotency key) moves nothing.
CREATE FUNCTION ledger_moves_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.charge < 0 AND NEW.after_balance < 0
     AND NOT (SELECT allow_negative FROM bill_types WHERE type = NEW.type) THEN
    RAISE EXCEPTION 'bill type % may not take account % below zero', NEW.type, NEW.account_id
      USING ERRCODE = 'NM001';
  END IF;
  UPDATE accounts SET balance = NEW.after_balance, updated_at = now()
   WHERE id = NEW.account_id AND balance = NEW.before_balance;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the balance of account % is not %', NEW.account_id, NEW.before_balance
      USING ERRCODE = 'NM002';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_moves_balance AFTER INSERT ON ledger
  FOR EACH ROW EXECUTE FUNCTION ledger_moves_balance();

-- Nothing else writes a balance: a new account starts at zero, and an UPDATE of balance is refused
-- unless it comes from the trigger above (trigger depth 2).
CREATE FUNCTION accounts_balance_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.balance <> 0 THEN
      RAISE EXCEPTION 'a new account starts with a zero balance' USING ERRCODE = 'NM003';
    END IF;
  ELSIF NEW.balance IS DISTINCT FROM OLD.balance AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'accounts.balance changes only through a ledger row' USING ERRCODE = 'NM003';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER accounts_balance_guard BEFORE INSERT OR UPDATE OF balance ON accounts
  FOR EACH ROW EXECUTE FUNCTION accounts_balance_guard();

-- Bills are history: never changed, never deleted.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are never changed or deleted' USING ERRCODE = 'NM004';
END $$;
CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON ledger
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
