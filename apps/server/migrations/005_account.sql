-- The account area: the cloud address book, phone/e-mail verifications, the billing profile, identity
-- documents (KYC) and invite codes with their redemptions.

-- One row per contact. `book` is the validated contact (name, phoneList, email, companyName, note);
-- `date` (epoch ms) is its last change, distinct within an account so paging by date never skips.
CREATE TABLE contacts (
  id text PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  book jsonb NOT NULL,
  local_id text NOT NULL DEFAULT '',
  date bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contacts_account_date ON contacts (account_id, date DESC);

-- A code sent to prove a phone or an e-mail for an account (the verifyid of the verify calls).
-- validated_at: the code was right; used_at: the address was then given to the account.
CREATE TABLE address_verifications (
  id text PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  brand text NOT NULL,
  -- sms | email
  channel text NOT NULL,
  tel_code text,
  phone text,
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  validated_at timestamptz,
  used_at timestamptz
);
CREATE INDEX address_verifications_account ON address_verifications (account_id, created_at DESC);

-- The billing profile and its review: 1 reviewing, 2 verified, 100 refused (with the reason).
CREATE TABLE billing_profiles (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  address text NOT NULL,
  city text NOT NULL,
  province text NOT NULL,
  postal_code text NOT NULL,
  country text NOT NULL,
  region_code text NOT NULL DEFAULT '',
  status smallint NOT NULL,
  refuse_reason text NOT NULL DEFAULT '',
  submitted_at timestamptz NOT NULL DEFAULT now(),
  reviewed_at timestamptz
);
CREATE INDEX billing_profiles_pending ON billing_profiles (submitted_at) WHERE status = 1;

-- Identity documents: four image slots (media ids), and the review (1, 2, 100 as above).
CREATE TABLE kyc_submissions (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  id_card_1 text REFERENCES media (id),
  id_card_2 text REFERENCES media (id),
  id_hold_1 text REFERENCES media (id),
  id_hold_2 text REFERENCES media (id),
  status smallint NOT NULL,
  refuse_reason text NOT NULL DEFAULT '',
  submitted_at timestamptz NOT NULL DEFAULT now(),
  reviewed_at timestamptz
);
CREATE INDEX kyc_submissions_pending ON kyc_submissions (submitted_at) WHERE status = 1;

-- VIP (shown on one dollar brand): VIP while vip_until is in the future.
ALTER TABLE accounts ADD COLUMN vip_until timestamptz;

-- One invite code per account, unique across brands (a code of another brand is simply unknown).
CREATE TABLE invite_codes (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  brand text NOT NULL,
  code text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A redeemed code: one per redeeming account (the primary key makes a second redemption impossible,
-- even from two requests at once). bonus_paid_at: both sides were credited.
CREATE TABLE invite_redemptions (
  redeemer_id bigint PRIMARY KEY REFERENCES accounts (id),
  inviter_id bigint NOT NULL REFERENCES accounts (id),
  brand text NOT NULL,
  code text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  bonus_paid_at timestamptz
);
CREATE INDEX invite_redemptions_inviter ON invite_redemptions (inviter_id);
