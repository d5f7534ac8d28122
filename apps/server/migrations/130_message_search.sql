-- Message search (issue 22 §1): trigram indexing of the message text, so a search for any part of a
-- text (Chinese has no spaces: 验证码 finds 您的验证码是 1234) is an index probe, not a scan of every
-- message. pg_trgm comes with PostgreSQL's contrib and with PGlite (loaded in db/pglite.ts).
--
-- The extension is made once per database (every schema of the tests shares it; the migration runner's
-- advisory lock keeps two schemas from creating it at once) in public when it is not there yet, and the
-- operator class is named with the schema the extension lives in, whatever the search_path.
-- fastupdate off: new entries go into the index itself rather than a pending list that every search
-- reads through until a VACUUM (PGlite has no autovacuum; measured: 495 pages read for a miss with a
-- full pending list against 7 without).
DO $$
DECLARE
  s text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE EXTENSION pg_trgm SCHEMA public;
  END IF;
  SELECT n.nspname INTO s FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
   WHERE e.extname = 'pg_trgm';
  EXECUTE format(
    'CREATE INDEX messages_text_trgm ON messages USING gin (text %I.gin_trgm_ops) WITH (fastupdate = off) WHERE deleted = false', s);
END
$$;
