import { createHmac, timingSafeEqual } from 'node:crypto';
import type Stripe from 'stripe';
import { lazy } from '../../lib/lazy';
import { minor, type Minor } from '@numa/contract';
import {
  ForgedNotification,
  ProviderUnavailable,
  type Checkout,
  type CheckoutOrder,
  type DisputeNotification,
  type IncomingWebhook,
  type PaymentNotification,
  type PaymentOutcome,
  type PaymentProvider,
  type ProviderTransaction,
  type RefundNotification,
  type RefundResult,
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

/** Where Stripe Checkout's Cancel sends the payer: `?order=<our order id>&sig=<cancelSignature>`. */
export const stripeCancelPath = '/pay/cancel/stripe';

/**
 * The signature of an order id in Stripe's cancel URL (issue 20): HMAC-SHA256 keyed with the webhook
 * secret, hex. Stripe puts no session id in the cancel URL, so the link names our order, and the MAC
 * keeps anyone from cancelling another payer's order by guessing ids.
 */
export const cancelSignature = (secret: string, orderId: number): string =>
  createHmac('sha256', secret).update(`numa-stripe-cancel:${orderId}`).digest('hex');

/** Minor (ten-thousandths) to Stripe's smallest unit (cents or fen) and back. */
const toCents = (m: Minor) => Math.round(m / 100);
const fromCents = (c: number) => minor(c * 100);
const idOf = (x: string | { id: string } | null | undefined) => (typeof x === 'string' ? x : x?.id);
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** A Stripe refund's status in our terms (requires_action: the money has not left yet, but is on its way). */
const refundStatus = (s: string | null): RefundNotification['status'] | null =>
  s === 'succeeded'
    ? 'succeeded'
    : s === 'pending' || s === 'requires_action'
      ? 'pending'
      : s === 'failed'
        ? 'failed'
        : s === 'canceled'
          ? 'canceled'
          : null;

/** The refund events: each carries one Refund (`charge.refund.updated` is the older name of `refund.updated`). */
const refundEvents = new Set(['refund.created', 'refund.updated', 'refund.failed', 'charge.refund.updated']);

/**
 * Stripe (issues 10, 18): Checkout Sessions for card, Alipay, WeChat Pay and UnionPay cards with the
 * official SDK; webhooks verified with its signature check (`constructEvent`).
 * Payments: `checkout.session.completed` with payment_status `paid` and
 * `checkout.session.async_payment_succeeded` credit (with the session's payment_intent as the
 * payment's id); `checkout.session.async_payment_failed` and `checkout.session.expired` fail the
 * order.
 * Refunds: `refund.created`, `refund.updated`, `refund.failed` (and `charge.refund.updated`, their
 * older name) tell of one refund; `charge.refunded` tells of every refund of the charge (the charge
 * carries them only in API versions before 2022-11-15 or when expanded, else they are listed).
 * Disputes: `charge.dispute.created` (an inquiry, `warning_…`, takes no money and is ignored) and
 * `charge.dispute.funds_withdrawn` open one; `charge.dispute.funds_reinstated` and
 * `charge.dispute.closed` won (or prevented) give it back; closed lost is final.
 * Other events are acknowledged and ignored.
 */
export class StripePayments implements PaymentProvider {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  constructor(private readonly config: StripeConfig) {
    const base = config.apiBaseUrl ? new URL(config.apiBaseUrl) : null;
    this.stripe = new (lazy.stripe())(config.secretKey, {
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
        // Cancel comes to us first (the order closes as cancelled, the dialog says so), then goes back
        cancel_url: `${order.baseUrl}${stripeCancelPath}?order=${order.orderId}&sig=${cancelSignature(this.config.webhookSecret, order.orderId)}`,
      });
      if (!session.url) throw new Error('Checkout Session without a URL');
      return { ref: session.id, paymentUrl: session.url };
    } catch (err) {
      // a request Stripe refuses is our order's failure (200042); anything else is Stripe being
      // unreachable or down (200041: recharge temporarily unavailable)
      if (err instanceof lazy.stripe().errors.StripeInvalidRequestError)
        throw new Error(`Stripe refused the checkout: ${err.message}`, { cause: err });
      throw new ProviderUnavailable(`Stripe is unavailable: ${(err as Error).message}`, { cause: err });
    }
  }

  async parseNotification(w: IncomingWebhook): Promise<PaymentNotification | PaymentNotification[] | null> {
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

  private async fromEvent(event: Stripe.Event): Promise<PaymentNotification | PaymentNotification[] | null> {
    const payload = event as unknown as Record<string, unknown>;
    if (refundEvents.has(event.type))
      return this.fromRefund(event.data.object as Stripe.Refund, event.id, payload);
    if (event.type === 'charge.refunded') {
      const charge = event.data.object as Stripe.Charge;
      const refunds =
        charge.refunds && !charge.refunds.has_more
          ? charge.refunds.data
          : await this.api('list the refunds of a charge', async () => {
              const all: Stripe.Refund[] = [];
              for await (const r of this.stripe.refunds.list({ charge: charge.id, limit: 100 })) all.push(r);
              return all;
            });
      const told = await Promise.all(
        refunds.map((r) => this.fromRefund(r, `${event.id}:${r.id}`, payload, charge)),
      );
      return told.filter((n): n is RefundNotification => n !== null);
    }
    if (event.type.startsWith('charge.dispute.')) {
      const d = event.data.object as Stripe.Dispute;
      let status: DisputeNotification['status'] | null = null;
      if (event.type === 'charge.dispute.created') status = d.status.startsWith('warning_') ? null : 'opened';
      else if (event.type === 'charge.dispute.funds_withdrawn') status = 'opened';
      else if (event.type === 'charge.dispute.funds_reinstated') status = 'won';
      else if (event.type === 'charge.dispute.closed')
        status = d.status === 'won' || d.status === 'prevented' ? 'won' : d.status === 'lost' ? 'lost' : null;
      if (!status) return null;
      const paymentRef = idOf(d.payment_intent) ?? (await this.intentOfCharge(idOf(d.charge)));
      if (!paymentRef) return null;
      return {
        kind: 'dispute',
        eventId: event.id,
        paymentRef,
        disputeId: d.id,
        status,
        amount: fromCents(d.amount),
        currency: d.currency.toLowerCase(),
        payload,
      };
    }
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
    const intent = idOf(s.payment_intent);
    return {
      kind: 'payment',
      eventId: event.id,
      ref: s.id,
      ...(intent ? { paymentRef: intent } : {}),
      outcome,
      amount: fromCents(s.amount_total ?? -1),
      currency: (s.currency ?? '').toLowerCase(),
      payload,
    };
  }

  /** One refund in our terms (null for a status we do not know, or a refund of no payment intent). */
  private async fromRefund(
    r: Stripe.Refund,
    eventId: string,
    payload: Record<string, unknown>,
    charge?: Stripe.Charge,
  ): Promise<RefundNotification | null> {
    const status = refundStatus(r.status);
    const paymentRef =
      idOf(r.payment_intent) ?? idOf(charge?.payment_intent) ?? (await this.intentOfCharge(idOf(r.charge)));
    if (!status || !paymentRef) return null;
    return {
      kind: 'refund',
      eventId,
      paymentRef,
      refundId: r.id,
      status,
      amount: fromCents(r.amount),
      currency: r.currency.toLowerCase(),
      payload,
    };
  }

  /** The payment intent of a charge (an event that names only the charge). */
  private async intentOfCharge(chargeId: string | undefined): Promise<string | undefined> {
    if (!chargeId) return undefined;
    const c = await this.api('read a charge', () => this.stripe.charges.retrieve(chargeId));
    return idOf(c.payment_intent);
  }

  /** A call to Stripe's API while handling its webhook or a listing: unreachable is ProviderUnavailable (Stripe retries the webhook). */
  private async api<T>(what: string, f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (err) {
      throw new ProviderUnavailable(`Stripe could not ${what}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** The Checkout Session a payment intent belongs to, when it is one of ours (its metadata names our order). */
  async findRef(paymentRef: string): Promise<string | null> {
    const page = await this.api('find a checkout session', () =>
      this.stripe.checkout.sessions.list({ payment_intent: paymentRef, limit: 1 }),
    );
    const s = page.data[0];
    return s?.metadata?.orderId ? s.id : null;
  }

  /**
   * Reconciliation: our Checkout Sessions (those whose metadata names an order), every refund and
   * every dispute created in [from, to), through the SDK's list calls (auto-pagination).
   */
  async listTransactions(from: Date, to: Date): Promise<ProviderTransaction[]> {
    const created = { gte: seconds(from), lt: Math.ceil(to.getTime() / 1000) };
    const out: ProviderTransaction[] = [];
    await this.api('list checkout sessions', async () => {
      for await (const s of this.stripe.checkout.sessions.list({ created, limit: 100 })) {
        if (!s.metadata?.orderId) continue;
        const intent = idOf(s.payment_intent);
        out.push({
          kind: 'payment',
          id: s.id,
          ref: s.id,
          ...(intent ? { paymentRef: intent } : {}),
          amount: fromCents(s.amount_total ?? 0),
          currency: (s.currency ?? '').toLowerCase(),
          status: s.payment_status === 'paid' ? 'paid' : (s.status ?? 'unknown'),
          at: new Date(s.created * 1000),
        });
      }
    });
    await this.api('list refunds', async () => {
      for await (const r of this.stripe.refunds.list({ created, limit: 100 })) {
        const intent = idOf(r.payment_intent);
        out.push({
          kind: 'refund',
          id: r.id,
          ...(intent ? { paymentRef: intent } : {}),
          amount: fromCents(r.amount),
          currency: r.currency.toLowerCase(),
          status: r.status ?? 'unknown',
          at: new Date(r.created * 1000),
        });
      }
    });
    await this.api('list disputes', async () => {
      for await (const d of this.stripe.disputes.list({ created, limit: 100 })) {
        const intent = idOf(d.payment_intent);
        out.push({
          kind: 'dispute',
          id: d.id,
          ...(intent ? { paymentRef: intent } : {}),
          amount: fromCents(d.amount),
          currency: d.currency.toLowerCase(),
          status: d.status,
          at: new Date(d.created * 1000),
        });
      }
    });
    return out;
  }

  async query(ref: string): Promise<PaymentOutcome | 'pending' | 'unknown'> {
    try {
      const s = await this.stripe.checkout.sessions.retrieve(ref);
      const intent = idOf(s.payment_intent);
      if (s.payment_status === 'paid')
        return {
          kind: 'payment',
          eventId: `query:${s.id}:paid`,
          ref: s.id,
          ...(intent ? { paymentRef: intent } : {}),
          outcome: 'paid',
          amount: fromCents(s.amount_total ?? -1),
          currency: (s.currency ?? '').toLowerCase(),
          payload: { session: s.id },
        };
      if (s.status === 'expired')
        return {
          kind: 'payment',
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

  verifyCancel(orderId: number, sig: string): boolean {
    const expected = Buffer.from(cancelSignature(this.config.webhookSecret, orderId), 'hex');
    const given = Buffer.from(sig, 'hex');
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** Refunds `amount` of the session's payment; the refund's id keys it with its own webhooks. */
  async refund(ref: string, amount: Minor): Promise<RefundResult> {
    const s = await this.stripe.checkout.sessions.retrieve(ref);
    const intent = idOf(s.payment_intent);
    if (!intent) throw new ProviderUnavailable('the session has no payment to refund');
    const r = await this.stripe.refunds.create({
      payment_intent: intent,
      amount: toCents(amount),
      metadata: { checkoutSession: ref },
    });
    return { refundId: r.id, status: refundStatus(r.status) ?? 'pending', paymentRef: intent };
  }
}
