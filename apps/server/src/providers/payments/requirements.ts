import { cryptoMethodOf } from '@numa/contract';
import type { EnvView, ProviderKind } from '../kind';

/*
 * Payment methods come in groups, each with the variable that picks its provider. A group left unset
 * in production is not offered (getPaymentMethods leaves its methods out; a submit answers 200044);
 * at least one method must have a real provider (providers/requirements.ts).
 *
 * A provider's test mode is a sandbox too: a payment in it moves no money, and anyone can make one
 * (Stripe's documented test cards, PayPal's sandbox accounts). So production takes only live
 * credentials, and a demo (DEMO_MODE=1, whose every page says no real money moves) only test ones.
 */

/** Stripe's secret (or restricted) key is a live one. */
const liveStripeKey = (env: EnvView) =>
  typeof env.STRIPE_SECRET_KEY === 'string' && /^(sk|rk)_live_/.test(env.STRIPE_SECRET_KEY);
const keySet = (env: EnvView) => typeof env.STRIPE_SECRET_KEY === 'string' && env.STRIPE_SECRET_KEY !== '';

export const cardPaymentsKind: ProviderKind = {
  title: 'Payments: card, UnionPay, Alipay, WeChat Pay',
  selector: 'PAYMENT_PROVIDER',
  does: 'takes card and wallet top-ups',
  simulator: 'sandbox',
  methods: ['creditCard', 'unionpay', 'alipay', 'wechatpay'],
  real: [
    {
      value: 'stripe',
      needs: [
        { name: 'STRIPE_SECRET_KEY', does: "Stripe's live secret key (sk_live_… or a restricted rk_live_…)" },
        {
          name: 'STRIPE_WEBHOOK_SECRET',
          does: 'the signing secret (whsec_…) of the webhook endpoint <public URL>/pay/notify/stripe',
        },
      ],
      check: (env) =>
        !keySet(env)
          ? []
          : env.DEMO_MODE === true
            ? liveStripeKey(env)
              ? [
                  'a test STRIPE_SECRET_KEY (sk_test_…): DEMO_MODE=1 promises no real money, and this key is live',
                ]
              : []
            : liveStripeKey(env)
              ? []
              : [
                  'a live STRIPE_SECRET_KEY (sk_live_…): this one is not, and in test mode anyone tops up with a test card while no money arrives',
                ],
    },
  ],
  off: { value: 'none', effect: 'these methods are not offered' },
};

export const paypalPaymentsKind: ProviderKind = {
  title: 'Payments: PayPal',
  selector: 'PAYMENT_PAYPAL',
  does: 'takes PayPal top-ups',
  simulator: 'sandbox',
  methods: ['paypal'],
  real: [
    {
      value: 'paypal',
      needs: [
        {
          name: 'PAYPAL_CLIENT_ID',
          does: "the REST app's client id (Developer Dashboard → Apps & Credentials)",
        },
        { name: 'PAYPAL_CLIENT_SECRET', does: "the REST app's secret" },
        {
          name: 'PAYPAL_WEBHOOK_ID',
          does: "the id of the app's webhook pointed at <public URL>/pay/notify/paypal",
        },
      ],
      check: (env) =>
        env.DEMO_MODE === true
          ? env.PAYPAL_ENVIRONMENT === 'live'
            ? ['PAYPAL_ENVIRONMENT=sandbox: DEMO_MODE=1 promises no real money, and live PayPal takes it']
            : []
          : env.PAYPAL_ENVIRONMENT === 'live'
            ? []
            : [
                `PAYPAL_ENVIRONMENT=live: it is ${String(env.PAYPAL_ENVIRONMENT ?? 'sandbox')}, and PayPal's sandbox takes no real money`,
              ],
    },
  ],
  off: { value: 'none', effect: 'PayPal is not offered' },
};

export const cryptoPaymentsKind: ProviderKind = {
  title: 'Payments: crypto',
  selector: 'PAYMENT_CRYPTO',
  does: 'takes crypto (the crypto checkout and USDT, USDC, TUSD, ETH, BCH transfers)',
  simulator: 'sandbox',
  methods: ['cryptoPay', ...Object.values(cryptoMethodOf)],
  real: [
    {
      value: 'btcpay',
      needs: [
        { name: 'BTCPAY_URL', does: 'the BTCPay Server (https://pay.example.com)' },
        { name: 'BTCPAY_API_KEY', does: 'a Greenfield API key of the store' },
        { name: 'BTCPAY_STORE_ID', does: 'the store whose invoices top-ups are' },
        {
          name: 'BTCPAY_WEBHOOK_SECRET',
          does: "the secret of the store's webhook pointed at <public URL>/pay/notify/btcpay",
        },
      ],
    },
  ],
  off: { value: 'none', effect: 'crypto is not offered' },
};

/** Every payment-method group; each getPaymentMethods key is in exactly one (test/failclosed.test.ts). */
export const paymentKinds = [cardPaymentsKind, paypalPaymentsKind, cryptoPaymentsKind] as const;
