-- Issue 24 §4, histories flat at scale: the page-numbered histories' month totals (totalRows of
-- getPaymentList, getNormalSmsList, getCallList, getSubscriptionList) are kept per account, kind and
-- UTC month by the tables' own statement triggers, in the transaction that writes the rows, instead of
-- counted row by row on every page (a sequential count of 100,000 rows was most of a page's time).
-- And every month's page is read in the order of an index: account, month range, newest first.

-- no row of the four tables is written while the counts are taken and their triggers created
LOCK TABLE ledger, messages, call_records, rental_history IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE history_counts (
  account_id bigint NOT NULL,
  -- payment: ledger rows of types recharge, inviteBonus, redeemBonus (1, 7, 10) with a charge > 0;
  -- sms: messages not deleted (by their date, epoch ms); call: call_records; number: rental_history
  -- of kind number
  kind text NOT NULL CHECK (kind IN ('payment', 'sms', 'call', 'number')),
  -- the first day of the UTC month
  month date NOT NULL,
  -- never below zero by construction (a decrement is of rows counted before); no CHECK: the
  -- decrements go in as upserts of a negative n, which a CHECK would refuse before the conflict
  n bigint NOT NULL,
  PRIMARY KEY (account_id, kind, month)
);

-- the counts as they stand (a migration keeps the data)
INSERT INTO history_counts (account_id, kind, month, n)
SELECT account_id, 'payment', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*)
  FROM ledger WHERE type IN (1, 7, 10) AND charge > 0
 GROUP BY 1, 3;
INSERT INTO history_counts (account_id, kind, month, n)
SELECT account_id, 'sms', date_trunc('month', to_timestamp(date / 1000) AT TIME ZONE 'UTC')::date, count(*)
  FROM messages WHERE NOT deleted
 GROUP BY 1, 3;
INSERT INTO history_counts (account_id, kind, month, n)
SELECT account_id, 'call', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*)
  FROM call_records
 GROUP BY 1, 3;
INSERT INTO history_counts (account_id, kind, month, n)
SELECT account_id, 'number', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*)
  FROM rental_history WHERE kind = 'number'
 GROUP BY 1, 3;

-- Each trigger adds its statement's changes (rows counted in, rows counted out) to the counts. The
-- rows are upserted in key order, so two statements that touch the same counts (a message written to
-- both accounts of a platform chat) take their row locks in the same order and cannot deadlock on them.

-- ledger rows are never changed or deleted (migration 006): inserts only
CREATE FUNCTION ledger_count_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO history_counts AS c (account_id, kind, month, n)
  SELECT account_id, 'payment', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*)
    FROM new_rows WHERE type IN (1, 7, 10) AND charge > 0
   GROUP BY 1, 3 ORDER BY 1, 3
  ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_count_history AFTER INSERT ON ledger
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_count_history();

-- messages: written, deleted (the flag; a purge deletes rows), their date never moves across a month
-- in practice but is counted as it stands
CREATE FUNCTION messages_count_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO history_counts AS c (account_id, kind, month, n)
    SELECT account_id, 'sms', date_trunc('month', to_timestamp(date / 1000) AT TIME ZONE 'UTC')::date, count(*)
      FROM new_rows WHERE NOT deleted
     GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO history_counts AS c (account_id, kind, month, n)
    SELECT account_id, 'sms', date_trunc('month', to_timestamp(date / 1000) AT TIME ZONE 'UTC')::date, -count(*)
      FROM old_rows WHERE NOT deleted
     GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    -- most updates (delivery status, transcripts) change no count: nothing is written then
    INSERT INTO history_counts AS c (account_id, kind, month, n)
    SELECT account_id, 'sms', m, sum(d)
      FROM (SELECT account_id, date_trunc('month', to_timestamp(date / 1000) AT TIME ZONE 'UTC')::date AS m, 1 AS d
              FROM new_rows WHERE NOT deleted
            UNION ALL
            SELECT account_id, date_trunc('month', to_timestamp(date / 1000) AT TIME ZONE 'UTC')::date, -1
              FROM old_rows WHERE NOT deleted) x
     GROUP BY 1, 3 HAVING sum(d) <> 0 ORDER BY 1, 3
    ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_count_history_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_count_history();
CREATE TRIGGER messages_count_history_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_count_history();
CREATE TRIGGER messages_count_history_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION messages_count_history();

-- call records and the rented numbers' history: by created_at (the app clock's), any change counted
CREATE FUNCTION call_records_count_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO history_counts AS c (account_id, kind, month, n)
    SELECT account_id, 'call', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*)
      FROM new_rows
     GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO history_counts AS c (account_id, kind, month, n)
    SELECT account_id, 'call', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, -count(*)
      FROM old_rows
     GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    INSERT INTO history_counts AS c (account_id, kind, month, n)
    SELECT account_id, 'call', m, sum(d)
      FROM (SELECT account_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS m, 1 AS d
              FROM new_rows
            UNION ALL
            SELECT account_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, -1
              FROM old_rows) x
     GROUP BY 1, 3 HAVING sum(d) <> 0 ORDER BY 1, 3
    ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER call_records_count_history_insert AFTER INSERT ON call_records
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_records_count_history();
CREATE TRIGGER call_records_count_history_update AFTER UPDATE ON call_records
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION call_records_count_history();
CREATE TRIGGER call_records_count_history_delete AFTER DELETE ON call_records
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION call_records_count_history();

CREATE FUNCTION rental_history_count_history() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO history_counts AS c (account_id, kind, month, n)
    SELECT account_id, 'number', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*)
      FROM new_rows WHERE kind = 'number'
     GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO history_counts AS c (account_id, kind, month, n)
    SELECT account_id, 'number', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, -count(*)
      FROM old_rows WHERE kind = 'number'
     GROUP BY 1, 3 ORDER BY 1, 3
    ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    INSERT INTO history_counts AS c (account_id, kind, month, n)
    SELECT account_id, 'number', m, sum(d)
      FROM (SELECT account_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS m, 1 AS d
              FROM new_rows WHERE kind = 'number'
            UNION ALL
            SELECT account_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, -1
              FROM old_rows WHERE kind = 'number') x
     GROUP BY 1, 3 HAVING sum(d) <> 0 ORDER BY 1, 3
    ON CONFLICT (account_id, kind, month) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER rental_history_count_history_insert AFTER INSERT ON rental_history
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rental_history_count_history();
CREATE TRIGGER rental_history_count_history_update AFTER UPDATE ON rental_history
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rental_history_count_history();
CREATE TRIGGER rental_history_count_history_delete AFTER DELETE ON rental_history
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION rental_history_count_history();

-- The pages in the order of an index: account, month range, newest first (created_at, then id).
-- ledger: the bills (all types) and the payments (a partial index of their types); the new index
-- serves every read of the one it replaces (its first two columns)
CREATE INDEX ledger_account_created ON ledger (account_id, created_at DESC, id DESC);
DROP INDEX ledger_account_time;
CREATE INDEX ledger_account_payments ON ledger (account_id, created_at DESC, id DESC)
  WHERE type IN (1, 7, 10) AND charge > 0;
-- the SMS history: the account's messages not deleted, by date then id
CREATE INDEX messages_account_history ON messages (account_id, date DESC, id DESC) WHERE NOT deleted;
