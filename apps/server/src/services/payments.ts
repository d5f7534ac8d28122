import { createHash } from 'node:crypto';
import {
  brandPaymentMethods,
  brands,
  constants,
  cryptoMethodOf,
  fromMinor,
  methodsNeedingPhone,
  minor,
  parseProductId,
  toMinor,
  addMinor,
  negMinor,
  type BillItem,
  type BrandId,
  type CryptoCurrency,
  type CryptoNetwork,
  type PaymentHistoryItem,
  type PaymentMethodKey,
  type PaymentMethods,
  type PaymentStatus,
  type SmsRecord,
} from '@numa/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db';
import type { Jobs } from '../jobs';
import type { Clock } from '../lib/clock';
import { ApiError } from '../lib/errors';
import { idemKey } from '../lib/idem';
import { accountsRepo } from '../repositories/accounts';
import { ledger } from '../repositories/ledger';
import { historyRepo, paymentsRepo, type OrderRow } from '../repositories/payments';
import {
  ForgedNotification,
  ProviderUnavailable,
  type IncomingWebhook,
  type PaymentNotification,
  type PaymentProvider,
} from '../providers/payments/port';
import { stripeMethodTypes } from '../providers/payments/stripe';
import { currencyOf } from './pricing';

declare module '../jobs/types' {
  interface JobPayloads {
    'payments.expire': Record<string, never>;
  }
}

export interface PaymentOptions {
  /** Submits one account may make per UTC day (200040 past it). */
  dailyAttempts: number;
  /** How long a card / wallet order waits for its payment. */
  orderTtlMs: number;
}

/** Crypto orders wait up to 48 hours (spec 001 §9: a transfer can take that long). */
const cryptoTtlMs = constants.cryptoSettleMaxMs;
const dayMs = 86_400_000;

/** The way of paying a method belongs to (its product id prefix, constants.productPrefixes). */
const wayOf = (method: PaymentMethodKey): keyof typeof constants.productPrefixes => {
  if (
    method === 'creditCard' ||
    method === 'wechatpay' ||
    method === 'alipay' ||
    method === 'unionpay' ||
    method === 'paypal' ||
    method === 'cryptoPay'
  )
    return method;
  return 'crypto';
};
const isCrypto = (method: string) =>
  method === 'cryptoPay' || (Object.values(cryptoMethodOf) as string[]).includes(method);

/** The payment-history `method` of an order's method (spec 001 §3 purchaseMethod values). */
export const purchaseMethodOf = (method: string): PaymentHistoryItem['method'] => {
  switch (method) {
    case 'creditCard':
      return 'creditCard';
    case 'wechatpay':
      return 'wechatpay';
    case 'alipay':
      return 'alipay';
    case 'unionpay':
      return 'UnionPay';
    case 'paypal':
      return 'paypal';
    default:
      return 'Crypto';
  }
};

const isPurchaseMethod = (m: unknown): m is PaymentHistoryItem['method'] =>
  (constants.purchaseMethods as readonly unknown[]).includes(m);

/** A month tab (YYYY-MM, UTC) as [from, to). */
export function monthRange(ym: string): { from: Date; to: Date } {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
}

/** Sandbox crypto rates (legal money per coin); a real adapter reads its exchange. */
const cryptoRates: Record<CryptoCurrency, { rate: string; decimals: number }> = {
  USDT: { rate: '1', decimals: 4 },
  USDC: { rate: '1', decimals: 4 },
  TUSD: { rate: '1', decimals: 4 },
  ETH: { rate: '3000', decimals: 8 },
  BCH: { rate: '400', decimals: 8 },
};

export interface SubmitInput {
  method: PaymentMethodKey;
  productId: string;
  customAmount?: number | undefined;
  returnUrl?: string | undefined;
  crypto?: { currency: CryptoCurrency; network: CryptoNetwork | null };
}

/**
 * Top-up (issue 10): the brand's amounts and methods, orders (pending → paid | failed | cancelled |
 * expired), crediting once whatever the provider does, the payment, bill and SMS histories, and the
 * operator's view of orders.
 */
