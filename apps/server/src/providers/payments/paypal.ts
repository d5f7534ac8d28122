import type {
  ApiError as PaypalApiError,
  OrdersController,
  PaymentsController,
  TransactionSearchController,
  Order,
} from '@paypal/paypal-server-sdk';
import { z } from 'zod';
import { brands, minor, type BrandId, type Minor, type PaymentMethodKey } from '@numa/contract';
import type { Clock } from '../../lib/clock';
import { lazy } from '../../lib/lazy';
import type { ServesMethods } from './capabilities';
import { decimalToMinor, minorToDecimal } from './decimal';
import { PaypalWebhookVerifier, type CertPolicy } from './paypal-webhook';
import {
  ForgedNotification,
  ProviderUnavailable,
  type Checkout,
  type CheckoutOrder,
  type IncomingWebhook,
  type PaymentNotification,
  type PaymentOutcome,
  type PaymentProvider,
  type ProviderTransaction,
  type RefundResult,
} from './port';
import { DAY_MS } from '../../lib/dates';

export interface PaypalConfig {
  clientId: string;
  clientSecret: string;
  /** The id PayPal gave our webhook (Developer Dashboard → the app → Webhooks): part of every signature. */
  webhookId: string;
  environment: 'sandbox' | 'live';
  /** Our invoice_id is this prefix + our order id (unique per PayPal account, across deployments). */
  invoicePrefix: string;
  /** Tests: a local stand-in answering instead of PayPal's API host. */
  apiBaseUrl?: string | undefined;
}

/** Paths on our server the payer's browser comes back to from PayPal (routes/payments.ts). */
export const paypalReturnPath = '/pay/return/paypal';
export const paypalCancelPath = '/pay/cancel/paypal';

/** A webhook event as PayPal posts it (only what we read; resources are checked per event type). */
const Money = z.object({ currency_code: z.string().min(3).max(3), value: z.string().min(1).max(32) });
const Link = z.object({ href: z.string(), rel: z.string() });
const PaypalEvent = z.object({
  id: z.string().min(1).max(100),
  event_type: z.string().min(1).max(100),
  resource_type: z.string().optional(),
  create_time: z.string().optional(),
  resource: z.record(z.string(), z.unknown()),
});
const CaptureResource = z.object({
  id: z.string().min(1),
  status: z.string(),
  amount: Money,
  custom_id: z.string().optional(),
  supplementary_data: z
    .object({ related_ids: z.object({ order_id: z.string().optional() }).partial().optional() })
    .optional(),
  links: z.array(Link).optional(),
});
const RefundResource = z.object({
  id: z.string().min(1),
  status: z.string(),
  amount: Money,
  links: z.array(Link).optional(),
});
const OrderResource = z.object({ id: z.string().min(1), status: z.string().optional() });
const DisputeResource = z.object({
  dispute_id: z.string().min(1),
  status: z.string().optional(),
  dispute_amount: Money,
  disputed_transactions: z.array(z.object({ seller_transaction_id: z.string().optional() })).min(1),
  dispute_outcome: z.object({ outcome_code: z.string() }).optional(),
});

