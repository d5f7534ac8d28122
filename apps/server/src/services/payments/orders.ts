import { createHash } from 'node:crypto';
import {
  brandPaymentMethods,
  brands,
  constants,
  fromMinor,
  methodsNeedingPhone,
  minor,
  parseProductId,
  toMinor,
  type BrandId,
  type CryptoCurrency,
  type CryptoNetwork,
  type PaymentMethodKey,
  type PaymentMethods,
  type PaymentStatus,
} from '@numa/contract';
import { DAY_MS } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { accountsRepo } from '../../repositories/accounts';
import { paymentsRepo } from '../../repositories/payments';
import { servesMethods, transferOf } from '../../providers/payments/capabilities';
import { ProviderUnavailable } from '../../providers/payments/port';
import { cryptoQuote } from '../../providers/payments/quote';
import { currencyOf } from '../pricing';
import { isCrypto, type PaymentContext } from './context';

declare module '../../jobs/types' {
  interface JobPayloads {
    'payments.expire': Record<string, never>;
  }
}

/** Crypto orders wait up to 48 hours (spec 001 §9: a transfer can take that long). */
const cryptoTtlMs = constants.cryptoSettleMaxMs;

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
 * Orders (issue 10): the brand's amounts and methods, a submit that opens the provider's checkout,
 * the dialog's cancel and status, and the expiry of orders nobody paid
 * (pending → paid | failed | cancelled | expired).
 */
export function createPaymentOrders(ctx: PaymentContext) {
  const { db, jobs, clock, options, plog, providerFor, served, byName, owned, provider } = ctx;

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
    /** getPaymentMethods: the brand's methods; needSetPhone for card methods without a phone. */
    async methods(accountId: number, brand: BrandId): Promise<PaymentMethods> {
      const account = await accountsRepo.byId(db.q, accountId);
      const hasPhone = !!account?.phone;
      // a method with no provider here, or one its provider cannot take now, is left out
      const offered = new Set<PaymentMethodKey>();
      for (const m of brandPaymentMethods[brand]) if (await served(m)) offered.add(m);
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
      const provider = providerFor(input.method);
      if (!brandPaymentMethods[brand].includes(input.method) || !provider) throw new ApiError(200044);
      const { amount, bonus, currency } = priceOf(brand, input.method, input.productId, input.customAmount);
      const account = await accountsRepo.byId(db.q, accountId);
      if (!account) throw new ApiError(100012);
      // a method (or coin and network) its provider cannot take now is not offered
      if (!(await served(input.method))) throw new ApiError(200044);
      if (
        input.crypto &&
        servesMethods(provider) &&
        provider.servesTransfer &&
        !(await provider.servesTransfer(input.crypto.currency, input.crypto.network))
      )
        throw new ApiError(200044);
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
        // integer arithmetic, rounded up: the payer never underpays (providers/payments/quote.ts)
        const coins = cryptoQuote(amount, r.rate, r.decimals);
        crypto = {
          currency: input.crypto.currency,
          network: input.crypto.network,
          amount: coins,
          address: '',
          rate: r.rate,
          rateTime: now,
        };
      }
      const dayStart = new Date(now - (now % DAY_MS));
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
        // a processor that quotes the transfer itself (its address, amount and rate) is what the payer sees
        const t = transferOf(checkout);
        if (t && crypto)
          Object.assign(crypto, { amount: t.amount, address: t.address, rate: t.rate, rateTime: t.rateTime });
        await paymentsRepo.setProviderRef(db.q, order.id, checkout.ref, crypto);
        ctx.metrics?.paymentOrder(provider.name, input.method, 'opened');
        return { order: { ...order, providerRef: checkout.ref }, checkout, crypto };
      } catch (err) {
        await paymentsRepo.close(db.q, order.id, 'failed', new Date(clock.now()));
        ctx.metrics?.paymentOrder(provider.name, input.method, 'checkout_failed');
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
            ?.cancel(order.providerRef)
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
  };
}

/** The sandbox's deposit address for an order (a real adapter gets it from its processor). */
function sandboxAddress(currency: string, network: string | null, orderId: number): string {
  const hex = createHash('sha256')
    .update(`sandbox:${currency}:${network ?? ''}:${orderId}`)
    .digest('hex');
  return network === 'TRC-20' ? `T${hex.slice(0, 33)}` : `0x${hex.slice(0, 40)}`;
}
