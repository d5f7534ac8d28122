-- Two tabs refreshing one token at once (issue 18): the second refresh of a token just replaced is
-- answered with the successor the first one got, instead of being taken for a reuse that ends the
-- family. The successor token is never stored: it is HMAC-SHA256(successor_key, replaced token), so
-- only a holder of the replaced token can be handed it again, and only within a short window after
-- the replacement, `successor_replays` times at most (services/sessions.ts).
ALTER TABLE sessions ADD COLUMN successor_key text;
ALTER TABLE sessions ADD COLUMN successor_replays smallint NOT NULL DEFAULT 0 CHECK (successor_replays >= 0);
