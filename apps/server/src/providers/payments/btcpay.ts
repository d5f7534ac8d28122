import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  constants,
  cryptoMethodOf,
  type CryptoCurrency,
  type CryptoNetwork,
  type Minor,
  type PaymentMethodKey,
} from '@numa/contract';
import type { Clock } from '../../lib/clock';
import type { ServesMethods, TransferCheckout } from './capabilities';
import {
  compareDecimal,
  decimalToMinor,
  minorToDecimal,
  mulDecimal,
  roundDecimal,
  trimDecimal,
} from './decimal';
import {
  ForgedNotification,
  ProviderUnavailable,
  type Checkout,
  type CheckoutOrder,
  type IncomingWebhook,
  type PaymentOutcome,
  type PaymentProvider,
  type ProviderTransaction,
} from './port';

export interface BtcpayConfig {
  /** The BTCPay Server, e.g. https://pay.example.com */
  url: string;
  /** A Greenfield API key of the store's owner: view and create invoices, view store settings (refunds: modify the store). */
  apiKey: string;
  storeId: string;
  /** The secret of the store's webhook pointed at <public URL>/pay/notify/btcpay. */
  webhookSecret: string;
  /**
   * Our coin (and network) → the store's payment method id: `ETH` → `ETH-CHAIN`, `USDT.TRC-20` → the id
   * the store's USDT-on-Tron plugin registers. A coin with no entry, or whose method the store has not
   * enabled, is not offered.
   */
  paymentMethods: Record<string, string>;
  /** How long an invoice's quote holds (minutes); unset: the store's own setting. */
  invoiceExpirationMinutes?: number | undefined;
}

/** The built-in mapping: the ids BTCPay's `<CODE>-CHAIN` convention gives on-chain coins. */
export const defaultBtcpayMethods: Record<string, string> = { ETH: 'ETH-CHAIN', BCH: 'BCH-CHAIN' };

const mappingKey = (currency: string, network: string | null) =>
  network ? `${currency}.${network}` : currency;

const Decimal = z.string().regex(/^-?\d{1,30}(\.\d{1,30})?$/);
const Invoice = z.object({
  id: z.string().min(1).max(100),
  storeId: z.string().optional(),
  amount: Decimal,
  currency: z.string().min(1).max(10),
  status: z.string(),
  additionalStatus: z.string().optional(),
  checkoutLink: z.string().url(),
  createdTime: z.number().optional(),
});
type Invoice = z.infer<typeof Invoice>;
const InvoicePaymentMethod = z.object({
  // 2.x: paymentMethodId; 1.x: paymentMethod
  paymentMethodId: z.string().optional(),
  paymentMethod: z.string().optional(),
  destination: z.string().nullable().optional(),
  rate: Decimal.nullable().optional(),
  due: Decimal.nullable().optional(),
  amount: Decimal.nullable().optional(),
  totalPaid: Decimal.nullable().optional(),
  paymentMethodPaid: Decimal.nullable().optional(),
  activated: z.boolean().optional(),
});
type InvoicePaymentMethod = z.infer<typeof InvoicePaymentMethod>;
const StorePaymentMethod = z.object({ paymentMethodId: z.string(), enabled: z.boolean() });
const WebhookEvent = z.object({
  deliveryId: z.string().min(1).max(200),
  webhookId: z.string().optional(),
  originalDeliveryId: z.string().nullable().optional(),
  isRedelivery: z.boolean().optional(),
  type: z.string().min(1).max(100),
  timestamp: z.number().optional(),
  storeId: z.string().min(1),
  invoiceId: z.string().min(1).max(100),
  manuallyMarked: z.boolean().optional(),
  overPaid: z.boolean().optional(),
  partiallyPaid: z.boolean().optional(),
});

const pmIdOf = (m: InvoicePaymentMethod) => (m.paymentMethodId ?? m.paymentMethod ?? '').toUpperCase();

/**
 * Crypto through BTCPay Server's Greenfield API (issue 18 §2). The hosted checkout (cryptoPay) is a
 * BTCPay invoice in the order's legal money, opened at its checkout link. A direct transfer (usdtPay …
 * bchPay) is an invoice limited to the coin's payment method; its destination and amount (BTCPay's
 * quote, rounded up to 8 decimals so the payer never sends too little) are what the crypto dialog
 * shows. Webhooks are signed `BTCPay-Sig: sha256=<HMAC-SHA256 of the body>`; InvoiceSettled credits
 * after the invoice is read back (its amount, and in integer arithmetic that nothing is left due),
 * InvoiceExpired and InvoiceInvalid fail the order, payments received on the way (InvoiceReceivedPayment,
 * InvoicePaymentSettled, InvoiceProcessing) move nothing. A redelivery carries its original delivery's id.
 */
