import { randomUUID } from 'node:crypto';
import type { Database } from '../../db';
import type { Env } from '../../env';
import type { Clock } from '../../lib/clock';
import { PaypalPayments } from './paypal';
import type { PaymentProvider } from './port';
import { SandboxPayments, type Deliver } from './sandbox';
import { StripePayments } from './stripe';

/** The payment providers configuration chooses: the default (PAYMENT_PROVIDER) and PayPal's (PAYMENT_PAYPAL). */
export function paymentProviders(
  env: Env,
  db: Database,
  clock: Clock,
  deliver: Deliver,
): { provider: PaymentProvider; paypal: PaymentProvider | undefined; stripe: PaymentProvider | undefined } {
  const provider = new SandboxPayments(
    db,
    env.PAYMENT_SANDBOX_SECRET ?? randomUUID() + randomUUID(),
    clock,
    deliver,
  );
  const paypal =
    env.PAYMENT_PAYPAL === 'paypal'
      ? new PaypalPayments({
          formUrl: env.PAYPAL_FORM_URL,
          verifyUrl: env.PAYPAL_VERIFY_URL,
          hostedButtonId: env.PAYPAL_HOSTED_BUTTON_ID ?? '',
          receiverEmail: env.PAYPAL_RECEIVER_EMAIL ?? null,
        })
      : undefined;
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
  return { provider, paypal, stripe };
}
