-- getDialogList's validator (issue 13 §2): a server keeps the pages of a conversation it built in
-- memory under the version of the conversation's row (migration 055) and reads only that version
-- (one primary-key lookup) before answering from them. New messages and deletions write the row
-- already (sends, inbound, refreshChat); this makes every other change of a message (a status from
-- the carrier, a transcript) write it too, so the version moves with anything a page shows. One
-- statement-level trigger: a statement changing many messages writes each conversation once, in
-- key order (two such statements lock the rows in the same order).
CREATE FUNCTION messages_touch_chats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  c record;
BEGIN
  FOR c IN
    SELECT DISTINCT account_id, own_full_number, other_full_number FROM changed
     ORDER BY account_id, own_full_number, other_full_number
  LOOP
    -- any write will do: the trigger chats_version gives the row its new version
    UPDATE chats SET version = 0
     WHERE account_id = c.account_id AND own_full_number = c.own_full_number
       AND other_full_number = c.other_full_number;
  END LOOP;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_touch_chats AFTER UPDATE ON messages REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION messages_touch_chats();
