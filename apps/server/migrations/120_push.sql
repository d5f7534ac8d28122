-- Web Push (issue 23): the server's VAPID key pair, the browsers' push subscriptions (one per
-- device), and whether an account's balance is already below the low-balance line.

-- The VAPID key pair (RFC 8292), made once on a database that has none and kept (base64url, as the
-- `web-push` library writes them). Production may give its own pair by configuration instead.
CREATE TABLE push_vapid (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  public_key text NOT NULL,
  private_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A browser's push subscription (one device of an account): its push service URL and keys, what the
-- device is called in lists (from its user agent), the language its texts go out in, and whether it
-- shows message previews. The same endpoint subscribed again (another account signed in on that
-- browser) moves to that account.
CREATE TABLE push_subscriptions (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  device text NOT NULL,
  lang text NOT NULL,
  previews boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_sent_at timestamptz
);
CREATE INDEX push_subscriptions_account ON push_subscriptions (account_id, id);

-- Accounts whose balance is below the low-balance line (pushLowBalanceMinor): the push goes once
-- per crossing, and again only after the balance rose back to the line.
CREATE TABLE push_balance_low (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  since timestamptz NOT NULL DEFAULT now()
);
