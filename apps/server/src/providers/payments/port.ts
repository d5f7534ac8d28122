import type { Minor } from '@numa/contract';

/** What a provider needs to know of an order to open its checkout. */
export interface CheckoutOrder {
  orderId: number;
  brand: string;
  /** getPaymentMethods key: creditCard, wechatpay, alipay, unionpay, paypal, cryptoPay, usdtPay … */
  method: string;
  amount: Minor;
  /** usd | cny */
  currency: string;
  description: string;
  /** Our server as the payer's browser reaches it (brand host), e.g. http://numa.localhost:8080. */
  baseUrl: string;
  returnUrl: string | null;
  /** Crypto transfers: what must arrive, exactly. */
  crypto?: { currency: string; network: string | null; amount: string; address: string };
}

export interface Checkout {
  /** The provider's id of this checkout: unique per provider; notifications name it. */
  ref: string;
  /** The page the payer opens (a new window), or the WeChat QR content. */
  paymentUrl: string;
  /** PayPal-style hosted forms: where to post and the hidden fields. */
  form?: { action: string; fields: Record<string, string> };
}

/** A verified notification, in our terms: a payment's outcome, a refund, or a dispute. */
export type PaymentNotification = PaymentOutcome | RefundNotification | DisputeNotification;

interface NotificationBase {
  /** The provider's event id: unique, a replay carries the same one. */
  eventId: string;
  /** The checkout it is about (Checkout.ref), when the event names it. */
  ref?: string;
  /** The provider's id of the payment itself (Stripe payment_intent, PayPal capture id, the crypto
   * provider's invoice id), when the event names it. At least one of ref / paymentRef is set. */
  paymentRef?: string;
  /** Minor units in `currency`: what was paid / refunded / disputed by this event. */
  amount: Minor;
  currency: string;
  /** The payload as received, kept with the event. */
  payload: Record<string, unknown>;
}

export interface PaymentOutcome extends NotificationBase {
  kind: 'payment';
  outcome: 'paid' | 'failed';
}

export interface RefundNotification extends NotificationBase {
  kind: 'refund';
  /** The provider's refund id: one refund, however many events tell of it. */
  refundId: string;
  status: 'succeeded' | 'pending' | 'failed' | 'canceled';
}

export interface DisputeNotification extends NotificationBase {
  kind: 'dispute';
  /** The provider's dispute / chargeback id. */
  disputeId: string;
  /** opened: money is held back from us now; won: it came back to us; lost: final. */
  status: 'opened' | 'won' | 'lost';
}

/** One payment, refund or dispute as the provider's own API lists it (reconciliation). */
export interface ProviderTransaction {
  kind: 'payment' | 'refund' | 'dispute';
  id: string;
  ref?: string;
  paymentRef?: string;
  amount: Minor;
  currency: string;
  status: string;
  at: Date;
}

/** A refund the provider accepted: its id and how it stands. */
export interface RefundResult {
  refundId: string;
  status: RefundNotification['status'];
  paymentRef?: string;
}

export interface IncomingWebhook {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  /** The URL it was posted to (some providers sign it). */
  url: string;
}

/** A notification whose signature or shape is wrong: refused, nothing changes. */
export class ForgedNotification extends Error {}

/** The provider cannot be reached or refused the checkout (200041 to the user). */
export class ProviderUnavailable extends Error {}

/**
 * A payment provider (issue 10): one interface, adapters chosen by configuration (PAYMENT_PROVIDER);
 * the sandbox is the default. Notifications reach `routes/payments.ts` at /pay/notify/<name>.
 */
export interface PaymentProvider {
  readonly name: string;
  createCheckout(order: CheckoutOrder): Promise<Checkout>;
  /**
   * Verifies the signature and parses; throws ForgedNotification; null for events we ignore. One
   * event may tell of several refunds (Stripe's charge.refunded): a list, each with its own eventId.
   */
  parseNotification(webhook: IncomingWebhook): Promise<PaymentNotification | PaymentNotification[] | null>;
  /** Asks the provider how the checkout stands (the operator's re-query of a stuck order). */
  query(ref: string): Promise<PaymentOutcome | 'pending' | 'unknown'>;
  /** Lists the provider's payments, refunds and disputes in [from, to) from its API; absent where
   * the provider has no such API (reconciliation then uses the stored events). */
  listTransactions?(from: Date, to: Date): Promise<ProviderTransaction[]>;
  /**
   * The checkout (Checkout.ref) a payment belongs to, asked of the provider's API: a refund or
   * dispute heard before the payment's own notification names only the payment. Optional; null when
   * the payment is not one of our checkouts; throws ProviderUnavailable when the provider cannot say.
   */
  findRef?(paymentRef: string): Promise<string | null>;
  /** Closes an open checkout (the dialog closed, or the payer cancelled on its page); best effort. */
  cancel(ref: string): Promise<void>;
  /**
   * Providers whose cancel URL names no checkout (Stripe Checkout puts nothing in it) sign our order
   * id into it instead: whether `sig` is the signature of `orderId` (constant time). Absent where the
   * cancel URL carries the provider's own reference.
   */
  verifyCancel?(orderId: number, sig: string): boolean;
  /**
   * Returns `amount` of a paid checkout's money to the payer. Gives the provider's refund id when it
   * has one, so the refund's own notifications are known as this refund (never debited twice).
   */
  refund(ref: string, amount: Minor): Promise<RefundResult | void>;
}
