import { z } from 'zod';
import { type BrandId, Empty, EntityId, EpochMs, HttpUrl, Money } from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';

/*
 * Top-up (spec 001 §2 Payment screen, §4 Exact pay / PayPal / WeChat / Crypto, §7).
 * Every submit creates a payment order and returns its `orderId` (decided: the spec shows no id, but
 * the dialog's cancel/cleanup call and the status query need one). The balance is credited when the
 * provider confirms (webhook), once, whatever the number of notifications.
 * Bodies use the spec's wire names (productid, return_url, custom_amount, devicetype …).
 */

/** Product id: `<prefix>_web_<usd|cny>_<amount|CUSTOM>` (see constants.productPrefixes). */
export const ProductId = z
  .string()
  .regex(
    new RegExp(`^(${Object.values(constants.productPrefixes).join('|')})_web_(usd|cny)_(\\d{1,6}|CUSTOM)$`),
    'Invalid product id',
  );
export type ProductId = z.infer<typeof ProductId>;

/** Builds a product id: `productId('creditCard', 'usd', 10)` → `card_web_usd_10`. */
export const productId = (
  way: keyof typeof constants.productPrefixes,
  currency: 'usd' | 'cny',
  amount: number | 'CUSTOM',
): string => `${constants.productPrefixes[way]}_web_${currency}_${amount}`;

/** Parses a product id into its parts; null if it is not one. */
export const parseProductId = (id: string) => {
  const m = /^([a-z]+)_web_(usd|cny)_(\d{1,6}|CUSTOM)$/.exec(id);
  if (!m) return null;
  return {
    prefix: m[1]!,
    currency: m[2] as 'usd' | 'cny',
    amount: m[3] === 'CUSTOM' ? ('CUSTOM' as const) : Number(m[3]),
  };
};

/** A custom amount: positive, at most 2 decimals (the brand's range is checked by the server). */
export const CustomAmount = z.number().positive().max(1_000_000).multipleOf(0.01);

/** custom_amount is given exactly when the product is a CUSTOM one. */
const customAmountMatches = (
  v: { productid: string; custom_amount?: number | undefined },
  ctx: z.RefinementCtx,
) => {
  const custom = v.productid.endsWith('_CUSTOM');
  if (custom && v.custom_amount === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'custom_amount is required for a CUSTOM product',
      path: ['custom_amount'],
    });
  } else if (!custom && v.custom_amount !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'custom_amount is only for a CUSTOM product',
      path: ['custom_amount'],
    });
  }
};

const DeviceType = z.literal(constants.paymentDeviceType);
const BrowserType = z.literal(constants.paymentBrowserType);

/** The order a submit created, and the provider page to open in a new window (or the WeChat QR content). */
const PaymentRedirect = z.object({ orderId: EntityId, paymentUrl: z.string().min(1).max(4096) });

export const paySubmit = defineEndpoint({
  name: 'paySubmit',
  method: 'POST',
  path: '/web/paySubmit',
  access: 'session',
  summary:
    'Start a card, WeChat Pay or UnionPay top-up; returns the provider page (a QR code for WeChat Pay).',
  input: z
    .strictObject({
      payment_method: z.enum(constants.paySubmitMethods),
      productid: ProductId,
      custom_amount: CustomAmount.optional(),
      return_url: HttpUrl.optional(),
      /** 'web' for the desktop page; 'h5' for a mobile page (spec: "h5 or web pay"). */
      method: z.enum(['web', 'h5']).default('web'),
      devicetype: DeviceType.default(constants.paymentDeviceType),
      browser_type: BrowserType.default(constants.paymentBrowserType),
    })
    .superRefine(customAmountMatches),
  output: PaymentRedirect,
});

export const alipayPaySubmit = defineEndpoint({
  name: 'alipayPaySubmit',
  method: 'POST',
  path: '/web/alipay/paySubmit',
  access: 'session',
  summary: 'Start an Alipay top-up; returns the Alipay page to open.',
  input: z
    .strictObject({
      productid: ProductId,
      custom_amount: CustomAmount.optional(),
      return_url: HttpUrl.optional(),
      method: z.enum(['web', 'h5']).default('web'),
      devicetype: DeviceType.default(constants.paymentDeviceType),
      browser_type: BrowserType.default(constants.paymentBrowserType),
    })
    .superRefine(customAmountMatches),
  output: PaymentRedirect,
});

