-- Security (issue 9, hole 8): invite bonuses cannot be farmed.
--
-- One bonus per phone number across the accounts of a brand: a redemption keeps the E.164 number of
-- the redeeming account at that moment, unique per brand, so moving a number from account to account
-- (or, before migration 013, splitting it differently) earns nothing more. Existing redemptions keep
-- the number of their redeemer; when several share one, the earliest keeps it and the rest stay
-- without (their bonuses were paid and stay; they just do not block anyone else).
ALTER TABLE invite_redemptions ADD COLUMN redeemer_phone text;

UPDATE invite_redemptions r
SET redeemer_phone = '+' || a.tel_code || a.phone
FROM accounts a
WHERE a.id = r.redeemer_id
  AND a.phone IS NOT NULL
  AND NOT EXISTS (
    SELECT 1
    FROM invite_redemptions r2
    JOIN accounts a2 ON a2.id = r2.redeemer_id
    WHERE r2.brand = r.brand
      AND a2.phone IS NOT NULL
      AND a2.tel_code || a2.phone = a.tel_code || a.phone
      AND (r2.created_at, r2.redeemer_id) < (r.created_at, r.redeemer_id)
  );

CREATE UNIQUE INDEX invite_redemptions_phone ON invite_redemptions (brand, redeemer_phone) WHERE redeemer_phone IS NOT NULL;

-- The cap per inviter per calendar month (UTC) counts an inviter's redemptions since the month began.
DROP INDEX invite_redemptions_inviter;
CREATE INDEX invite_redemptions_inviter ON invite_redemptions (inviter_id, created_at);
