-- Issue 24 §2, the send path's CPU: migration 170 counted the payment history's rows with a statement
-- trigger on the ledger, which ran (a PL/pgSQL call reading its transition table) for every bill,
-- although only top-ups and bonuses count. The same count is now kept by a row trigger whose WHEN
-- clause skips every other bill before any function is called: an SMS, a call or a rent bill costs
-- the count nothing. A ledger row belongs to one account and is never changed or deleted (migration
-- 006), so a row's insert is all there is to count; the rows of one statement are upserted in the
-- order they are written (payments are written one bill per statement).
DROP TRIGGER ledger_count_history ON ledger;

CREATE OR REPLACE FUNCTION ledger_count_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO history_counts AS c (account_id, kind, month, n)
  VALUES (NEW.account_id, 'payment', date_trunc('month', NEW.created_at AT TIME ZONE 'UTC')::date, 1)
  ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + 1;
  RETURN NULL;
END $$;

-- the payment history's types (repositories/payments.ts paymentHistoryTypes), credits only
CREATE TRIGGER ledger_count_history AFTER INSERT ON ledger
  FOR EACH ROW WHEN (NEW.type IN (1, 7, 10) AND NEW.charge > 0) EXECUTE FUNCTION ledger_count_history();
