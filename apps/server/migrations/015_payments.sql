-- Payments (issue 10): top-up orders and the provider notifications that settle them.

-- One order per submit. amount and bonus are Minor (ten-thousandths of the brand's unit); the order
-- credits amount + bonus once, when its provider confirms it (status pending -> paid by a conditional
-- update, so only one writer wins). A late confirmation of a cancelled or expired order still credits:
-- money received is never lost.
CREATE TABLE payment_orders (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  brand text NOT NULL,
  -- getPaymentMethods key (creditCard, wechatpay, alipay, unionpay, paypal, cryptoPay, usdtPay ...)
  method text NOT NULL,
  provider text NOT NULL,
  product_id text NOT NULL,
  currency text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  bonus bigint NOT NULL DEFAULT 0 CHECK (bonus >= 0),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'paid', 'failed', 'cancelled', 'expired')),
  -- the provider's id of the checkout (sandbox token, Stripe session id, PayPal transaction id)
  provider_ref text NOT NULL,
  return_url text,
  -- crypto transfers: currency, network, exact amount and address
  crypto jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  paid_at timestamptz,
  closed_at timestamptz,
  -- an operator's refund (its own bill, type 8); the order stays paid
  refunded_at timestamptz,
  UNIQUE (provider, provider_ref)
);
CREATE INDEX payment_orders_account ON payment_orders (account_id, created_at);
CREATE INDEX payment_orders_paid ON payment_orders (account_id, paid_at) WHERE paid_at IS NOT NULL;
CREATE INDEX payment_orders_pending ON payment_orders (expires_at) WHERE status = 'pending';

-- Every provider notification we accepted or refused, by the provider's own event id (unique: a
-- replayed event is seen, never applied twice).
CREATE TABLE payment_events (
  id bigserial PRIMARY KEY,
  provider text NOT NULL,
  event_id text NOT NULL,
  order_id bigint REFERENCES payment_orders (id),
  -- credited, failed, ignored (order already settled), refused (amount/currency/brand mismatch)
  result text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, event_id)
);

-- The sandbox provider's own side (the default payment provider, providers/payments/sandbox.ts): the
-- checkouts its page shows, as a real provider keeps them. Only the sandbox reads or writes this.
CREATE TABLE payment_sandbox_checkouts (
  ref text PRIMARY KEY,
  brand text NOT NULL,
  description text NOT NULL,
  amount bigint NOT NULL,
  currency text NOT NULL,
  -- where the sandbox posts its signed notification (our webhook, on the order's brand host)
  notify_url text NOT NULL,
  -- crypto transfers: the exact amount expected, for the "send exactly" button
  crypto jsonb,
  -- open, paid, failed, cancelled
  status text NOT NULL DEFAULT 'open',
  -- the last notification sent, replayed as is by "Send the notification again"
  last_event jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
