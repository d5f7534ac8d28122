-- The chat list's validator (issue 13 §2): every write of a conversation row takes a new number from
-- one sequence, so an account's list is unchanged exactly while count(*) and sum(version) of its
-- conversation rows are. A later write's number is above any number handed out before it, so each
-- insert or update raises the sum, whatever order concurrent transactions commit in (a maximum would
-- not do: a transaction holding a smaller number may commit after a larger one was read). Servers
-- keep a built list in memory under this pair and check it in the same statement that would build
-- the list again (repositories/messages.ts chatListJson), so every server sees every other's writes.
-- Any writer of a conversation row (sends, inbound, deletes, refreshChat) moves it through the trigger.
CREATE SEQUENCE chats_version_seq;
ALTER TABLE chats ADD COLUMN version bigint NOT NULL DEFAULT 0;

CREATE FUNCTION chats_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := nextval('chats_version_seq');
  RETURN NEW;
END $$;
CREATE TRIGGER chats_version BEFORE INSERT OR UPDATE ON chats FOR EACH ROW EXECUTE FUNCTION chats_version();

-- A conversation row is never deleted (a chat whose messages are all deleted keeps its row, with
-- last_message_id NULL): a deletion could cancel another change in the sum.
CREATE FUNCTION chats_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'conversation rows are never deleted' USING ERRCODE = 'NM005';
END $$;
CREATE TRIGGER chats_kept BEFORE DELETE ON chats FOR EACH ROW EXECUTE FUNCTION chats_kept();
