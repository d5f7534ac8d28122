import { cryptoMethodOf, type PaymentMethodKey } from '@numa/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db';
import type { Jobs } from '../../jobs';
import type { Clock } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import type { Metrics } from '../../metrics';
import { paymentsRepo, type OrderRow } from '../../repositories/payments';
import { servesMethods } from '../../providers/payments/capabilities';
import type { PaymentProvider } from '../../providers/payments/port';
import { stripeMethodTypes } from '../../providers/payments/stripe';
import { createPaymentReturns } from './returns';

export interface PaymentOptions {
  /** Submits one account may make per UTC day (200040 past it). */
  dailyAttempts: number;
  /** How long a card / wallet order waits for its payment. */
  orderTtlMs: number;
}

export const isCrypto = (method: string) =>
  method === 'cryptoPay' || (Object.values(cryptoMethodOf) as string[]).includes(method);

export interface PaymentDeps {
  db: Database;
  jobs: Jobs;
  clock: Clock;
  log: FastifyBaseLogger;
  /**
   * The default provider (every method not routed below): the sandbox where simulators may run;
   * absent in production (issue 18), where a method without its real provider is not offered.
   */
  provider?: PaymentProvider | undefined;
  /** PayPal's own adapter, when configured (PAYMENT_PAYPAL=paypal); else PayPal goes to the default. */
  paypal?: PaymentProvider | undefined;
  /** Stripe, when configured (PAYMENT_PROVIDER=stripe): card, UnionPay, Alipay and WeChat Pay go there. */
  stripe?: PaymentProvider | undefined;
  /** The crypto processor, when configured (PAYMENT_CRYPTO=btcpay): cryptoPay and the direct transfers go there. */
  crypto?: PaymentProvider | undefined;
  /** Methods switched off or with no provider here (providers/payments/index.ts): not offered, 200044. */
  off?: readonly string[] | undefined;
  options: PaymentOptions;
  metrics?: Pick<Metrics, 'paymentOrder'>;
}

/**
 * What every part of top-up shares: the provider that takes each method here, the order an account
 * owns, and the refunds and disputes (returns.ts).
 */
export function paymentContext(deps: PaymentDeps) {
  const { db, log, provider, paypal, stripe, crypto: cryptoProvider } = deps;
  const off = new Set(deps.off ?? []);
  const all = [provider, paypal, stripe, cryptoProvider].filter((p): p is PaymentProvider => !!p);
  /** The provider that takes a method here; undefined: the method is not offered (issue 18). */
  const providerFor = (method: string): PaymentProvider | undefined =>
    off.has(method)
      ? undefined
      : method === 'paypal' && paypal
        ? paypal
        : stripe && method in stripeMethodTypes
          ? stripe
          : cryptoProvider && isCrypto(method)
            ? cryptoProvider
            : provider;
  /** Whether the method has a provider here that can take it now (an adapter may say which methods it serves). */
  const served = async (method: PaymentMethodKey) => {
    const p = providerFor(method);
    return !!p && (!servesMethods(p) || (await p.servedMethods()).has(method));
  };
  const byName = (name: string) => all.find((p) => p.name === name) ?? null;
  const plog = log.child({ area: 'payments' });

  async function owned(accountId: number, orderId: string): Promise<OrderRow> {
    const id = Number(orderId);
    const order = Number.isSafeInteger(id) && id > 0 ? await paymentsRepo.byId(db.q, id) : null;
    // another account's order is as unknown as a missing one
    if (!order || order.accountId !== accountId) throw new ApiError(200046);
    return order;
  }

  const returns = createPaymentReturns({ db, log });

  return { ...deps, all, providerFor, served, byName, plog, owned, returns };
}

export type PaymentContext = ReturnType<typeof paymentContext>;
