-- What a counted event is about (the abuse guard's new chat partner): a burst of first messages to
-- one new number counts as one new number, not one per message.
ALTER TABLE rate_events ADD COLUMN subject text;