export const cryptoCurrencyPaySubmit = defineEndpoint({
  name: 'cryptoCurrencyPaySubmit',
  method: 'POST',
  path: '/web/cryptoCurrency/paySubmit',
  access: 'session',
  summary: 'Start a top-up through the hosted crypto checkout (cryptoPay); returns its page.',
  input: z
    .strictObject({
      productid: ProductId,
      custom_amount: CustomAmount.optional(),
      return_url: HttpUrl.optional(),
      devicetype: DeviceType.default(constants.paymentDeviceType),
    })
    .superRefine(customAmountMatches),
  output: PaymentRedirect,
});

/**
 * PayPal (spec 001 §4, §7). The spec's client posts PayPal's legacy hosted-button form in a new tab;
 * decided (issue 18 §2): the server creates a PayPal Orders v2 order and answers its approval page as
 * `paymentUrl`, which the client opens in a new window like every other provider page (the dialog's
 * texts and states are the spec's). `transactionId` is the provider's reference of the checkout (the
 * PayPal order id). Custom amounts are not offered for PayPal.
 */
export const paypalPaySubmit = defineEndpoint({
  name: 'paypalPaySubmit',
  method: 'POST',
  path: '/web/paypal/paySubmit',
  access: 'session',
  summary: 'Start a PayPal top-up; returns the transaction id and the PayPal page to open.',
  input: z.strictObject({
    productid: ProductId.refine(
      (p) => !p.endsWith('_CUSTOM'),
      'Custom amounts are not available with PayPal',
    ),
    devicetype: DeviceType.default(constants.paymentDeviceType),
  }),
  output: z.object({
    orderId: EntityId,
    transactionId: z.string().min(1),
    paymentUrl: z.string().min(1).max(4096),
  }),
});

export const CryptoCurrency = z.enum(constants.cryptoCurrencies);
export type CryptoCurrency = z.infer<typeof CryptoCurrency>;
export const CryptoNetwork = z.enum(constants.cryptoNetworks);
export type CryptoNetwork = z.infer<typeof CryptoNetwork>;

/** A crypto amount as exact decimal text (up to 8 decimals). */
export const CryptoAmount = z.string().regex(/^\d{1,12}(\.\d{1,8})?$/, 'Expected a decimal amount');

/**
 * The crypto payment response (spec 001 §3): send exactly `rechargeAmount` of `currency` to
 * `walletAddress` on `network`. Decided: amounts and the rate are decimal text (exact to 8
 * decimals); `queryRateTime` is when the rate was read (epoch ms).
 */
export const CryptoPayment = z.object({
  orderId: EntityId,
  currency: CryptoCurrency,
  network: CryptoNetwork.nullable(),
  rechargeAmount: CryptoAmount,
  walletAddress: z.string().min(1),
  cryptoToLegalRate: CryptoAmount,
  queryRateTime: EpochMs,
  /**
   * Decided (issue 10): where the transfer can be made by hand when the provider offers a page for it
   * (the sandbox's wallet page, with "send exactly this amount"); absent for a real processor.
   */
  paymentUrl: z.string().min(1).max(4096).optional(),
});
export type CryptoPayment = z.infer<typeof CryptoPayment>;

/** The crypto-transfer product is always the `crypto` prefix; networks per spec 001 §5. */
export const etherPayPaySubmit = defineEndpoint({
  name: 'etherPayPaySubmit',
  method: 'POST',
  path: '/web/etherPay/paySubmit',
  access: 'session',
  summary:
    'Start a direct crypto transfer top-up (USDT, USDC, TUSD, ETH, BCH); returns amount, address and rate.',
  input: z
    .strictObject({
      productid: ProductId,
      custom_amount: CustomAmount.optional(),
      currency: CryptoCurrency,
      /** Not sent for ETH and BCH; USDC has no TRC-20. */
      network: CryptoNetwork.optional(),
      devicetype: DeviceType.default(constants.paymentDeviceType),
    })
    .superRefine(customAmountMatches)
    .superRefine((v, ctx) => {
      const noNetwork = (constants.cryptoWithoutNetwork as readonly string[]).includes(v.currency);
      if (noNetwork && v.network !== undefined) {
        ctx.addIssue({ code: 'custom', message: `No network for ${v.currency}`, path: ['network'] });
      } else if (!noNetwork && v.network === undefined) {
        ctx.addIssue({ code: 'custom', message: 'network is required', path: ['network'] });
      } else if (
        v.currency === 'USDC' &&
        v.network &&
        !(constants.usdcNetworks as readonly string[]).includes(v.network)
      ) {
        ctx.addIssue({ code: 'custom', message: `USDC is not offered on ${v.network}`, path: ['network'] });
      }
    }),
  output: CryptoPayment,
});

