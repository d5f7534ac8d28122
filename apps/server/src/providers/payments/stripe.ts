import Stripe from 'stripe';
import { minor, type Minor } from '@numa/contract';
import {
  ForgedNotification,
  ProviderUnavailable,
  type Checkout,
  type CheckoutOrder,
  type IncomingWebhook,
  type PaymentNotification,
  type PaymentProvider,
} from './port';

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** The API's base URL (tests point it at a local fake); Stripe's own by default. */
  apiBaseUrl?: string | undefined;
}

/** The methods Stripe Checkout takes, and its payment method types for each. */
export const stripeMethodTypes: Record<
  string,
  Stripe.Checkout.SessionCreateParams.AllowedPaymentMethodType[]
> = {
  creditCard: ['card'],
  // UnionPay cards go through Checkout's card form
  unionpay: ['card'],
  alipay: ['alipay'],
  wechatpay: ['wechat_pay'],
};

/** Minor (ten-thousandths) to Stripe's smallest unit (cents or fen) and back. */
const toCents = (m: Minor) => Math.round(m / 100);
const fromCents = (c: number) => minor(c * 100);

/**
 * Stripe (issue 10): Checkout Sessions for card, Alipay, WeChat Pay and UnionPay cards with the
 * official SDK; webhooks verified with its signature check (`constructEvent`).
 * `checkout.session.completed` with payment_status `paid` and `checkout.session.async_payment_succeeded`
 * credit; `checkout.session.async_payment_failed` and `checkout.session.expired` fail the order; other
 * events are acknowledged and ignored.
 */
export class StripePayments implements PaymentProvider {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  constructor(private readonly config: StripeConfig) {
    const base = config.apiBaseUrl ? new URL(config.apiBaseUrl) : null;
    this.stripe = new Stripe(config.secretKey, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === 'https:' ? 443 : 80),
            protocol: base.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }

  async createCheckout(order: CheckoutOrder): Promise<Checkout> {
    const types = stripeMethodTypes[order.method];
    if (!types) throw new ProviderUnavailable(`Stripe does not take ${order.method}`);
    const back = order.returnUrl ?? `${order.baseUrl}/account/credit`;
    try {
      const session = await this.stripe.checkout.sessions.create({
        mode: 'payment',
        allowed_payment_method_types: types,
        ...(order.method === 'wechatpay'
          ? { payment_method_options: { wechat_pay: { client: 'web' } } }
          : {}),
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: order.currency,
              unit_amount: toCents(order.amount),
              product_data: { name: order.description },
            },
          },
        ],
        client_reference_id: String(order.orderId),
        metadata: { orderId: String(order.orderId), brand: order.brand },
        success_url: back,
        cancel_url: back,
      });
      if (!session.url) throw new Error('Checkout Session without a URL');
      return { ref: session.id, paymentUrl: session.url };
    } catch (err) {
      // a request Stripe refuses is our order's failure (200042); anything else is Stripe being
      // unreachable or down (200041: recharge temporarily unavailable)
      if (err instanceof Stripe.errors.StripeInvalidRequestError)
        throw new Error(`Stripe refused the checkout: ${err.message}`, { cause: err });
      throw new ProviderUnavailable(`Stripe is unavailable: ${(err as Error).message}`, { cause: err });
    }
  }

  async parseNotification(w: IncomingWebhook): Promise<PaymentNotification | null> {
    const header = w.headers['stripe-signature'];
    const sig = Array.isArray(header) ? header[0] : header;
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(w.rawBody, sig ?? '', this.config.webhookSecret);
    } catch (err) {
      throw new ForgedNotification((err as Error).message);
    }
    return this.fromEvent(event);
  }

  private fromEvent(event: Stripe.Event): PaymentNotification | null {
    if (!event.type.startsWith('checkout.session.')) return null;
    const s = event.data.object as Stripe.Checkout.Session;
    let outcome: 'paid' | 'failed' | null = null;
    if (event.type === 'checkout.session.completed') outcome = s.payment_status === 'paid' ? 'paid' : null;
    else if (event.type === 'checkout.session.async_payment_succeeded') outcome = 'paid';
    else if (
      event.type === 'checkout.session.async_payment_failed' ||
      event.type === 'checkout.session.expired'
    )
      outcome = 'failed';
    if (!outcome) return null;
    return {
      eventId: event.id,
      ref: s.id,
      outcome,
      amount: fromCents(s.amount_total ?? -1),
      currency: (s.currency ?? '').toLowerCase(),
      payload: event as unknown as Record<string, unknown>,
    };
  }

  async query(ref: string): Promise<PaymentNotification | 'pending' | 'unknown'> {
    try {
      const s = await this.stripe.checkout.sessions.retrieve(ref);
      if (s.payment_status === 'paid')
        return {
          eventId: `query:${s.id}:paid`,
          ref: s.id,
          outcome: 'paid',
          amount: fromCents(s.amount_total ?? -1),
          currency: (s.currency ?? '').toLowerCase(),
          payload: { session: s.id },
        };
      if (s.status === 'expired')
        return {
          eventId: `query:${s.id}:expired`,
          ref: s.id,
          outcome: 'failed',
          amount: fromCents(s.amount_total ?? 0),
          currency: (s.currency ?? '').toLowerCase(),
          payload: { session: s.id },
        };
      return 'pending';
    } catch {
      return 'unknown';
    }
  }

  async cancel(ref: string): Promise<void> {
    await this.stripe.checkout.sessions.expire(ref);
  }

  async refund(ref: string): Promise<void> {
    const s = await this.stripe.checkout.sessions.retrieve(ref);
    const intent = typeof s.payment_intent === 'string' ? s.payment_intent : s.payment_intent?.id;
    if (!intent) throw new ProviderUnavailable('the session has no payment to refund');
    await this.stripe.refunds.create({ payment_intent: intent });
  }
}