export function createPaymentService(deps: {
  db: Database;
  jobs: Jobs;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The default provider (every method). */
  provider: PaymentProvider;
  /** PayPal's own adapter, when configured (PAYMENT_PAYPAL=paypal); else PayPal goes to the default. */
  paypal?: PaymentProvider | undefined;
  /** Stripe, when configured (PAYMENT_PROVIDER=stripe): card, UnionPay, Alipay and WeChat Pay go there. */
  stripe?: PaymentProvider | undefined;
  options: PaymentOptions;
}) {
  const { db, jobs, clock, log, provider, paypal, stripe, options } = deps;
  const all = [provider, ...(paypal ? [paypal] : []), ...(stripe ? [stripe] : [])];
  const providerFor = (method: string) =>
    method === 'paypal' && paypal ? paypal : stripe && method in stripeMethodTypes ? stripe : provider;
  const byName = (name: string) => all.find((p) => p.name === name) ?? null;
  const plog = log.child({ area: 'payments' });

  /** amount and bonus of a product on a brand, exactly as spec 001 §9; 200025 when not offered. */
  function priceOf(
    brandId: BrandId,
    method: PaymentMethodKey,
    productId: string,
    customAmount: number | undefined,
  ) {
    const brand = brands[brandId];
    const p = parseProductId(productId);
    const currency = currencyOf(brandId);
    if (!p || p.prefix !== constants.productPrefixes[wayOf(method)] || p.currency !== currency)
      throw new ApiError(200025);
    const noBonus = isCrypto(method) && !brand.topUp.cryptoBonus;
    if (p.amount === 'CUSTOM') {
      if (method === 'paypal' || customAmount === undefined) throw new ApiError(200025);
      const { min, max } = brand.topUp.custom;
      if (customAmount < min || customAmount > max) throw new ApiError(200025);
      const amount = toMinor(customAmount);
      // the 15 % gift the summary shows, credited as shown (to the cent)
      const bonus = noBonus
        ? minor(0)
        : toMinor(Math.round(customAmount * brand.topUp.customGiftRate * 100) / 100);
      return { amount, bonus, currency };
    }
    const preset = brand.topUp.presets.find((x) => x.amount === p.amount);
    if (!preset) throw new ApiError(200025);
    return { amount: toMinor(preset.amount), bonus: toMinor(noBonus ? 0 : preset.bonus), currency };
  }

  async function owned(accountId: number, orderId: string): Promise<OrderRow> {
    const id = Number(orderId);
    const order = Number.isSafeInteger(id) && id > 0 ? await paymentsRepo.byId(db.q, id) : null;
    // another account's order is as unknown as a missing one
    if (!order || order.accountId !== accountId) throw new ApiError(200046);
    return order;
  }

  /** Credits a verified paid notification once; the refusals are recorded and logged. */
  async function settle(
    provider: PaymentProvider,
    n: PaymentNotification,
    hostBrand: BrandId | null,
  ): Promise<'credited' | 'failed' | 'duplicate' | 'ignored'> {
    const order = await paymentsRepo.byRef(db.q, provider.name, n.ref);
    if (!order) {
      plog.warn({ eventId: n.eventId, ref: n.ref }, 'payment notification for no order refused');
      throw new ApiError(200046);
    }
    const refuse = async (why: string) => {
      plog.error(
        { eventId: n.eventId, orderId: order.id, why, got: { amount: n.amount, currency: n.currency } },
        'payment notification refused',
      );
      await db.tx((tx) =>
        paymentsRepo.recordEvent(tx, {
          provider: provider.name,
          eventId: n.eventId,
          orderId: order.id,
          result: `refused: ${why}`,
          payload: n.payload,
        }),
      );
      return new ApiError(100001, null, why);
    };
    if (hostBrand && order.brand !== hostBrand) throw await refuse('brand');
    if (n.outcome === 'paid' && (n.amount !== order.amount || n.currency !== order.currency))
      throw await refuse('amount');
    const now = new Date(clock.now());
    return db.tx(async (tx) => {
      if (n.outcome === 'failed') {
        const fresh = await paymentsRepo.recordEvent(tx, {
          provider: provider.name,
          eventId: n.eventId,
          orderId: order.id,
          result: 'failed',
          payload: n.payload,
        });
        if (!fresh) return 'duplicate';
        await paymentsRepo.close(tx, order.id, 'failed', now);
        return 'failed';
      }
      // one writer wins the order; its bill has the order's key besides
      const paid = await paymentsRepo.markPaid(tx, order.id, now);
      const fresh = await paymentsRepo.recordEvent(tx, {
        provider: provider.name,
        eventId: n.eventId,
        orderId: order.id,
        result: paid ? 'credited' : 'ignored',
        payload: n.payload,
      });
      if (!paid) return fresh ? 'ignored' : 'duplicate';
      await ledger.apply(tx, {
        accountId: order.accountId,
        type: constants.billTypes.recharge,
        charge: addMinor(order.amount, order.bonus),
        options: {
          amount: fromMinor(order.amount),
          gift: fromMinor(order.bonus),
          purchaseMethod: purchaseMethodOf(order.method),
          orderId: String(order.id),
        },
        idempotencyKey: idemKey('pay', order.id),
      });
      return 'credited';
    });
  }

  jobs.define(
    'payments.expire',
    async (_p, ctx) => {
      const n = await paymentsRepo.expireDue(db.q, new Date(ctx.now()));
      if (n) plog.info({ expired: n }, 'payment orders expired');
    },
    { maxAttempts: 3 },
  );
  jobs.schedule('payments.expire', { everyMs: 60_000 }, {});

  return {
    provider,

    /** getPaymentMethods: the brand's methods; needSetPhone for card methods without a phone. */
    async methods(accountId: number, brand: BrandId): Promise<PaymentMethods> {
      const account = await accountsRepo.byId(db.q, accountId);
      const hasPhone = !!account?.phone;
      const offered = new Set(brandPaymentMethods[brand]);
      const flags = Object.fromEntries(constants.paymentMethods.map((m) => [m, offered.has(m)])) as Record<
        PaymentMethodKey,
        boolean
      >;
      const needSetPhone = Object.fromEntries(
        constants.paymentMethods.map((m) => [
          m,
          offered.has(m) && !hasPhone && methodsNeedingPhone.includes(m),
        ]),
      ) as Record<PaymentMethodKey, boolean>;
      return { ...flags, needSetPhone };
    },

    /**
     * A submit: checks the method, the amount and today's attempts (under the account's lock, so
     * concurrent submits never pass the limit), stores the order, then opens the provider's checkout.
     */
    async submit(accountId: number, brand: BrandId, baseUrl: string, input: SubmitInput) {
      if (!brandPaymentMethods[brand].includes(input.method)) throw new ApiError(200044);
      const { amount, bonus, currency } = priceOf(brand, input.method, input.productId, input.customAmount);
      const account = await accountsRepo.byId(db.q, accountId);
      if (!account) throw new ApiError(100012);
      if (methodsNeedingPhone.includes(input.method) && !account.phone) throw new ApiError(200043);
      const now = clock.now();
      let crypto:
        | {
            currency: string;
            network: string | null;
            amount: string;
            address: string;
            rate: string;
            rateTime: number;
          }
        | undefined;
      if (input.crypto) {
        const r = cryptoRates[input.crypto.currency];
        const coins = (fromMinor(amount) / Number(r.rate)).toFixed(r.decimals);
        crypto = {
          currency: input.crypto.currency,
          network: input.crypto.network,
          amount: coins,
          address: '',
          rate: r.rate,
          rateTime: now,
        };
      }
      const dayStart = new Date(now - (now % dayMs));
      const provider = providerFor(input.method);
      const order = await db.tx(async (tx) => {
        if (!(await paymentsRepo.lockAccount(tx, accountId))) throw new ApiError(100012);
        if ((await paymentsRepo.countSince(tx, accountId, dayStart)) >= options.dailyAttempts)
          throw new ApiError(200040);
        return paymentsRepo.insert(tx, {
          accountId,
          brand,
          method: input.method,
          provider: provider.name,
          productId: input.productId,
          currency,
          amount,
          bonus,
          // replaced by the provider's reference once its checkout is open
          providerRef: `new:${accountId}:${now}:${Math.random().toString(36).slice(2)}`,
          returnUrl: input.returnUrl ?? null,
          crypto: crypto ?? null,
          expiresAt: new Date(now + (isCrypto(input.method) ? cryptoTtlMs : options.orderTtlMs)),
        });
      });
      if (crypto) crypto.address = sandboxAddress(crypto.currency, crypto.network, order.id);
      try {
        const checkout = await provider.createCheckout({
          orderId: order.id,
          brand,
          method: input.method,
          amount,
          currency,
          description: `${brands[brand].name.en} top-up #${order.id}`,
          baseUrl,
          returnUrl: order.returnUrl,
          ...(crypto
            ? {
                crypto: {
                  currency: crypto.currency,
                  network: crypto.network,
                  amount: crypto.amount,
                  address: crypto.address,
                },
              }
            : {}),
        });
        await paymentsRepo.setProviderRef(db.q, order.id, checkout.ref, crypto);
        return { order: { ...order, providerRef: checkout.ref }, checkout, crypto };
      } catch (err) {
        await paymentsRepo.close(db.q, order.id, 'failed', new Date(clock.now()));
        plog.error({ err, orderId: order.id }, 'payment checkout could not be opened');
        throw new ApiError(err instanceof ProviderUnavailable ? 200041 : 200042);
      }
    },

    /** The dialog's cleanup: a pending order is cancelled (at the provider too); others stay. */
    async cancel(accountId: number, orderId: string): Promise<{ orderId: string; status: PaymentStatus }> {
      const order = await owned(accountId, orderId);
      if (order.status === 'pending') {
        const closed = await paymentsRepo.close(db.q, order.id, 'cancelled', new Date(clock.now()));
        if (closed)
          await (byName(order.provider) ?? provider)
            .cancel(order.providerRef)
            .catch((err: unknown) => plog.warn({ err, orderId: order.id }, 'provider cancel failed'));
      }
      const now = await paymentsRepo.byId(db.q, order.id);
      return { orderId: String(order.id), status: (now?.status ?? order.status) as PaymentStatus };
    },

    async status(accountId: number, orderId: string) {
      const order = await owned(accountId, orderId);
      const account = await accountsRepo.byId(db.q, accountId);
      return {
        orderId: String(order.id),
        status: order.status as PaymentStatus,
        amount: fromMinor(order.amount),
        gift: fromMinor(order.bonus),
        balance: fromMinor(account?.balance ?? minor(0)),
      };
    },

    /** A provider's notification (webhook): verified, then settled once. */
    async notify(providerName: string, webhook: IncomingWebhook, hostBrand: BrandId | null) {
      const provider = byName(providerName);
      if (!provider) throw new ApiError(100003);
      let n: PaymentNotification | null;
      try {
        n = await provider.parseNotification(webhook);
      } catch (err) {
        if (err instanceof ForgedNotification) {
          plog.warn({ why: err.message }, 'payment notification with a bad signature refused');
          throw new ApiError(100003, null, 'signature');
        }
        throw err;
      }
      if (!n) return 'ignored' as const;
      return settle(provider, n, hostBrand);
    },

    // --- histories ---

    async paymentList(accountId: number, ym: string, pageNo: number, pageSize: number) {
      const { from, to } = monthRange(ym);
      const t = constants.billTypes;
      const { rows, total } = await historyRepo.payments(
        db.q,
        accountId,
        [t.recharge, t.inviteBonus, t.redeemBonus],
        from,
        to,
        pageSize,
        (pageNo - 1) * pageSize,
      );
      const paymentList: PaymentHistoryItem[] = rows.map((r) => {
        const o = r.options as { amount?: number; gift?: number; purchaseMethod?: string };
        const recharge = r.type === t.recharge;
        return {
          _id: String(r.id),
          method:
            recharge && isPurchaseMethod(o.purchaseMethod)
              ? o.purchaseMethod
              : recharge
                ? 'creditCard'
                : 'invite',
          amount: recharge ? (o.amount ?? fromMinor(r.charge)) : fromMinor(r.charge),
          gifts: recharge ? (o.gift ?? 0) : 0,
          date: r.createdAt.getTime(),
        };
      });
      return { totalRows: total, paymentList };
    },

    async billList(accountId: number, ym: string, nextPage: string | undefined, pageSize: number) {
      const { from, to } = monthRange(ym);
      const before = nextPage && /^\d{1,18}$/.test(nextPage) ? Number(nextPage) : null;
      if (nextPage && before === null) throw new ApiError(100001, null, 'nextPage');
      const rows = await historyRepo.bills(db.q, accountId, from, to, before, pageSize);
      const list: BillItem[] = rows.map((r) => ({
        _id: String(r.id),
        type: r.type as BillItem['type'],
        charge: fromMinor(r.charge),
        beforeBalance: fromMinor(r.beforeBalance),
        afterBalance: fromMinor(r.afterBalance),
        date: r.createdAt.getTime(),
        options: billOptions(r.options),
      }));
      return { list, nextPage: rows.length === pageSize ? String(rows[rows.length - 1]!.id) : null };
    },

    /** A month of bills as CSV (every row; beyond the spec: users expense them). */
    async billCsv(accountId: number, ym: string): Promise<string> {
      const { from, to } = monthRange(ym);
      const lines = ['id,date_utc,type,charge,before_balance,after_balance,details'];
      let before: number | null = null;
      for (;;) {
        const rows = await historyRepo.bills(db.q, accountId, from, to, before, 1000);
        for (const r of rows) {
          const details = JSON.stringify(r.options ?? {});
          lines.push(
            [
              r.id,
              r.createdAt.toISOString(),
              billTypeName(r.type),
              fromMinor(r.charge),
              fromMinor(r.beforeBalance),
              fromMinor(r.afterBalance),
              csvCell(details),
            ].join(','),
          );
        }
        if (rows.length < 1000) break;
        before = rows[rows.length - 1]!.id;
      }
      return `${lines.join('\r\n')}\r\n`;
    },

    async smsList(accountId: number, ym: string, pageNo: number, pageSize: number) {
      const { from, to } = monthRange(ym);
      const { rows, total } = await historyRepo.messages(
        db.q,
        accountId,
        from,
        to,
        pageSize,
        (pageNo - 1) * pageSize,
      );
      const smsList: SmsRecord[] = rows.map((r) => ({
        _id: String(r.id),
        direction: r.direction,
        toNumber: r.direction === 'out' ? r.other : r.own,
        fromNumber: r.direction === 'out' ? r.own : r.other,
        date: Number(r.date),
        charge: fromMinor(r.charge),
        type: r.type,
        text: r.text,
      }));
      return { totalRows: total, smsList };
    },

    // --- the operator ---

    async list(f: { accountId?: number; status?: string; limit?: number }) {
      return paymentsRepo.list(db.q, { ...f, limit: f.limit ?? 50 });
    },

    async show(orderId: number) {
      const order = await paymentsRepo.byId(db.q, orderId);
      if (!order) return null;
      return { order, events: await paymentsRepo.eventsOf(db.q, orderId) };
    },

    /** Re-queries a stuck order at its provider and settles it as the provider says. */
    async requery(orderId: number): Promise<string> {
      const order = await paymentsRepo.byId(db.q, orderId);
      if (!order) return 'no such order';
      if (order.status === 'paid') return 'already paid';
      const p = byName(order.provider);
      if (!p) return `provider ${order.provider} is not configured`;
      const answer = await p.query(order.providerRef);
      if (answer === 'pending' || answer === 'unknown') return `provider says ${answer}`;
      return settle(p, answer, null);
    },

    /** Refunds a paid order: its own bill (type 8) takes back amount + bonus, once. */
    async refund(orderId: number): Promise<string> {
      const order = await paymentsRepo.byId(db.q, orderId);
      if (!order) return 'no such order';
      if (order.status !== 'paid') return `not paid (${order.status})`;
      if (order.refundedAt) return 'already refunded';
      const p = byName(order.provider);
      if (!p) return `provider ${order.provider} is not configured`;
      await p.refund(order.providerRef, order.amount);
      const done = await db.tx(async (tx) => {
        if (!(await paymentsRepo.markRefunded(tx, order.id, new Date(clock.now())))) return false;
        await ledger.apply(tx, {
          accountId: order.accountId,
          type: constants.billTypes.refund,
          charge: negMinor(addMinor(order.amount, order.bonus)),
          options: {
            amount: fromMinor(order.amount),
            gift: fromMinor(order.bonus),
            purchaseMethod: purchaseMethodOf(order.method),
            orderId: String(order.id),
          },
          idempotencyKey: idemKey('pay-refund', order.id),
        });
        return true;
      });
      return done ? 'refunded' : 'already refunded';
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;

/** The sandbox's deposit address for an order (a real adapter gets it from its processor). */
function sandboxAddress(currency: string, network: string | null, orderId: number): string {
  const hex = createHash('sha256')
    .update(`sandbox:${currency}:${network ?? ''}:${orderId}`)
    .digest('hex');
  return network === 'TRC-20' ? `T${hex.slice(0, 33)}` : `0x${hex.slice(0, 40)}`;
}

const billOptionKeys = new Set([
  'amount',
  'gift',
  'purchaseMethod',
  'campaignName',
  'direction',
  'from',
  'to',
  'type',
  'duration',
  'count',
  'successCount',
  'countryCode',
  'number',
  'days',
  'orderId',
  'cardType',
  'validityType',
  'planCount',
]);
/** A bill's options as the contract has them (keys other areas keep for themselves stay out). */
function billOptions(o: Record<string, unknown>): BillItem['options'] {
  return Object.fromEntries(
    Object.entries(o ?? {}).filter(([k]) => billOptionKeys.has(k)),
  ) as BillItem['options'];
}

const billTypeNames = Object.fromEntries(
  Object.entries(constants.billTypes).map(([k, v]) => [v, k]),
) as Record<number, string>;
const billTypeName = (t: number) => billTypeNames[t] ?? String(t);
const csvCell = (s: string) => `"${s.replace(/"/g, '""')}"`;
