-- Money going back (issue 18 §3–4): refunds and disputes (chargebacks) made at the payment provider
-- debit the balance through the ledger, once each, keyed by the provider's refund / dispute id; a
-- refund that fails after it was debited and a dispute we win credit it back, once. Reconciliation
-- reads the provider's notifications in our terms (the new columns of payment_events).

-- Bill types of the contract (constants.billTypes, labels in the contract's locales). Only the two
-- debits of money going back may take a balance below zero (the payer spent the top-up before
-- taking it back: the balance shows the debt, with a minus); the operator's adjustment keeps its
-- right to. Refund (8) gives back a charge (an SMS that failed, a code): it is a credit and never
-- needs to go below zero. (Operator refunds of top-ups were type 8 before; they are type 11 now.)
INSERT INTO bill_types (type, name, allow_negative) VALUES
  (11, 'topUpRefund', true),
  (12, 'chargeback', true),
  (13, 'chargebackReversed', false),
  (14, 'refundReversed', false);
UPDATE bill_types SET allow_negative = false WHERE type = 8;

-- The provider's id of the payment itself (Stripe payment_intent, PayPal capture id, a crypto
-- invoice), recorded when the payment is confirmed: refund and dispute events that name only the
-- payment find their order by it.
ALTER TABLE payment_orders ADD COLUMN payment_ref text;
CREATE UNIQUE INDEX payment_orders_payment_ref ON payment_orders (provider, payment_ref)
  WHERE payment_ref IS NOT NULL;
CREATE INDEX payment_orders_created ON payment_orders (provider, created_at);

-- Every notification in our terms, beside its payload (null on rows older than this migration):
-- kind payment | refund | dispute; status paid | failed (payment), pending | succeeded | failed |
-- canceled (refund), opened | won | lost (dispute); object_id the refund or dispute id; amount Minor.
ALTER TABLE payment_events ADD COLUMN kind text;
ALTER TABLE payment_events ADD COLUMN ref text;
ALTER TABLE payment_events ADD COLUMN payment_ref text;
ALTER TABLE payment_events ADD COLUMN object_id text;
ALTER TABLE payment_events ADD COLUMN status text;
ALTER TABLE payment_events ADD COLUMN amount bigint;
ALTER TABLE payment_events ADD COLUMN currency text;
CREATE INDEX payment_events_time ON payment_events (provider, created_at);

-- One row per refund or dispute of a top-up, whatever the number or order of the events telling of
-- it (UNIQUE provider, kind, return_id). `status` is the provider's latest word, moved only forward
-- (a refund's failed / canceled and a dispute's won are final). The money follows the status, under
-- the order's row lock, only once the order is paid (a refund heard before the payment waits for
-- it): one debit bill (11 refund, 12 chargeback) while it takes money, then at most one credit bill
-- (14 refund reversed, 13 chargeback reversed) when it stops. bonus_taken / bonus_returned: the part
-- of the order's bonus each bill took or gave back (proportional, docs/decisions.md).
CREATE TABLE payment_returns (
  id bigserial PRIMARY KEY,
  provider text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('refund', 'dispute')),
  return_id text NOT NULL,
  order_id bigint NOT NULL REFERENCES payment_orders (id),
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  status text NOT NULL
    CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled', 'opened', 'won', 'lost')),
  -- provider: heard in a notification; operator: asked by `payment refund`
  origin text NOT NULL DEFAULT 'provider' CHECK (origin IN ('provider', 'operator')),
  debit_bill bigint REFERENCES ledger (id),
  reversal_bill bigint REFERENCES ledger (id),
  bonus_taken bigint NOT NULL DEFAULT 0 CHECK (bonus_taken >= 0),
  bonus_returned bigint NOT NULL DEFAULT 0 CHECK (bonus_returned >= 0),
  -- a refund larger than what is left to refund of the order: recorded, not debited (logged)
  excess boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, kind, return_id),
  CHECK (reversal_bill IS NULL OR debit_bill IS NOT NULL)
);
CREATE INDEX payment_returns_order ON payment_returns (order_id);
CREATE INDEX payment_returns_time ON payment_returns (provider, created_at);

-- The operator's refunds of before (type 8, refunded_at) become refund rows, so a full refund is
-- not taken twice.
INSERT INTO payment_returns
  (provider, kind, return_id, order_id, amount, currency, status, origin, debit_bill, bonus_taken,
   created_at, updated_at)
SELECT o.provider, 'refund', 'legacy:' || o.id, o.id, o.amount, o.currency, 'succeeded', 'operator',
       l.id, o.bonus, o.refunded_at, o.refunded_at
  FROM payment_orders o
  LEFT JOIN ledger l ON l.idempotency_key = 'pay-refund:' || o.id
 WHERE o.refunded_at IS NOT NULL;
