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

/** A verified notification, in our terms. */
export interface PaymentNotification {
  /** The provider's event id: unique, a replay carries the same one. */
  eventId: string;
  /** The checkout it is about (Checkout.ref). */
  ref: string;
  outcome: 'paid' | 'failed';
  /** What the provider says arrived (Minor, in `currency`). */
  amount: Minor;
  currency: string;
  /** The payload as received, kept with the event. */
  payload: Record<string, unknown>;
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
  /** Verifies the signature and parses; throws ForgedNotification; null for events we ignore. */
  parseNotification(webhook: IncomingWebhook): Promise<PaymentNotification | null>;
  /** Asks the provider how the checkout stands (the operator's re-query of a stuck order). */
  query(ref: string): Promise<PaymentNotification | 'pending' | 'unknown'>;
  /** Closes an open checkout (the dialog closed); best effort. */
  cancel(ref: string): Promise<void>;
  /** Returns the money of a paid checkout. */
  refund(ref: string, amount: Minor): Promise<void>;
}
