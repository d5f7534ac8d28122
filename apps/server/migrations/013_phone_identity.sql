-- Security (issue 9, hole 3): one phone number, one account.
--
-- A phone's identity is its E.164 number (calling code + national number, joined). Until now the
-- unique index took the split as given, so `+1 2125550299`, `+12 125550299`, `+121 25550299` and
-- `+1212 5550299` were four accounts of one number. From now on the server stores libphonenumber's
-- split (packages/contract/src/phone.ts) and the index is on the joined number. This migration:
--   1. finds the accounts of a brand that share a joined number; one keeps the number, each other one
--      is written to phone_conflicts and loses only its phone (balance, bills, chats, numbers, e-mail
--      and sessions stay: every one of them proved the number with a code, so they are one person's
--      accounts; the operator reviews phone_conflicts and merges by hand if asked);
--   2. re-splits every stored phone the way libphonenumber does: country calling codes are a prefix
--      code (ITU-T E.164), so the one code of the countries table (every region libphonenumber
--      knows) that begins the joined digits is the calling code, the rest the national number;
--   3. puts the unique index on the joined number.

-- Accounts that lost a phone another account of the brand also held: who kept it, and why.
CREATE TABLE phone_conflicts (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  brand text NOT NULL,
  -- the number as this account held it
  tel_code text NOT NULL,
  phone text NOT NULL,
  -- the account that kept the number: an active one before a suspended or deleted one, then the oldest
  kept_by bigint NOT NULL REFERENCES accounts (id),
  created_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO phone_conflicts (account_id, brand, tel_code, phone, kept_by)
SELECT id, brand, tel_code, phone, keeper
FROM (
  SELECT id, brand, tel_code, phone,
    first_value(id) OVER (PARTITION BY brand, tel_code || phone ORDER BY (status = 1) DESC, id) AS keeper
  FROM accounts
  WHERE phone IS NOT NULL
) grouped
WHERE id <> keeper;

UPDATE accounts SET tel_code = NULL, phone = NULL, updated_at = now()
WHERE id IN (SELECT account_id FROM phone_conflicts);

DROP INDEX accounts_brand_phone;

UPDATE accounts a
SET tel_code = c.tel_code, phone = substr(a.tel_code || a.phone, length(c.tel_code) + 1)
FROM (SELECT DISTINCT tel_code FROM countries) c
WHERE a.phone IS NOT NULL
  AND a.tel_code <> c.tel_code
  AND starts_with(a.tel_code || a.phone, c.tel_code)
  AND length(a.tel_code || a.phone) > length(c.tel_code);

-- Pending phone verifications are re-split the same way (they are compared with the accounts' phones).
UPDATE address_verifications v
SET tel_code = c.tel_code, phone = substr(v.tel_code || v.phone, length(c.tel_code) + 1)
FROM (SELECT DISTINCT tel_code FROM countries) c
WHERE v.phone IS NOT NULL
  AND v.tel_code <> c.tel_code
  AND starts_with(v.tel_code || v.phone, c.tel_code)
  AND length(v.tel_code || v.phone) > length(c.tel_code);

-- One account per joined number and brand, whatever the split.
CREATE UNIQUE INDEX accounts_brand_phone_full ON accounts (brand, (tel_code || phone)) WHERE phone IS NOT NULL;