export class BtcpayPayments implements PaymentProvider, ServesMethods {
  readonly name = 'btcpay';
  private readonly base: string;
  private served: { at: number; methods: Set<string> } | null = null;

  constructor(
    private readonly config: BtcpayConfig,
    private readonly clock: Clock,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.base = config.url.replace(/\/$/, '');
  }

  private async api<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `token ${this.config.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new ProviderUnavailable(`BTCPay unreachable: ${(err as Error).message}`, { cause: err });
    }
    const text = await res.text();
    if (res.status === 404) throw new BtcpayNotFound(path);
    if (res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 429)
      throw new Error(`BTCPay refused ${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    if (!res.ok) throw new ProviderUnavailable(`BTCPay ${method} ${path}: HTTP ${res.status}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderUnavailable(`BTCPay ${method} ${path} answered something that is not JSON`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ProviderUnavailable(`BTCPay ${method} ${path} answered an unknown shape`);
    return parsed.data;
  }

  private store = (rest = '') => `/api/v1/stores/${encodeURIComponent(this.config.storeId)}${rest}`;
  private invoicePath = (id: string, rest = '') => this.store(`/invoices/${encodeURIComponent(id)}${rest}`);

  /** The store's enabled payment method ids, read at most once a minute (on failure: the last known, else none). */
  private async enabledMethods(): Promise<Set<string>> {
    const now = this.clock.now();
    if (this.served && now - this.served.at < 60_000) return this.served.methods;
    try {
      const list = await this.api(
        'GET',
        this.store('/payment-methods?onlyEnabled=true'),
        z.array(StorePaymentMethod),
      );
      this.served = {
        at: now,
        methods: new Set(list.filter((m) => m.enabled).map((m) => m.paymentMethodId.toUpperCase())),
      };
    } catch {
      if (!this.served) return new Set();
    }
    return this.served!.methods;
  }

  private methodIdFor(currency: string, network: string | null): string | undefined {
    return this.config.paymentMethods[mappingKey(currency, network)]?.toUpperCase();
  }

  async servedMethods(): Promise<ReadonlySet<PaymentMethodKey>> {
    const enabled = await this.enabledMethods();
    const out = new Set<PaymentMethodKey>();
    if (enabled.size) out.add('cryptoPay');
    for (const currency of constants.cryptoCurrencies) {
      const networks = (constants.cryptoWithoutNetwork as readonly string[]).includes(currency)
        ? [null]
        : constants.cryptoNetworks;
      if (networks.some((n) => enabled.has(this.methodIdFor(currency, n) ?? '\0')))
        out.add(cryptoMethodOf[currency]);
    }
    return out;
  }

  async servesTransfer(currency: CryptoCurrency, network: CryptoNetwork | null): Promise<boolean> {
    const id = this.methodIdFor(currency, network);
    return !!id && (await this.enabledMethods()).has(id);
  }

  async createCheckout(order: CheckoutOrder): Promise<Checkout | TransferCheckout> {
    const transfer = order.crypto;
    const methodId = transfer ? this.methodIdFor(transfer.currency, transfer.network) : undefined;
    if (transfer && !methodId)
      throw new ProviderUnavailable(
        `no BTCPay payment method for ${mappingKey(transfer.currency, transfer.network)}`,
      );
    if (!transfer && order.method !== 'cryptoPay')
      throw new ProviderUnavailable(`BTCPay does not take ${order.method}`);
    const back = order.returnUrl ?? `${order.baseUrl}/account/credit`;
    const invoice = await this.api('POST', this.store('/invoices'), Invoice, {
      amount: minorToDecimal(order.amount, 2),
      currency: order.currency.toUpperCase(),
      metadata: { orderId: String(order.orderId), brand: order.brand, itemDesc: order.description },
      checkout: {
        redirectURL: back,
        redirectAutomatically: true,
        ...(methodId
          ? { paymentMethods: [methodId], defaultPaymentMethod: methodId, lazyPaymentMethods: false }
          : {}),
        ...(this.config.invoiceExpirationMinutes
          ? { expirationMinutes: this.config.invoiceExpirationMinutes }
          : {}),
        // a transfer may take up to 48 hours to confirm (spec 001 §9): BTCPay keeps watching that long
        monitoringMinutes: Math.round(constants.cryptoSettleMaxMs / 60_000),
      },
    });
    if (!transfer || !methodId) return { ref: invoice.id, paymentUrl: invoice.checkoutLink };
    const methods = await this.api(
      'GET',
      this.invoicePath(invoice.id, '/payment-methods'),
      z.array(InvoicePaymentMethod),
    );
    const pm = methods.find((m) => pmIdOf(m) === methodId);
    const due = pm?.due ?? pm?.amount;
    if (!pm?.destination || !due || !pm.rate || compareDecimal(due, '0') <= 0)
      throw new ProviderUnavailable(`BTCPay gave no ${methodId} destination for invoice ${invoice.id}`);
    return {
      ref: invoice.id,
      paymentUrl: invoice.checkoutLink,
      transfer: {
        currency: transfer.currency as CryptoCurrency,
        network: transfer.network as CryptoNetwork | null,
        amount: trimDecimal(roundDecimal(due, constants.cryptoDecimals, 'up')),
        address: pm.destination,
        rate: trimDecimal(roundDecimal(pm.rate, constants.cryptoDecimals, 'down')),
        rateTime: this.clock.now(),
      },
    };
  }

  /**
   * A settled invoice in our terms: paid with the invoice's amount when nothing is left due on it;
   * otherwise (BTCPay settled it within the store's payment tolerance) paid with what arrived, which
   * then differs from the order and is refused and recorded rather than credited as full. Marked
   * settled by hand in BTCPay: the store's operator decided, credited as the invoice's amount.
   */
  private async settled(
    invoice: Invoice,
    eventId: string,
    payload: Record<string, unknown>,
    manuallyMarked: boolean,
  ): Promise<PaymentOutcome> {
    const amount = decimalToMinor(invoice.amount);
    if (amount === null)
      throw new ProviderUnavailable(`BTCPay invoice ${invoice.id} has amount ${invoice.amount}`);
    const base = {
      kind: 'payment' as const,
      eventId,
      ref: invoice.id,
      paymentRef: invoice.id,
      outcome: 'paid' as const,
      currency: invoice.currency.toLowerCase(),
      payload,
    };
    if (manuallyMarked || invoice.additionalStatus === 'Marked') return { ...base, amount };
    const methods = await this.api(
      'GET',
      this.invoicePath(invoice.id, '/payment-methods'),
      z.array(InvoicePaymentMethod),
    );
    const paidUp = methods.some((m) => m.due != null && compareDecimal(m.due, '0') <= 0);
    if (paidUp) return { ...base, amount };
    // what arrived, in legal money: the paid coins × their rate, rounded down (integers throughout)
    let arrived = 0n;
    for (const m of methods)
      if (m.paymentMethodPaid && m.rate && compareDecimal(m.paymentMethodPaid, '0') > 0)
        arrived += BigInt(
          decimalToMinor(roundDecimal(mulDecimal(m.paymentMethodPaid, m.rate), 4, 'down')) ?? 0,
        );
    // the coin says something is still due: never reported as the full amount, whatever the rounding
    return { ...base, amount: (arrived < BigInt(amount) ? Number(arrived) : amount - 1) as Minor };
  }

  private async outcomeOfInvoice(
    invoice: Invoice,
    eventId: string,
    payload: Record<string, unknown>,
    manuallyMarked = false,
  ): Promise<PaymentOutcome | 'pending'> {
    if (invoice.status === 'Settled') return this.settled(invoice, eventId, payload, manuallyMarked);
    if (invoice.status === 'Expired' || invoice.status === 'Invalid')
      return {
        kind: 'payment',
        eventId,
        ref: invoice.id,
        paymentRef: invoice.id,
        outcome: 'failed',
        amount: decimalToMinor(invoice.amount) ?? (0 as Minor),
        currency: invoice.currency.toLowerCase(),
        payload,
      };
    return 'pending';
  }

  async parseNotification(w: IncomingWebhook): Promise<PaymentOutcome | null> {
    const h = w.headers['btcpay-sig'];
    const sig = (Array.isArray(h) ? h[0] : h) ?? '';
    const m = /^sha256=([0-9a-f]{64})$/i.exec(sig.trim());
    if (!m) throw new ForgedNotification('missing or malformed BTCPay-Sig');
    const expected = createHmac('sha256', this.config.webhookSecret).update(w.rawBody, 'utf8').digest();
    const given = Buffer.from(m[1]!, 'hex');
    if (!timingSafeEqual(expected, given)) throw new ForgedNotification('bad BTCPay signature');
    let ev: z.infer<typeof WebhookEvent>;
    try {
      ev = WebhookEvent.parse(JSON.parse(w.rawBody));
    } catch {
      throw new ForgedNotification('not a BTCPay invoice event');
    }
    if (ev.storeId !== this.config.storeId) throw new ForgedNotification('event of another store');
    const eventId = ev.originalDeliveryId || ev.deliveryId;
    const payload = ev as unknown as Record<string, unknown>;
    switch (ev.type) {
      case 'InvoiceSettled':
      case 'InvoiceExpired':
      case 'InvoiceInvalid': {
        // the invoice as it stands now decides (events can arrive out of order)
        let invoice: Invoice;
        try {
          invoice = await this.api('GET', this.invoicePath(ev.invoiceId), Invoice);
        } catch (err) {
          if (err instanceof BtcpayNotFound) throw new ForgedNotification('no such invoice at BTCPay');
          throw err;
        }
        const outcome = await this.outcomeOfInvoice(
          invoice,
          eventId,
          payload,
          ev.manuallyMarked === true && ev.type === 'InvoiceSettled',
        );
        if (outcome === 'pending') return null;
        // an expiry told after the invoice settled (or the reverse) follows the invoice, not the event
        return outcome;
      }
      default:
        // InvoiceCreated, InvoiceReceivedPayment, InvoicePaymentSettled, InvoiceProcessing: money on its way
        return null;
    }
  }

  async query(ref: string): Promise<PaymentOutcome | 'pending' | 'unknown'> {
    try {
      const invoice = await this.api('GET', this.invoicePath(ref), Invoice);
      return await this.outcomeOfInvoice(invoice, `query:${invoice.id}:${invoice.status.toLowerCase()}`, {
        invoice: invoice.id,
        status: invoice.status,
      });
    } catch {
      return 'unknown';
    }
  }

  async cancel(): Promise<void> {
    // deliberately nothing: a transfer may already be on its way when the dialog closes; the invoice
    // expires at BTCPay on its own, and a payment that arrives anyway still settles the order
  }

  /**
   * A refund in BTCPay is a pull payment the payer claims with their own address: this creates it for
   * `amount` of the invoice's money, in the coin that was paid (BTCPay answers its claim link).
   */
  async refund(ref: string, amount: Minor): Promise<void> {
    const invoice = await this.api('GET', this.invoicePath(ref), Invoice);
    const methods = await this.api(
      'GET',
      this.invoicePath(ref, '/payment-methods'),
      z.array(InvoicePaymentMethod),
    );
    const paidWith = methods.find((m) => m.paymentMethodPaid && compareDecimal(m.paymentMethodPaid, '0') > 0);
    if (!paidWith) throw new ProviderUnavailable('nothing was paid on this invoice');
    await this.api('POST', this.invoicePath(ref, '/refund'), z.object({ id: z.string() }).passthrough(), {
      name: `Refund of ${invoice.id}`,
      // payoutMethods since BTCPay 2.1; paymentMethod before (still read when the former is absent)
      payoutMethods: [pmIdOf(paidWith)],
      paymentMethod: pmIdOf(paidWith),
      refundVariant: 'Custom',
      customAmount: minorToDecimal(amount, 2),
      customCurrency: invoice.currency,
    });
  }

  /** Settled invoices created in [from, to), from BTCPay's invoice list (payments only: refunds are pull payments). */
  async listTransactions(from: Date, to: Date): Promise<ProviderTransaction[]> {
    const out: ProviderTransaction[] = [];
    const take = 200;
    for (let skip = 0; ; skip += take) {
      const q = new URLSearchParams({
        startDate: String(Math.floor(from.getTime() / 1000)),
        endDate: String(Math.ceil(to.getTime() / 1000)),
        status: 'Settled',
        skip: String(skip),
        take: String(take),
      });
      const page = await this.api('GET', this.store(`/invoices?${q}`), z.array(Invoice));
      for (const i of page) {
        const amount = decimalToMinor(i.amount);
        const at = (i.createdTime ?? 0) * 1000;
        if (amount === null || at < from.getTime() || at >= to.getTime()) continue;
        out.push({
          kind: 'payment',
          id: i.id,
          ref: i.id,
          paymentRef: i.id,
          amount,
          currency: i.currency.toLowerCase(),
          status: i.status,
          at: new Date(at),
        });
      }
      if (page.length < take) break;
    }
    return out;
  }
}

class BtcpayNotFound extends Error {}
