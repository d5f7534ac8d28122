-- Sessions that cannot fork (issue 9, hole 5): every session belongs to a family, the chain of
-- tokens one sign-in produced through refreshToken. family_id is the first session's id (NULL on that
-- first session itself: its own id). Only the newest, unrevoked token of a family may refresh; a
-- replaced token serves ordinary calls during its grace only, and presenting it to refreshToken again
-- (a reuse: a stolen or forked copy) ends the whole family, as logout does.
ALTER TABLE sessions ADD COLUMN family_id bigint;
CREATE INDEX sessions_family ON sessions ((COALESCE(family_id, id)), id DESC);
-- the links a refresh made before this migration (a session revoked as 'refreshed' and the session
-- created in the same transaction) are not joined up: each is its own family, and a replaced token's
-- grace (60 s) is long over by the time this runs on a live system.