export const PaymentMethodKey = z.enum(constants.paymentMethods);
export type PaymentMethodKey = z.infer<typeof PaymentMethodKey>;

const methodFlags = Object.fromEntries(constants.paymentMethods.map((m) => [m, z.boolean()])) as Record<
  PaymentMethodKey,
  z.ZodBoolean
>;

/**
 * Payment-method flags (spec 001 §3): which methods the brand offers, and `needSetPhone` per method
 * (decided shape: an object with the same keys) — true when that method needs a verified phone the
 * account lacks. Choosing such a method opens the verify modal in charge mode.
 */
export const PaymentMethods = z.object({ ...methodFlags, needSetPhone: z.object(methodFlags) });
export type PaymentMethods = z.infer<typeof PaymentMethods>;

export const getPaymentMethods = defineEndpoint({
  name: 'getPaymentMethods',
  method: 'GET',
  path: '/web/getPaymentMethods',
  access: 'session',
  summary: 'Which payment methods this brand offers the account, and which need a verified phone first.',
  input: Empty,
  output: PaymentMethods,
});

export const PaymentStatus = z.enum(constants.paymentStatuses);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/**
 * The cleanup call when a payment dialog closes (spec 001 §4: it runs but is not named; named here).
 * It cancels the order if it is still pending; a paid order stays paid (a late webhook still credits a
 * cancelled order: money received is never lost). Idempotent. Result: the order's status after.
 */
export const cancelPayment = defineEndpoint({
  name: 'cancelPayment',
  method: 'POST',
  path: '/web/cancelPayment',
  access: 'session',
  summary: 'Close a payment order when its dialog closes; returns its final status.',
  input: z.strictObject({ orderId: EntityId }),
  output: z.object({ orderId: EntityId, status: PaymentStatus }),
});

/** The state of one order (ours): the dialog polls it to show success and refresh the balance. */
export const queryPaymentStatus = defineEndpoint({
  name: 'queryPaymentStatus',
  method: 'GET',
  path: '/web/queryPaymentStatus',
  access: 'session',
  summary: "A payment order's status, amount and gift, and the balance now.",
  input: z.strictObject({ orderId: EntityId }),
  output: z.object({
    orderId: EntityId,
    status: PaymentStatus,
    amount: Money,
    gift: Money,
    balance: Money,
  }),
});

/**
 * Decided (issue 10; the spec lists the methods but not which brand offers which): every dollar or
 * Coins brand offers all of them; cloudnumber (yuan) offers WeChat Pay, Alipay and UnionPay only
 * (PayPal and the crypto services settle in dollars).
 */
export const brandPaymentMethods: Record<BrandId, readonly PaymentMethodKey[]> = {
  numa: constants.paymentMethods,
  wephone: constants.paymentMethods,
  wetalk: constants.paymentMethods,
  wetalkpro: constants.paymentMethods,
  jiema: constants.paymentMethods,
  cloudnumber: ['wechatpay', 'alipay', 'unionpay'],
};

/**
 * Decided (spec 001 §5: "a real phone must be verified before paying" for some methods): card
 * payments (creditCard, unionpay) need a verified phone on the account; getPaymentMethods says so in
 * `needSetPhone` and the client opens the verify modal in charge mode.
 */
export const methodsNeedingPhone: readonly PaymentMethodKey[] = ['creditCard', 'unionpay'];

/** The crypto transfer methods and their currency (etherPay/paySubmit). */
export const cryptoMethodOf: Record<CryptoCurrency, PaymentMethodKey> = {
  USDT: 'usdtPay',
  USDC: 'usdcPay',
  TUSD: 'tusdPay',
  ETH: 'ethPay',
  BCH: 'bchPay',
};
