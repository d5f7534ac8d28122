-- Chats: the accounts' own (virtual) numbers, messages (one copy per account), the conversation
-- summary the chat list reads, outbound carrier work, message rates, call settings and banner ads.
-- Money is bigint in ten-thousandths of the brand's unit; message dates are epoch milliseconds.

-- A number held by an account. A number is held by at most one account on the whole platform.
CREATE TABLE virtual_numbers (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  tel_code text NOT NULL,
  -- national number, digits
  number text NOT NULL,
  -- tel_code || number: the key messages and the carrier use
  full_number text NOT NULL UNIQUE,
  -- ISO country of the number (US, CA, GB, AU …), from libphonenumber
  country text NOT NULL,
  toll_free boolean NOT NULL DEFAULT false,
  -- toll-free numbers must be registered (verified) before they may send (300030)
  toll_free_verified boolean NOT NULL DEFAULT false,
  plan_id integer NOT NULL DEFAULT 0,
  -- the next rent date
  payment_date date NOT NULL,
  month_rent bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT virtual_numbers_full CHECK (full_number = tel_code || number)
);
CREATE INDEX virtual_numbers_account ON virtual_numbers (account_id, id);

-- Forwarding / voicemail switches of an account's numbers (getVirtualPhoneList flags; the numbers
-- area sets them). No row: both off.
CREATE TABLE call_settings (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  forward_status smallint NOT NULL DEFAULT 0,
  voicemail_status smallint NOT NULL DEFAULT 0,
  CONSTRAINT call_settings_exclusive CHECK (forward_status + voicemail_status <= 1)
);

-- One row per message per account: a message between two accounts of the platform is two rows (the
-- sender's 'out' copy and the recipient's 'in' copy), so deleting is per account and no query ever
-- reads another account's rows.
CREATE TABLE messages (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  own_full_number text NOT NULL,
  own_tel_code text NOT NULL,
  -- a full number, or a short code / sender id for inbound-only senders
  other_full_number text NOT NULL,
  -- '' when the other party has no country code (sender ids)
  other_tel_code text NOT NULL DEFAULT '',
  direction text NOT NULL CHECK (direction IN ('in', 'out')),
  -- sms | mms | verificationCode | voicemail | push | 5sim
  type text NOT NULL,
  text text NOT NULL DEFAULT '',
  -- comma-separated media URLs
  media text NOT NULL DEFAULT '',
  -- 0 sent, 1 pending, 2 failed
  status smallint NOT NULL,
  -- a failed message's retcode, and the carrier's reason (English, for operators and the log)
  retcode integer,
  retmsg text,
  highlight_target text NOT NULL DEFAULT '',
  highlight_text text NOT NULL DEFAULT '',
  -- the client's id of an outgoing message; 'in:<carrier id>' for incoming copies
  sms_id text NOT NULL,
  date bigint NOT NULL,
  -- what this message cost (≥ 0) and how many SMS segments it took
  charge bigint NOT NULL DEFAULT 0,
  segments smallint NOT NULL DEFAULT 1,
  carrier text,
  carrier_id text,
  stt text,
  stt_status smallint,
  deleted boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- idempotent sends: a resent smsId finds its message
CREATE UNIQUE INDEX messages_account_sms ON messages (account_id, sms_id);
-- dialog paging, newest first; dates are distinct within a conversation
CREATE UNIQUE INDEX messages_conversation ON messages (account_id, own_full_number, other_full_number, date DESC);
-- status callbacks find the message by the carrier's id
CREATE INDEX messages_carrier_id ON messages (carrier_id) WHERE carrier_id IS NOT NULL;
-- SMS history by month
CREATE INDEX messages_account_date ON messages (account_id, date DESC);

-- One row per conversation of an account: what the chat list shows without scanning messages.
-- max_date hands out the next message date (distinct, increasing); last_* point at the newest
-- message not deleted (NULL when every message of the chat is deleted).
CREATE TABLE chats (
  account_id bigint NOT NULL REFERENCES accounts (id),
  own_full_number text NOT NULL,
  other_full_number text NOT NULL,
  max_date bigint NOT NULL,
  last_date bigint,
  last_message_id bigint,
  PRIMARY KEY (account_id, own_full_number, other_full_number)
);
CREATE INDEX chats_account_last ON chats (account_id, last_date DESC) WHERE last_message_id IS NOT NULL;

-- Outgoing messages waiting for the carrier. A row is written with its message; a worker claims it
-- with FOR UPDATE SKIP LOCKED and a lease, so after a crash another process (or the restarted one)
-- resumes it, and two servers never hand the same message over at once.
CREATE TABLE carrier_jobs (
  id bigserial PRIMARY KEY,
  message_id bigint NOT NULL UNIQUE REFERENCES messages (id),
  attempts integer NOT NULL DEFAULT 0,
  run_after timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_error text,
  done_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX carrier_jobs_due ON carrier_jobs (run_after) WHERE done_at IS NULL;

-- What an outgoing message costs, by the destination's country (ISO alpha-2; '*' any other) and the
-- brand's currency (usd: Coins and dollars, 1 Coin = 1 USD; cny: cloud coins). sms is per segment,
-- mms per message. Sample rates of spec 001 §9 (SMS 0.008 to 0.06); MMS costs more.
CREATE TABLE message_rates (
  currency text NOT NULL,
  country text NOT NULL,
  sms bigint NOT NULL CHECK (sms > 0),
  mms bigint NOT NULL CHECK (mms > 0),
  PRIMARY KEY (currency, country)
);
INSERT INTO message_rates (currency, country, sms, mms) VALUES
  ('usd', 'US', 80, 200),
  ('usd', 'CA', 80, 200),
  ('usd', 'GB', 400, 800),
  ('usd', 'AU', 500, 1000),
  ('usd', 'CN', 300, 700),
  ('usd', 'HK', 400, 800),
  ('usd', 'TW', 450, 900),
  ('usd', 'JP', 600, 1200),
  ('usd', 'SG', 350, 800),
  ('usd', 'IN', 200, 500),
  ('usd', 'PH', 250, 600),
  ('usd', 'MX', 300, 700),
  ('usd', 'DE', 600, 1200),
  ('usd', 'FR', 600, 1200),
  ('usd', '*', 600, 1200),
  ('cny', 'US', 600, 1500),
  ('cny', 'CA', 600, 1500),
  ('cny', 'CN', 500, 1500),
  ('cny', '*', 4000, 9000);

-- Banner ads per brand (getAdConfig). A brand without a row shows none.
CREATE TABLE banner_ads (
  brand text PRIMARY KEY,
  redirect_url text NOT NULL DEFAULT '',
  picture_url text NOT NULL DEFAULT '',
  redirect_url_cn text NOT NULL DEFAULT '',
  picture_url_cn text NOT NULL DEFAULT ''
);
INSERT INTO banner_ads (brand, redirect_url, picture_url, redirect_url_cn, picture_url_cn) VALUES
  ('wetalk', 'https://www.wetalk.app/vip', 'https://www.wetalk.app/ads/vip-banner-en.png',
   'https://www.wetalk.app/zh/vip', 'https://www.wetalk.app/ads/vip-banner-zh.png');
