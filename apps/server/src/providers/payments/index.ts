import { randomUUID } from 'node:crypto';
import type { Database } from '../../db';
import type { Env } from '../../env';
import type { Clock } from '../../lib/clock';
import { simulatorsAllowed } from '../requirements';
import { BtcpayPayments, defaultBtcpayMethods } from './btcpay';
import { PaypalPayments } from './paypal';
import type { PaymentProvider } from './port';
import { paymentKinds } from './requirements';
import { SandboxPayments, type Deliver } from './sandbox';
import { StripePayments } from './stripe';

/**
 * The payment providers configuration chooses, per method group (providers/payments/requirements.ts):
 * Stripe for card and wallets (PAYMENT_PROVIDER), PayPal's own (PAYMENT_PAYPAL), the crypto methods'
 * (PAYMENT_CRYPTO), and the sandbox for every group that names it, only where simulators may run
 * (never in production without DEMO_MODE). An adapter chosen without its variables refuses the start,
 * naming them. `off`: the methods of every group with no provider here (switched off, or unset in
 * production): not offered.
 */
export function paymentProviders(
  env: Env,
  db: Database,
  clock: Clock,
  deliver: Deliver,
): {
  provider: PaymentProvider | undefined;
  paypal: PaymentProvider | undefined;
  stripe: PaymentProvider | undefined;
  crypto: PaymentProvider | undefined;
  off: string[];
} {
  const sandboxOk = simulatorsAllowed(env);
  const valueOf = (selector: string) => (env as Record<string, unknown>)[selector];
  const served = (kind: (typeof paymentKinds)[number]) => {
    const value = valueOf(kind.selector);
    return (value === kind.simulator && sandboxOk) || kind.real.some((a) => a.value === value);
  };
  const off = paymentKinds.filter((k) => !served(k)).flatMap((k) => k.methods ?? []);
  const provider = paymentKinds.some((k) => valueOf(k.selector) === k.simulator && sandboxOk)
    ? new SandboxPayments(db, env.PAYMENT_SANDBOX_SECRET ?? randomUUID() + randomUUID(), clock, deliver)
    : undefined;
  let paypal: PaymentProvider | undefined;
  if (env.PAYMENT_PAYPAL === 'paypal') {
    if (!env.PAYPAL_CLIENT_ID || !env.PAYPAL_CLIENT_SECRET || !env.PAYPAL_WEBHOOK_ID)
      throw new Error(
        'PAYMENT_PAYPAL=paypal needs PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID',
      );
    paypal = new PaypalPayments(
      {
        clientId: env.PAYPAL_CLIENT_ID,
        clientSecret: env.PAYPAL_CLIENT_SECRET,
        webhookId: env.PAYPAL_WEBHOOK_ID,
        environment: env.PAYPAL_ENVIRONMENT,
        invoicePrefix: env.PAYPAL_INVOICE_PREFIX,
        apiBaseUrl: env.PAYPAL_API_BASE_URL,
      },
      clock,
    );
  }
  let crypto: PaymentProvider | undefined;
  if (env.PAYMENT_CRYPTO === 'btcpay') {
    if (!env.BTCPAY_URL || !env.BTCPAY_API_KEY || !env.BTCPAY_STORE_ID || !env.BTCPAY_WEBHOOK_SECRET)
      throw new Error(
        'PAYMENT_CRYPTO=btcpay needs BTCPAY_URL, BTCPAY_API_KEY, BTCPAY_STORE_ID and BTCPAY_WEBHOOK_SECRET',
      );
    crypto = new BtcpayPayments(
      {
        url: env.BTCPAY_URL,
        apiKey: env.BTCPAY_API_KEY,
        storeId: env.BTCPAY_STORE_ID,
        webhookSecret: env.BTCPAY_WEBHOOK_SECRET,
        paymentMethods: { ...defaultBtcpayMethods, ...env.BTCPAY_PAYMENT_METHODS },
        invoiceExpirationMinutes: env.BTCPAY_INVOICE_EXPIRATION_MINUTES,
      },
      clock,
    );
  }
  let stripe: PaymentProvider | undefined;
  if (env.PAYMENT_PROVIDER === 'stripe') {
    if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET)
      throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    stripe = new StripePayments({
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiBaseUrl: env.STRIPE_API_BASE_URL,
    });
  }
  return { provider, paypal, stripe, crypto, off };
}