/** The last path segment after `/captures/` (a refund's `up` link, an order's capture link). */
const captureIdFromLinks = (links: { href: string; rel: string }[] | undefined) => {
  const up = links?.find((l) => l.rel === 'up' && /\/v2\/payments\/captures\//.test(l.href));
  return up ? up.href.split('/captures/')[1]?.split(/[/?#]/)[0] : undefined;
};
const orderIdFromLinks = (links: { href: string; rel: string }[] | undefined) => {
  const up = links?.find((l) => l.rel === 'up' && /\/v2\/checkout\/orders\//.test(l.href));
  return up ? up.href.split('/orders/')[1]?.split(/[/?#]/)[0] : undefined;
};

const amountOf = (m: { value: string }): Minor => {
  const v = decimalToMinor(m.value.replace(/^-/, ''));
  if (v === null) throw new ForgedNotification(`bad amount ${m.value.slice(0, 20)}`);
  return v;
};

const refundStatus = (s: string): 'succeeded' | 'pending' | 'failed' | 'canceled' =>
  s === 'COMPLETED' ? 'succeeded' : s === 'FAILED' ? 'failed' : s === 'CANCELLED' ? 'canceled' : 'pending';

/** Dispute outcomes (customer_disputes_v1 dispute_outcome.outcome_code) that leave the money with us. */
const disputeWon = new Set(['RESOLVED_SELLER_FAVOUR', 'CANCELED_BY_BUYER', 'DENIED']);

/**
 * PayPal through its Orders v2 API with PayPal's server SDK (issue 18 §2). A top-up creates an order
 * (intent CAPTURE, our order id as custom_id and in invoice_id, return and cancel URLs on the brand's
 * host) and sends the payer to its approval link; when the payer comes back, the order is captured on
 * the server (PayPal-Request-Id makes a repeated capture the same capture). Money is believed from
 * PayPal's own answers only: the capture's response, GET order, and webhooks verified offline
 * (paypal-webhook.ts). Webhooks: PAYMENT.CAPTURE.COMPLETED credits; PAYMENT.CAPTURE.DENIED / DECLINED
 * fail the order; CHECKOUT.ORDER.APPROVED (and …COMPLETED) capture the order if nobody has yet;
 * PAYMENT.CAPTURE.REFUNDED / REVERSED are refunds; CUSTOMER.DISPUTE.CREATED / RESOLVED disputes.
 */
export class PaypalPayments implements PaymentProvider, ServesMethods {
  readonly name = 'paypal';
  /** The SDK, loaded when the provider is made (lib/lazy.ts), not at the server's start. */
  private readonly sdk = lazy.paypal();
  private readonly orders: OrdersController;
  private readonly payments: PaymentsController;
  private readonly search: TransactionSearchController;
  private readonly verifier: PaypalWebhookVerifier;

  constructor(
    private readonly config: PaypalConfig,
    clock: Clock,
    /** Tests only: a local certificate host and a test root (never reachable through configuration). */
    certPolicy?: CertPolicy,
  ) {
    const base = config.apiBaseUrl ? new URL(config.apiBaseUrl) : null;
    // the SDK knows PayPal's two hosts only; a stand-in gets the same requests through a rewritten fetch
    const standIn = base
      ? (input: string | URL | Request, init?: RequestInit) => {
          const u = new URL(input instanceof Request ? input.url : input.toString());
          u.protocol = base.protocol;
          u.host = base.host;
          return fetch(input instanceof Request ? new Request(u, input) : u, init);
        }
      : null;
    const { Client, Environment, OrdersController, PaymentsController, TransactionSearchController } =
      this.sdk;
    const client = new Client({
      clientCredentialsAuthCredentials: {
        oAuthClientId: config.clientId,
        oAuthClientSecret: config.clientSecret,
      },
      environment: config.environment === 'live' ? Environment.Production : Environment.Sandbox,
      timeout: 20_000,
      ...(standIn ? { unstable_httpClientOptions: { adapter: 'fetch', env: { fetch: standIn } } } : {}),
    });
    this.orders = new OrdersController(client);
    this.payments = new PaymentsController(client);
    this.search = new TransactionSearchController(client);
    this.verifier = new PaypalWebhookVerifier(config.webhookId, clock, certPolicy);
  }

  async servedMethods(): Promise<ReadonlySet<PaymentMethodKey>> {
    return new Set<PaymentMethodKey>(['paypal']);
  }

  /** Runs an SDK call: PayPal refusing the request is our order's failure, anything else PayPal's absence. */
  private async call<T>(what: string, f: () => Promise<{ result: T }>): Promise<T> {
    try {
      return (await f()).result;
    } catch (err) {
      if (
        err instanceof this.sdk.ApiError &&
        err.statusCode >= 400 &&
        err.statusCode < 500 &&
        err.statusCode !== 401 &&
        err.statusCode !== 429
      )
        throw new PaypalRefused(what, err.statusCode, issueOf(err), { cause: err });
      throw new ProviderUnavailable(`PayPal ${what} failed: ${(err as Error).message}`, { cause: err });
    }
  }

  async createCheckout(order: CheckoutOrder): Promise<Checkout> {
    if (order.method !== 'paypal') throw new ProviderUnavailable(`PayPal does not take ${order.method}`);
    if (order.currency !== 'usd') throw new ProviderUnavailable('PayPal takes USD only');
    const brand = brands[order.brand as BrandId];
    const created = await this.call('create order', () =>
      this.orders.createOrder({
        // the same order id asks for the same PayPal order (a retried submit does not open a second)
        paypalRequestId: `numa-create-${this.config.invoicePrefix}${order.orderId}`,
        prefer: 'return=representation',
        body: {
          intent: this.sdk.CheckoutPaymentIntent.Capture,
          purchaseUnits: [
            {
              referenceId: String(order.orderId),
              customId: String(order.orderId),
              invoiceId: `${this.config.invoicePrefix}${order.orderId}`,
              description: order.description.slice(0, 127),
              amount: { currencyCode: 'USD', value: minorToDecimal(order.amount, 2) },
            },
          ],
          paymentSource: {
            paypal: {
              experienceContext: {
                brandName: (brand?.name.en ?? order.brand).slice(0, 127),
                returnUrl: `${order.baseUrl}${paypalReturnPath}`,
                cancelUrl: `${order.baseUrl}${paypalCancelPath}`,
                userAction: this.sdk.PaypalExperienceUserAction.PayNow,
                shippingPreference: this.sdk.PaypalWalletContextShippingPreference.NoShipping,
                landingPage: this.sdk.PaypalExperienceLandingPage.NoPreference,
              },
            },
          },
        },
      }),
    );
    const approve = created.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve');
    if (!created.id || !approve)
      throw new ProviderUnavailable('PayPal answered an order without its approval link');
    return { ref: created.id, paymentUrl: approve.href };
  }

  /**
   * Captures an approved order, once: the same PayPal-Request-Id for every attempt, so the return,
   * the CHECKOUT.ORDER.APPROVED webhook and the operator's re-query all get the one capture. Then
   * answers how the order stands.
   */
  async capture(orderId: string): Promise<Order> {
    try {
      return await this.call('capture', () =>
        this.orders.captureOrder({
          id: orderId,
          paypalRequestId: `numa-capture-${orderId}`,
          prefer: 'return=representation',
        }),
      );
    } catch (err) {
      // ORDER_ALREADY_CAPTURED, ORDER_NOT_APPROVED, INSTRUMENT_DECLINED (the payer picks another funding
      // source at PayPal), a capture still in progress (409): the order itself tells where it stands
      if (err instanceof PaypalRefused) return this.getOrder(orderId);
      throw err;
    }
  }

  private getOrder(orderId: string): Promise<Order> {
    return this.call('get order', () => this.orders.getOrder({ id: orderId }));
  }

  /** An order as PayPal answered it, in our terms: paid or failed once captured, else pending. */
  private outcomeOf(order: Order): PaymentOutcome | 'pending' {
    const capture = order.purchaseUnits?.[0]?.payments?.captures?.[0];
    const base = {
      kind: 'payment' as const,
      ref: order.id!,
      payload: { order: order.id, status: order.status },
    };
    if (order.status === 'VOIDED')
      return {
        ...base,
        eventId: `order:${order.id}:voided`,
        outcome: 'failed',
        amount: minor(0),
        currency: 'usd',
      };
    if (!capture?.id || !capture.amount) return 'pending';
    const amount = decimalToMinor(capture.amount.value);
    if (amount === null) return 'pending';
    const paid = {
      ...base,
      paymentRef: capture.id,
      amount,
      currency: capture.amount.currencyCode.toLowerCase(),
    };
    switch (capture.status) {
      // a capture refunded since was paid first: the refund is told of on its own
      case 'COMPLETED':
      case 'PARTIALLY_REFUNDED':
      case 'REFUNDED':
        return { ...paid, eventId: `capture:${capture.id}:completed`, outcome: 'paid' };
      case 'DECLINED':
      case 'FAILED':
        return {
          ...paid,
          eventId: `capture:${capture.id}:${capture.status.toLowerCase()}`,
          outcome: 'failed',
        };
      default:
        return 'pending';
    }
  }

  async query(ref: string): Promise<PaymentOutcome | 'pending' | 'unknown'> {
    try {
      const order = await this.getOrder(ref);
      // approved and not captured yet (the payer closed the window before coming back): capture now
      return this.outcomeOf(order.status === 'APPROVED' ? await this.capture(ref) : order);
    } catch {
      return 'unknown';
    }
  }

  async parseNotification(w: IncomingWebhook): Promise<PaymentNotification | null> {
    await this.verifier.verify(w);
    let parsed: z.infer<typeof PaypalEvent>;
    try {
      parsed = PaypalEvent.parse(JSON.parse(w.rawBody));
    } catch {
      throw new ForgedNotification('not a PayPal webhook event');
    }
    const payload = parsed as unknown as Record<string, unknown>;
    const eventId = parsed.id;
    const shape = <T>(schema: z.ZodType<T>): T => {
      const r = schema.safeParse(parsed.resource);
      if (!r.success) throw new ForgedNotification(`${parsed.event_type} resource of an unknown shape`);
      return r.data;
    };
    switch (parsed.event_type) {
      case 'CHECKOUT.ORDER.APPROVED':
      case 'CHECKOUT.ORDER.COMPLETED': {
        const order = shape(OrderResource);
        // capture if nobody has yet; a capture made already is answered as it stands
        const now =
          order.status === 'COMPLETED' ? await this.getOrder(order.id) : await this.capture(order.id);
        const outcome = this.outcomeOf(now);
        return outcome === 'pending' ? null : { ...outcome, eventId, payload };
      }
      case 'PAYMENT.CAPTURE.COMPLETED':
      case 'PAYMENT.CAPTURE.DENIED':
      case 'PAYMENT.CAPTURE.DECLINED': {
        const c = shape(CaptureResource);
        const paid = parsed.event_type === 'PAYMENT.CAPTURE.COMPLETED';
        if (paid && c.status !== 'COMPLETED') return null;
        const ref = c.supplementary_data?.related_ids?.order_id ?? orderIdFromLinks(c.links);
        return {
          kind: 'payment',
          eventId,
          ...(ref ? { ref } : {}),
          paymentRef: c.id,
          outcome: paid ? 'paid' : 'failed',
          amount: amountOf(c.amount),
          currency: c.amount.currency_code.toLowerCase(),
          payload,
        };
      }
      case 'PAYMENT.CAPTURE.REFUNDED':
      case 'PAYMENT.CAPTURE.REVERSED': {
        const r = shape(RefundResource);
        const captureId = captureIdFromLinks(r.links);
        if (!captureId) throw new ForgedNotification('refund names no capture');
        const ref = await this.orderOfCapture(captureId);
        return {
          kind: 'refund',
          eventId,
          ...(ref ? { ref } : {}),
          paymentRef: captureId,
          refundId: r.id,
          status: refundStatus(r.status),
          amount: amountOf(r.amount),
          currency: r.amount.currency_code.toLowerCase(),
          payload,
        };
      }
      case 'CUSTOMER.DISPUTE.CREATED':
      case 'CUSTOMER.DISPUTE.RESOLVED': {
        const d = shape(DisputeResource);
        const captureId = d.disputed_transactions[0]?.seller_transaction_id;
        if (!captureId) throw new ForgedNotification('dispute names no transaction');
        let status: 'opened' | 'won' | 'lost' = 'opened';
        if (parsed.event_type === 'CUSTOMER.DISPUTE.RESOLVED') {
          const code = d.dispute_outcome?.outcome_code;
          if (!code) throw new ForgedNotification('resolved dispute without its outcome');
          status = disputeWon.has(code) ? 'won' : 'lost';
        }
        const ref = await this.orderOfCapture(captureId);
        return {
          kind: 'dispute',
          eventId,
          ...(ref ? { ref } : {}),
          paymentRef: captureId,
          disputeId: d.dispute_id,
          status,
          amount: amountOf(d.dispute_amount),
          currency: d.dispute_amount.currency_code.toLowerCase(),
          payload,
        };
      }
      default:
        // PAYMENT.CAPTURE.PENDING, CUSTOMER.DISPUTE.UPDATED and the rest: nothing to do here
        return null;
    }
  }

  /** The PayPal order a capture belongs to (refund and dispute events name only the capture); best effort. */
  private async orderOfCapture(captureId: string): Promise<string | undefined> {
    try {
      const c = await this.payments.getCapturedPayment({ captureId });
      return c.result.supplementaryData?.relatedIds?.orderId;
    } catch {
      return undefined;
    }
  }

  async cancel(): Promise<void> {
    // Orders v2 has no call to withdraw an order that was never approved: PayPal lets it lapse
  }

  /** Refunds (part of) the order's capture; the same amount asked twice is the same refund. */
  async refund(ref: string, amount: Minor): Promise<RefundResult> {
    const order = await this.getOrder(ref);
    const capture = order.purchaseUnits?.[0]?.payments?.captures?.[0];
    if (!capture?.id) throw new ProviderUnavailable('the PayPal order has no capture to refund');
    // the refund's id keys it with its own PAYMENT.CAPTURE.REFUNDED webhook (one refund, debited once)
    const refund = await this.call('refund', () =>
      this.payments.refundCapturedPayment({
        captureId: capture.id!,
        paypalRequestId: `numa-refund-${capture.id}-${amount}`,
        prefer: 'return=representation',
        body: {
          amount: { currencyCode: capture.amount?.currencyCode ?? 'USD', value: minorToDecimal(amount, 2) },
          noteToPayer: 'Top-up refunded',
        },
      }),
    );
    if (!refund.id) throw new ProviderUnavailable('PayPal answered a refund without its id');
    return {
      refundId: refund.id,
      status: refundStatus(String(refund.status ?? 'PENDING')),
      paymentRef: capture.id,
    };
  }

  /**
   * PayPal's transaction search (v1/reporting/transactions; at most 31 days a request, 500 rows a
   * page; PayPal lists a transaction up to three hours after it happened): payments (T00xx event
   * codes), refunds and reversals (T11xx), chargebacks (T12xx).
   */
  async listTransactions(from: Date, to: Date): Promise<ProviderTransaction[]> {
    const out: ProviderTransaction[] = [];
    const window = 31 * DAY_MS - 1000;
    for (let start = from.getTime(); start < to.getTime(); start += window) {
      const end = Math.min(start + window, to.getTime());
      for (let page = 1; ; page++) {
        const r = await this.call('transaction search', () =>
          this.search.searchTransactions({
            startDate: new Date(start).toISOString().replace(/\.\d{3}Z$/, 'Z'),
            endDate: new Date(end).toISOString().replace(/\.\d{3}Z$/, 'Z'),
            fields: 'transaction_info',
            balanceAffectingRecordsOnly: 'Y',
            pageSize: 500,
            page,
          }),
        );
        for (const d of r.transactionDetails ?? []) {
          const t = d.transactionInfo;
          const code = t?.transactionEventCode ?? '';
          const kind = code.startsWith('T00')
            ? 'payment'
            : code.startsWith('T11')
              ? 'refund'
              : code.startsWith('T12')
                ? 'dispute'
                : null;
          const amount = t?.transactionAmount
            ? decimalToMinor(t.transactionAmount.value.replace(/^-/, ''))
            : null;
          if (!kind || !t?.transactionId || amount === null || !t.transactionInitiationDate) continue;
          const paymentRef = kind === 'payment' ? t.transactionId : t.paypalReferenceId;
          out.push({
            kind,
            id: t.transactionId,
            ...(paymentRef ? { paymentRef } : {}),
            amount,
            currency: t.transactionAmount!.currencyCode.toLowerCase(),
            status: t.transactionStatus ?? '',
            // PayPal writes the offset without a colon (2014-07-11T04:03:52+0000)
            at: new Date(t.transactionInitiationDate.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')),
          });
        }
        if (!r.totalPages || page >= r.totalPages) break;
      }
    }
    return out;
  }
}

/** PayPal refused a request (4xx): its `name` (ORDER_ALREADY_CAPTURED, UNPROCESSABLE_ENTITY …) and issue. */
export class PaypalRefused extends Error {
  constructor(
    what: string,
    readonly status: number,
    readonly issue: string,
    options?: ErrorOptions,
  ) {
    super(`PayPal refused the ${what} (${status} ${issue})`, options);
  }
}

const issueOf = (err: PaypalApiError): string => {
  const body = err.result as { name?: string; details?: { issue?: string }[] } | undefined;
  return body?.details?.[0]?.issue ?? body?.name ?? '';
};
